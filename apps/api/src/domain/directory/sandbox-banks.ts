import type { DirectoryBank } from '@tay/contract';

/**
 * The sandbox bank directory behind link-account: fictional banks, each with a routing number
 * that passes the ABA checksum, so a settlement account can be set up end to end without a real
 * bank. A real directory replaces this module when a real processor is plugged in.
 */
interface SandboxBank {
  directoryId: string;
  bankName: string;
  routingNumber: string;
  /** Monogram on the bank's logo, and its colour. */
  initials: string;
  color: string;
}

const BANKS: readonly SandboxBank[] = [
  { directoryId: 'tay-sandbox-bank', bankName: 'Tay Sandbox Bank', routingNumber: '222096656', initials: 'TS', color: '#1c7ed6' },
  { directoryId: 'first-test-cu', bankName: 'First Test Credit Union', routingNumber: '092870727', initials: 'FT', color: '#2f9e44' },
  { directoryId: 'harborview-demo', bankName: 'Harborview Demo Savings', routingNumber: '059710286', initials: 'HD', color: '#0c8599' },
  { directoryId: 'prairie-sandbox', bankName: 'Prairie Sandbox Bank', routingNumber: '052512397', initials: 'PS', color: '#e67700' },
  { directoryId: 'summit-test-trust', bankName: 'Summit Test Trust', routingNumber: '303704508', initials: 'ST', color: '#5f3dc4' },
  { directoryId: 'riverbend-sample', bankName: 'Riverbend Sample Bank', routingNumber: '112855965', initials: 'RS', color: '#1971c2' },
  { directoryId: 'lakeshore-test-cu', bankName: 'Lakeshore Test Credit Union', routingNumber: '215425988', initials: 'LT', color: '#087f5b' },
  { directoryId: 'pinecrest-practice', bankName: 'Pinecrest Practice Bank', routingNumber: '244717421', initials: 'PP', color: '#364fc7' },
  { directoryId: 'golden-mesa-demo', bankName: 'Golden Mesa Demo Bank', routingNumber: '282474111', initials: 'GM', color: '#f08c00' },
  { directoryId: 'bluewater-sandbox', bankName: 'Bluewater Sandbox Savings', routingNumber: '326677379', initials: 'BS', color: '#1864ab' },
  { directoryId: 'red-rock-test-cu', bankName: 'Red Rock Test Credit Union', routingNumber: '081976865', initials: 'RR', color: '#c92a2a' },
  { directoryId: 'evergreen-trial', bankName: 'Evergreen Trial Bank', routingNumber: '083538612', initials: 'ET', color: '#2b8a3e' },
];

function monogramLogo(initials: string, color: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">` +
    `<rect width="40" height="40" rx="8" fill="${color}"/>` +
    `<text x="20" y="25.5" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="15" font-weight="700" fill="#ffffff">${initials}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export const SANDBOX_BANKS: readonly DirectoryBank[] = BANKS.map((bank) => ({
  directoryId: bank.directoryId,
  bankName: bank.bankName,
  routingNumber: bank.routingNumber,
  institutionLogo: monogramLogo(bank.initials, bank.color),
}));

/** Case-insensitive "contains" on the bank name or the routing number; everything when empty. */
export function searchSandboxBanks(search: string | undefined): DirectoryBank[] {
  const needle = (search ?? '').trim().toLowerCase();
  if (!needle) return [...SANDBOX_BANKS];
  return SANDBOX_BANKS.filter((bank) => bank.bankName.toLowerCase().includes(needle) || bank.routingNumber.includes(needle));
}

export function sandboxBankById(directoryId: string): DirectoryBank | undefined {
  return SANDBOX_BANKS.find((bank) => bank.directoryId === directoryId);
}

export function sandboxBankByRoutingNumber(routingNumber: string): DirectoryBank | undefined {
  return SANDBOX_BANKS.find((bank) => bank.routingNumber === routingNumber);
}
