import type { CodeLabel } from '@tay/contract';

/**
 * Legal forms of a US business (GET /api/corpStruct). `non_profit` is the one that takes a
 * non-profit code (`NON_PROFIT_CORPORATE_STRUCTURES` in the contract).
 */
export const CORPORATE_STRUCTURES: readonly CodeLabel[] = [
  { code: 'sole_proprietorship', label: 'Sole proprietorship' },
  { code: 'partnership', label: 'Partnership' },
  { code: 'llc', label: 'Limited liability company (LLC)' },
  { code: 'c_corporation', label: 'C corporation' },
  { code: 's_corporation', label: 'S corporation' },
  { code: 'non_profit', label: 'Non-profit organization' },
  { code: 'government', label: 'Government entity' },
  { code: 'trust', label: 'Trust' },
];

const CODES = new Set(CORPORATE_STRUCTURES.map((s) => s.code));

export function isKnownCorporateStructure(code: string): boolean {
  return CODES.has(code);
}
