import { describe, expect, it } from 'vitest';
import { currentPeriod, dueDateOf, nextRunFrom, periodAfter, periodOfRun, type CycleSchedule } from './schedule';

const monthly = (day: number): CycleSchedule => ({ schedule: 'monthly', dayOfMonth: day, periods: [] });
const terms: CycleSchedule = {
  schedule: 'term',
  dayOfMonth: null,
  periods: [
    { start: '2026-09-01', end: '2026-12-18', label: 'Term 1 2026–27' },
    { start: '2027-01-05', end: '2027-03-26', label: 'Term 2 2026–27' },
    { start: '2027-04-12', end: '2027-06-25', label: 'Term 3 2026–27' },
  ],
};

describe('a monthly cycle', () => {
  it('bills the calendar month of its run day', () => {
    expect(periodOfRun(monthly(15), '2026-12-15')).toEqual({ start: '2026-12-01', end: '2026-12-31', label: 'December 2026' });
    expect(periodAfter(monthly(15), { start: '2026-12-01' })).toEqual({ start: '2027-01-01', end: '2027-01-31', label: 'January 2027' });
  });

  it('first runs on its day from today on, skipping months already run', () => {
    expect(nextRunFrom(monthly(1), '2026-11-27', new Set())).toBe('2026-12-01');
    expect(nextRunFrom(monthly(28), '2026-11-27', new Set())).toBe('2026-11-28');
    expect(nextRunFrom(monthly(27), '2026-11-27', new Set())).toBe('2026-11-27');
    expect(nextRunFrom(monthly(28), '2026-11-27', new Set(['2026-11-01', '2026-12-01']))).toBe('2027-01-28');
    // February has a 28th: every month has the run day.
    expect(nextRunFrom(monthly(28), '2027-01-29', new Set())).toBe('2027-02-28');
  });

  it('Run now bills the month holding today', () => {
    expect(currentPeriod(monthly(1), '2026-02-14')).toEqual({ start: '2026-02-01', end: '2026-02-28', label: 'February 2026' });
  });
});

describe('a term cycle', () => {
  it('runs at the start of each term, and has no next run when none is left', () => {
    expect(periodOfRun(terms, '2027-01-05')?.label).toBe('Term 2 2026–27');
    expect(periodOfRun(terms, '2027-01-06')).toBeNull();
    expect(nextRunFrom(terms, '2026-10-01', new Set())).toBe('2027-01-05');
    expect(nextRunFrom(terms, '2026-10-01', new Set(['2027-01-05']))).toBe('2027-04-12');
    expect(nextRunFrom(terms, '2027-04-13', new Set())).toBeNull();
  });

  it('Run now bills the term under way, or between terms the next one', () => {
    expect(currentPeriod(terms, '2026-10-01')?.label).toBe('Term 1 2026–27');
    expect(currentPeriod(terms, '2026-12-25')?.label).toBe('Term 2 2026–27');
    expect(currentPeriod(terms, '2027-07-01')).toBeNull();
  });
});

it('a request is due on the first day of its period, or the run day when that is later', () => {
  expect(dueDateOf({ start: '2026-12-01' }, '2026-11-27')).toBe('2026-12-01');
  expect(dueDateOf({ start: '2026-12-01' }, '2026-12-01')).toBe('2026-12-01');
  expect(dueDateOf({ start: '2026-09-01' }, '2026-12-03')).toBe('2026-12-03');
});
