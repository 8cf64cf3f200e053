import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay } from './dates';
import { boundedDateTime, boundedDay } from './day-schemas';

describe('dates (docs/product.md §9 formats)', () => {
  const when = new Date(2026, 0, 5, 9, 7);

  it('formats date-times as MMM dd, yyyy H:mm', () => {
    expect(formatDateTime(when)).toBe('Jan 05, 2026 9:07');
    expect(formatDateTime(new Date(2026, 10, 22, 23, 59))).toBe('Nov 22, 2026 23:59');
  });

  it('formats dates as MMM dd, yyyy', () => {
    expect(formatDate(when)).toBe('Jan 05, 2026');
  });

  it('formats a calendar day as that day, whatever the time zone, and nothing else', () => {
    expect(formatDay('2026-11-30')).toBe('Nov 30, 2026');
    expect(formatDay('2026-01-01')).toBe('Jan 01, 2026');
    for (const bad of [null, undefined, '', '2026-11-30T00:00:00Z', 'Nov 30']) expect(formatDay(bad)).toBe('Invalid Date');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    expect(formatDate(when.toISOString())).toBe('Jan 05, 2026');
    expect(formatDate(when.getTime())).toBe('Jan 05, 2026');
  });

  it.each([null, undefined, '', 'not a date', Number.NaN])('shows Invalid Date for %j', (value) => {
    expect(formatDateTime(value)).toBe('Invalid Date');
    expect(formatDate(value)).toBe('Invalid Date');
  });

  it('formats in a given time zone, the same instant on either side of midnight and of a DST change', () => {
    const instant = '2026-03-08T06:30:00Z';
    expect(formatDateTime(instant, 'UTC')).toBe('Mar 08, 2026 6:30');
    expect(formatDateTime(instant, 'America/Los_Angeles')).toBe('Mar 07, 2026 22:30');
    // 10:30 UTC is 3:30 in Los Angeles once daylight saving time began that night (UTC-7).
    expect(formatDateTime('2026-03-08T10:30:00Z', 'America/Los_Angeles')).toBe('Mar 08, 2026 3:30');
    expect(formatDateTime(instant, 'Asia/Kolkata')).toBe('Mar 08, 2026 12:00');
    expect(formatDateTime(null, 'UTC')).toBe('Invalid Date');
  });
});

describe('date bounds (ADR 023)', () => {
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message) ?? [];

  it('accepts calendar days from 1900 through 2099, and says which end a day is past', () => {
    const due = boundedDay('Due date');
    for (const day of ['1900-01-01', '2026-06-15', '2099-12-31']) expect(due.safeParse(day).success, day).toBe(true);
    expect(messages(due.safeParse('9999-12-31'))).toEqual(['Due date must be before Jan 01, 2100.']);
    expect(messages(due.safeParse('2100-01-01'))).toEqual(['Due date must be before Jan 01, 2100.']);
    expect(messages(due.safeParse('1899-12-31'))).toEqual(['Due date must be on or after Jan 01, 1900.']);
    expect(messages(due.safeParse('0000-01-01'))).toEqual(['Due date must be on or after Jan 01, 1900.']);
    expect(messages(due.safeParse('next week'))).toEqual(['Enter a date.']);
    const birth = boundedDay('Date of birth', { invalid: 'Enter the date of birth.', upperBound: false });
    expect(birth.safeParse('2999-01-01').success).toBe(true);
    expect(messages(birth.safeParse('1850-04-12'))).toEqual(['Date of birth must be on or after Jan 01, 1900.']);
    expect(messages(birth.safeParse(''))).toEqual(['Enter the date of birth.']);
  });

  it('bounds date-times by the instant, whatever their offset', () => {
    const sendAt = boundedDateTime('Send time');
    expect(sendAt.safeParse('2099-12-31T23:59:59Z').success).toBe(true);
    expect(sendAt.safeParse('2099-12-31T18:59:59-05:00').success).toBe(true);
    expect(messages(sendAt.safeParse('2099-12-31T19:00:00-05:00'))).toEqual(['Send time must be before Jan 01, 2100.']);
    expect(messages(sendAt.safeParse('9999-12-31T10:00:00Z'))).toEqual(['Send time must be before Jan 01, 2100.']);
    expect(messages(sendAt.safeParse('1899-12-31T23:59:59Z'))).toEqual(['Send time must be on or after Jan 01, 1900.']);
  });
});
