import { describe, expect, it } from 'vitest';
import { addDays, chargeFor, daysBetween, monthPeriod, monthlyRunDay, nextMonthPeriod, programCharge } from './periods';

describe('billing periods', () => {
  it('names a month with its first and last day, leap years included', () => {
    expect(monthPeriod('2026-12-15')).toEqual({ start: '2026-12-01', end: '2026-12-31', label: 'December 2026' });
    expect(monthPeriod('2028-02-10')).toEqual({ start: '2028-02-01', end: '2028-02-29', label: 'February 2028' });
    expect(nextMonthPeriod('2026-12-31')).toEqual({ start: '2027-01-01', end: '2027-01-31', label: 'January 2027' });
    expect(monthlyRunDay('2027-02-20', 28)).toBe('2027-02-28');
  });

  it('counts whole calendar days across DST changes', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(31);
    expect(daysBetween('2026-11-01', '2026-11-01')).toBe(1);
    expect(daysBetween('2026-11-02', '2026-11-01')).toBe(0);
    expect(addDays('2026-03-07', 2)).toBe('2026-03-09');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
  });
});

describe('chargeFor', () => {
  const december = { start: '2026-12-01', end: '2026-12-31' };

  it('bills the whole fee for a whole period, or without proration', () => {
    expect(chargeFor(12_000, december, { start: '2026-09-01', end: null }, true).amountCents).toBe(12_000);
    expect(chargeFor(12_000, december, { start: '2026-12-20', end: null }, false).amountCents).toBe(12_000);
  });

  it('prorates by the days enrolled, rounded half up to the cent', () => {
    // 12 of 31 days of $120.00 = 4645.16… cents.
    expect(chargeFor(12_000, december, { start: '2026-12-20', end: null }, true)).toEqual({ amountCents: 4_645, days: 12, periodDays: 31, prorated: true });
    // One day of $100.00 in a 28-day February: 357.142… → 357.
    expect(chargeFor(10_000, { start: '2027-02-01', end: '2027-02-28' }, { start: '2027-02-28', end: null }, true).amountCents).toBe(357);
    // A withdrawal mid-period bills up to its last day: 15 of 30 days is exactly half.
    expect(chargeFor(9_999, { start: '2026-11-01', end: '2026-11-30' }, { start: '2026-01-01', end: '2026-11-15' }, true).amountCents).toBe(5_000);
  });

  it('bills nothing when the enrollment and the period do not meet', () => {
    expect(chargeFor(12_000, december, { start: '2027-01-01', end: null }, true).amountCents).toBe(0);
    expect(chargeFor(12_000, december, { start: '2026-01-01', end: '2026-11-30' }, false).amountCents).toBe(0);
  });
});

describe('programCharge', () => {
  const november = { start: '2030-11-01', end: '2030-11-30' };
  const piano = { feeCents: 30_000, frequency: 'monthly' as const, prorate: true, startDate: '2030-09-01', endDate: '2030-11-15' };

  it('bills only the days the program runs: half of November when it ends on the 15th, nothing after it ended', () => {
    expect(programCharge(piano, november, { start: '2030-09-01', end: null }).amountCents).toBe(15_000);
    expect(programCharge(piano, { start: '2030-12-01', end: '2030-12-31' }, { start: '2030-09-01', end: null }).amountCents).toBe(0);
    expect(programCharge({ ...piano, startDate: '2030-11-16', endDate: null }, november, { start: '2030-09-01', end: null }).amountCents).toBe(15_000);
  });

  it('never prorates a one-time program', () => {
    expect(programCharge({ ...piano, frequency: 'one_time', endDate: null }, november, { start: '2030-11-20', end: null }).amountCents).toBe(30_000);
  });
});
