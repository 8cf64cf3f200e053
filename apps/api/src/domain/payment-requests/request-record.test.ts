import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, expiryAfter, parseReferenceNumber, payToken, payTokenHash, todayIn } from './request-record';

describe('request records', () => {
  it('parses references typed in a search box', () => {
    expect(parseReferenceNumber('TRX-10234')).toBe(10234);
    expect(parseReferenceNumber('trx10234')).toBe(10234);
    expect(parseReferenceNumber(' 42 ')).toBe(42);
    expect(parseReferenceNumber('Ana')).toBeNull();
  });

  it('derives a new link per send and stores only its hash', () => {
    const a = payToken('s'.repeat(32), 'req_1', new Date('2026-01-01T00:00:00Z'));
    const b = payToken('s'.repeat(32), 'req_1', new Date('2026-01-02T00:00:00Z'));
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(payTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(payTokenHash(a)).not.toContain(a);
  });

  it('does calendar arithmetic without time zones', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-03-01', '2026-02-27')).toBe(-2);
    expect(todayIn('Pacific/Kiritimati', new Date('2026-06-01T11:00:00Z'))).toBe('2026-06-02');
    expect(todayIn('America/Los_Angeles', new Date('2026-06-01T05:00:00Z'))).toBe('2026-05-31');
  });

  it('keeps a default expiry within the days the API accepts, and never writes a year past 9999', () => {
    expect(expiryAfter('2026-03-01', 30)).toBe('2026-03-31');
    expect(expiryAfter('2099-12-01', 30)).toBe('2099-12-31');
    expect(expiryAfter('2099-12-31', 365)).toBe('2099-12-31');
    expect(() => addDays('9999-12-31', 30)).toThrow(RangeError);
  });
});
