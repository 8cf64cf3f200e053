/**
 * Billing periods of the student template (ADR 036), as calendar days (`YYYY-MM-DD`, no time
 * zone: the business's calendar). Shared by the API (a cycle's run, Program Billing) and the web
 * app (the preview of who will be billed what), so both compute the same cents.
 */

export interface BillingPeriod {
  /** First day, inclusive. */
  start: string;
  /** Last day, inclusive. */
  end: string;
  /** "December 2026", "Term 1 2026–27". */
  label: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function parts(day: string): [number, number, number] {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The day number since 1970-01-01 of a calendar day: differences are whole days, whatever DST does. */
export function dayNumber(day: string): number {
  const [y, m, d] = parts(day);
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** The calendar day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return new Date((dayNumber(day) + n) * 86_400_000).toISOString().slice(0, 10);
}

/** Inclusive count of days from `start` to `end` (0 when `end` is before `start`). */
export function daysBetween(start: string, end: string): number {
  return Math.max(0, dayNumber(end) - dayNumber(start) + 1);
}

/** The calendar month holding `day`: "December 2026", Dec 1 – Dec 31. */
export function monthPeriod(day: string): BillingPeriod {
  const [y, m] = parts(day);
  return { start: `${y}-${pad(m)}-01`, end: `${y}-${pad(m)}-${pad(daysInMonth(y, m))}`, label: `${MONTHS[m - 1]} ${y}` };
}

/** The month after the one holding `day`. */
export function nextMonthPeriod(day: string): BillingPeriod {
  const [y, m] = parts(day);
  return monthPeriod(m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`);
}

/**
 * The day a monthly cycle runs in the month holding `day`: its `dayOfMonth` (1–28, so every month
 * has it).
 */
export function monthlyRunDay(day: string, dayOfMonth: number): string {
  const [y, m] = parts(day);
  return `${y}-${pad(m)}-${pad(dayOfMonth)}`;
}

/** Whether two inclusive day ranges share at least one day (a null end is open). */
export function overlaps(aStart: string, aEnd: string | null, bStart: string, bEnd: string | null): boolean {
  return (aEnd === null || aEnd >= bStart) && (bEnd === null || bEnd >= aStart);
}

/**
 * What an enrollment is billed for a period. The whole fee when the enrollment covers the whole
 * period, or when the program does not prorate (an enrollment that overlaps the period at all);
 * otherwise the fee times the days enrolled over the days of the period, rounded half up to the
 * cent. Nothing (0) when the enrollment and the period do not overlap.
 */
export function chargeFor(
  feeCents: number,
  period: Pick<BillingPeriod, 'start' | 'end'>,
  enrollment: { start: string; end: string | null },
  prorate: boolean,
): { amountCents: number; days: number; periodDays: number; prorated: boolean } {
  const periodDays = daysBetween(period.start, period.end);
  if (!overlaps(period.start, period.end, enrollment.start, enrollment.end)) return { amountCents: 0, days: 0, periodDays, prorated: false };
  const from = enrollment.start > period.start ? enrollment.start : period.start;
  const to = enrollment.end !== null && enrollment.end < period.end ? enrollment.end : period.end;
  const days = daysBetween(from, to);
  if (!prorate || days === periodDays) return { amountCents: feeCents, days, periodDays, prorated: false };
  // Integer arithmetic: fee × days / periodDays, half up.
  const amountCents = Math.floor((feeCents * days * 2 + periodDays) / (2 * periodDays));
  return { amountCents, days, periodDays, prorated: true };
}

/** A program as its charges need it. */
export interface ChargedProgram {
  feeCents: number;
  frequency: 'one_time' | 'monthly' | 'term';
  prorate: boolean;
  startDate: string;
  endDate: string | null;
}

/**
 * What an enrollment of a program is billed for a period, the same on every path (a cycle's run,
 * Program Billing, a file's blank amount): only the days both the enrollment and the program run
 * (nothing when they do not meet), prorated when the program says so; a one-time program's whole
 * fee, never prorated.
 */
export function programCharge(program: ChargedProgram, period: Pick<BillingPeriod, 'start' | 'end'>, enrollment: { start: string; end: string | null }) {
  const start = enrollment.start > program.startDate ? enrollment.start : program.startDate;
  const ends = [enrollment.end, program.endDate].filter((d): d is string => d !== null);
  const end = ends.length > 0 ? ends.reduce((a, b) => (a < b ? a : b)) : null;
  if (end !== null && end < start) return { amountCents: 0, days: 0, periodDays: daysBetween(period.start, period.end), prorated: false };
  return chargeFor(program.feeCents, period, { start, end }, program.frequency !== 'one_time' && program.prorate);
}
