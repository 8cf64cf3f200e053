import { describe, expect, it } from 'vitest';
import { NON_PROFIT_CORPORATE_STRUCTURES } from '@tay/contract';
import { CORPORATE_STRUCTURES, isKnownCorporateStructure } from './corporate-structures';
import { isKnownMcc, MCC_CODES } from './mcc-codes';
import { isKnownNonProfitCode, NON_PROFIT_CODES } from './non-profit-codes';

describe('merchant category codes', () => {
  it('are several hundred unique 4-digit codes in order, each with a label', () => {
    expect(MCC_CODES.length).toBeGreaterThan(250);
    const codes = MCC_CODES.map((c) => c.code);
    expect(codes).toEqual([...new Set(codes)].sort());
    for (const { code, label } of MCC_CODES) {
      expect(code).toMatch(/^\d{4}$/);
      expect(label.trim()).toBe(label);
      expect(label.length).toBeGreaterThan(3);
    }
  });

  it('include the common ones and leave out brand-specific travel codes', () => {
    for (const code of [
      '0742',
      '0763',
      '0780',
      '1520',
      '4511',
      '5411',
      '5812',
      '7011',
      '8011',
      '8021',
      '8062',
      '8211',
      '8220',
      '8398',
      '8641',
      '8661',
      '9399',
    ]) {
      expect(isKnownMcc(code), code).toBe(true);
    }
    expect(MCC_CODES.filter((c) => c.code >= '3000' && c.code <= '3999')).toEqual([]);
    expect(isKnownMcc('0000')).toBe(false);
  });
});

describe('corporate structures and non-profit codes', () => {
  it('are unique, and the non-profit structures exist', () => {
    expect(new Set(CORPORATE_STRUCTURES.map((s) => s.code)).size).toBe(CORPORATE_STRUCTURES.length);
    for (const code of NON_PROFIT_CORPORATE_STRUCTURES) expect(isKnownCorporateStructure(code)).toBe(true);
    expect(isKnownCorporateStructure('LLC')).toBe(false);
  });

  it('list the IRS 501 subsections, each labelled with its code', () => {
    expect(new Set(NON_PROFIT_CODES.map((c) => c.code)).size).toBe(NON_PROFIT_CODES.length);
    for (const { code, label } of NON_PROFIT_CODES) {
      expect(code).toMatch(/^501\((c\)\(\d{1,2}|[a-z])\)$/);
      expect(label.startsWith(`${code} `)).toBe(true);
      expect(code.length).toBeLessThanOrEqual(20);
    }
    expect(isKnownNonProfitCode('501(c)(3)')).toBe(true);
    expect(isKnownNonProfitCode('501(c)(20)')).toBe(false);
  });
});
