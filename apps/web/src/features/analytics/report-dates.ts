import { getHref, paths } from '@tay/contract';

/**
 * The calendar arithmetic of the reports' pages. Days (`YYYY-MM-DD`) and months (`YYYY-MM`) are
 * the business's calendar's, with no time zone of their own: they are computed in UTC, so the
 * viewer's own clock (a DST change where they sit) never moves a day.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-\d{2}$/;

function utc(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Whether the text is a real calendar day (`2026-02-30` is not, nor `2026-03-45`, which no date reads). */
export function isDay(text: string | null | undefined): text is string {
  if (!text || !DAY.test(text)) return false;
  const date = utc(text);
  return !Number.isNaN(date.getTime()) && dayOf(date) === text;
}

/** Whether the text is a month (`2026-11`). */
export function isMonth(text: string | null | undefined): text is string {
  return Boolean(text && MONTH.test(text) && Number(text.slice(5)) >= 1 && Number(text.slice(5)) <= 12);
}

/**
 * A link's day or month that is there but is not one (`2026-02-30`, `2026-13`, `yesterday`): the
 * text as written, for the page to name it. Missing or empty is not bad: the page then shows its
 * default period. Never read a bad one as another period.
 */
export function badParam(text: string | null | undefined, isValid: (text: string) => boolean): string | null {
  if (!text || isValid(text)) return null;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Today on the clock of `timeZone` (an IANA name): the business's today, wherever the viewer is. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function addDays(day: string, n: number): string {
  const date = utc(day);
  date.setUTCDate(date.getUTCDate() + n);
  return dayOf(date);
}

export function monthOf(day: string): string {
  return day.slice(0, 7);
}

export function addMonths(month: string, n: number): string {
  const date = utc(`${month}-01`);
  date.setUTCMonth(date.getUTCMonth() + n);
  return dayOf(date).slice(0, 7);
}

/** A month's first and last days. */
export function monthRange(month: string): { from: string; to: string } {
  return { from: `${month}-01`, to: addDays(`${addMonths(month, 1)}-01`, -1) };
}

/** "November 2026". */
export function formatMonth(month: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utc(`${month}-01`));
}

/**
 * Which days of the history a report's figure counts (ADR 039): *billed* and the counts by status
 * on a request's first send, *collected* and its fees on a payment's processing, *returned* on a
 * payment's return — the history's `sentFrom`/`sentTo`, `paidFrom`/`paidTo` and
 * `returnedFrom`/`returnedTo`, in the business's calendar days as the reports are.
 */
export type HistoryDays = 'sent' | 'paid' | 'returned';

const DAY_PARAMS: Record<HistoryDays, [string, string]> = {
  sent: ['sentFrom', 'sentTo'],
  paid: ['paidFrom', 'paidTo'],
  returned: ['returnedFrom', 'returnedTo'],
};

/**
 * The requests behind a report's figure: the transaction history (or another list of requests,
 * `path`, with its own `query`: a payer's) narrowed to the figure's days, in a status when given.
 */
export function historyHref(
  range: { from: string; to: string },
  days: HistoryDays,
  { status, path = paths.payments.history, query = {} }: { status?: string; path?: string; query?: Record<string, string> } = {},
): string {
  const [from, to] = DAY_PARAMS[days];
  return getHref(path, undefined, { ...query, [from]: range.from, [to]: range.to, status });
}
