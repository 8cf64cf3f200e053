import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber } from '@tay/contract';
import { SANDBOX_BANKS, sandboxBankById, sandboxBankByRoutingNumber, searchSandboxBanks } from './sandbox-banks';

describe('the sandbox bank directory', () => {
  it('has about a dozen banks with unique ids and valid, unique routing numbers', () => {
    expect(SANDBOX_BANKS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(SANDBOX_BANKS.map((b) => b.directoryId)).size).toBe(SANDBOX_BANKS.length);
    expect(new Set(SANDBOX_BANKS.map((b) => b.routingNumber)).size).toBe(SANDBOX_BANKS.length);
    for (const bank of SANDBOX_BANKS) expect(isValidRoutingNumber(bank.routingNumber), bank.bankName).toBe(true);
  });

  it('gives each bank a small inline SVG logo that needs nothing from the network', () => {
    for (const bank of SANDBOX_BANKS) {
      expect(bank.institutionLogo).toMatch(/^data:image\/svg\+xml,/);
      const svg = decodeURIComponent(bank.institutionLogo!.slice('data:image/svg+xml,'.length));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>$/);
      expect(svg).not.toMatch(/<script|href=/i);
      expect(svg.length).toBeLessThan(600);
    }
  });

  it('searches name and routing number, case-insensitively; empty finds all', () => {
    expect(searchSandboxBanks(undefined)).toHaveLength(SANDBOX_BANKS.length);
    expect(searchSandboxBanks('  ')).toHaveLength(SANDBOX_BANKS.length);
    expect(searchSandboxBanks('TAY SANDBOX').map((b) => b.directoryId)).toEqual(['tay-sandbox-bank']);
    expect(searchSandboxBanks('222096').map((b) => b.directoryId)).toEqual(['tay-sandbox-bank']);
    expect(searchSandboxBanks('no such bank')).toEqual([]);
  });

  it('finds a bank by id and by routing number', () => {
    expect(sandboxBankById('first-test-cu')?.bankName).toBe('First Test Credit Union');
    expect(sandboxBankByRoutingNumber(SANDBOX_BANKS[2]!.routingNumber)).toEqual(SANDBOX_BANKS[2]);
    expect(sandboxBankById('manual')).toBeUndefined();
  });
});
