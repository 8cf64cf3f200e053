import { describe, expect, it } from 'vitest';
import { addDays, addMonths, badParam, formatMonth, historyHref, isDay, isMonth, monthRange, todayIn } from './report-dates';

describe('the reports’ calendar', () => {
  it('takes today from the business’s clock: 23:30 in New York is still that day there', () => {
    const lateEvening = new Date('2026-11-25T04:30:00Z');
    expect(todayIn('America/New_York', lateEvening)).toBe('2026-11-24');
    expect(todayIn('Europe/London', lateEvening)).toBe('2026-11-25');
  });

  it('steps days over month ends, leap days and DST changes', () => {
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-11-01', -1)).toBe('2026-10-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('gives a month’s first and last days, and steps months over the year’s end', () => {
    expect(monthRange('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(formatMonth('2026-11')).toBe('November 2026');
  });

  it('reads only real days and months from a URL', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-03-45')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('yesterday')).toBe(false);
    expect(isMonth('2026-11')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
  });

  it('names a link’s value that is there but is no day or month; missing is not bad', () => {
    expect(badParam('2026-02-30', isDay)).toBe('2026-02-30');
    expect(badParam('2026-13', isMonth)).toBe('2026-13');
    expect(badParam('2026-02-28', isDay)).toBeNull();
    expect(badParam(null, isDay)).toBeNull();
    expect(badParam('', isDay)).toBeNull();
    expect(badParam('x'.repeat(60), isDay)).toBe(`${'x'.repeat(40)}…`);
  });

  it('links a figure to the history of the days it counts: first sent, paid, returned', () => {
    const november = { from: '2026-11-01', to: '2026-11-30' };
    expect(historyHref(november, 'sent', { status: 'Paid,PartiallyPaid' })).toBe(
      '/business/payment/transactions/history?sentFrom=2026-11-01&sentTo=2026-11-30&status=Paid%2CPartiallyPaid',
    );
    expect(historyHref(november, 'paid')).toBe('/business/payment/transactions/history?paidFrom=2026-11-01&paidTo=2026-11-30');
    expect(historyHref(november, 'returned')).toBe('/business/payment/transactions/history?returnedFrom=2026-11-01&returnedTo=2026-11-30');
    expect(historyHref(november, 'paid', { path: '/business/payment/payers/transactions', query: { payerId: 'pyr_1' } })).toBe(
      '/business/payment/payers/transactions?payerId=pyr_1&paidFrom=2026-11-01&paidTo=2026-11-30',
    );
  });
});
