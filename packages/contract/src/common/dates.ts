import { tz } from '@date-fns/tz';
import { format, isValid } from 'date-fns';

/** Spec §9 formats. */
export const DATE_TIME_FORMAT = 'MMM dd, yyyy H:mm';
export const DATE_FORMAT = 'MMM dd, yyyy';
export const INVALID_DATE = 'Invalid Date';

function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return isValid(date) ? date : null;
}

/**
 * A calendar day (`YYYY-MM-DD`, which has no time zone: a due date, an expiry date) as
 * `MMM dd, yyyy`: the same day wherever it is formatted. Anything else reads `Invalid Date`.
 */
export function formatDay(day: string | null | undefined): string {
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDate(`${day}T12:00:00`) : INVALID_DATE;
}

/**
 * `MMM dd, yyyy H:mm`; a missing or invalid value reads `Invalid Date` (docs/product.md §8). The wall-clock
 * time is the viewer's, or that of `timeZone` (an IANA name) when given — what the server uses
 * for a business's receipts, whatever zone the server itself runs in.
 */
export function formatDateTime(value: Date | string | number | null | undefined, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return INVALID_DATE;
  return timeZone ? format(date, DATE_TIME_FORMAT, { in: tz(timeZone) }) : format(date, DATE_TIME_FORMAT);
}

/** `MMM dd, yyyy`; a missing or invalid value reads `Invalid Date` (docs/product.md §8). */
export function formatDate(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, DATE_FORMAT) : INVALID_DATE;
}

/**
 * The calendar days any date sent to the API may be (ADR 023): four-digit years that the
 * database, JavaScript's ISO strings and date arithmetic (an expiry some days after a due date)
 * all handle, and the same answer in the browser and on the server whatever their clocks say.
 */
export const EARLIEST_DAY = '1900-01-01';
export const LATEST_DAY = '2099-12-31';
/** The first day past LATEST_DAY, as messages name it ("before Jan 01, 2100"). */
export const FIRST_DAY_AFTER = '2100-01-01';
/** The shape of a calendar day, `YYYY-MM-DD`. */
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const dayTooEarly = (label: string) => `${label} must be on or after ${formatDay(EARLIEST_DAY)}.`;
export const dayTooLate = (label: string) => `${label} must be before ${formatDay(FIRST_DAY_AFTER)}.`;
