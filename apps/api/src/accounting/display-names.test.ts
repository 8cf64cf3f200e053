import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX, displayNameWithEmail, nameKey } from './display-names';

describe('display names where each must be unique (QuickBooks)', () => {
  it('tells two people of one name apart by their e-mail address, as QuickBooks users do', () => {
    expect(displayNameWithEmail('Ana Rivera', 'ana@x.example')).toBe('Ana Rivera (ana@x.example)');
    expect(displayNameWithEmail('  Ana   Rivera ', ' ana@x.example ')).toBe('Ana Rivera (ana@x.example)');
    expect(displayNameWithEmail('Ana Rivera', '')).toBe('Ana Rivera');
  });

  it('stays within QuickBooks’ 100 characters: a long name is shortened first, the address kept whole', () => {
    const long = `Ana ${'Maria '.repeat(20)}Rivera`;
    const named = displayNameWithEmail(long, 'ana.rivera@clinic.example');
    expect(named).toHaveLength(DISPLAY_NAME_MAX);
    expect(named).toMatch(/^Ana Maria Maria.*… \(ana\.rivera@clinic\.example\)$/);
    // Two long names that differ only past the cut still differ by their addresses.
    expect(displayNameWithEmail(`${long} Jr`, 'other@clinic.example')).not.toBe(named);
  });

  it('cuts an address too long to fit whole, and still closes the parenthesis', () => {
    const named = displayNameWithEmail('Ana Rivera', `${'a'.repeat(120)}@x.example`);
    expect(named.length).toBeLessThanOrEqual(DISPLAY_NAME_MAX);
    expect(named.startsWith('Ana R… (aaaa')).toBe(true);
    expect(named.endsWith(')')).toBe(true);
  });

  it('compares names as QuickBooks does: case and extra spaces aside', () => {
    expect(nameKey(' Ana  RIVERA ')).toBe(nameKey('ana rivera'));
  });
});
