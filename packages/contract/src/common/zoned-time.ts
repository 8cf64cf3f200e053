import { formatDate, formatDateTime, INVALID_DATE } from './dates';

/**
 * Times on a named clock, labelled with it: "Mar 08, 2026 3:30 PDT" (docs/product.md §9). Pure, so
 * the server (a payer's first screen) and the payer's pages use it without the portal's query layer;
 * the portal's hook is `useBusinessTime` (apps/web/src/lib/business-time.ts).
 */

const labels = new Map<string, Intl.DateTimeFormat>();

function instant(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The short name of `timeZone` (the viewer's own when none) at the instant: "EST", "EDT", "GMT+13". */
export function zoneLabel(value: Date | string | number, timeZone?: string): string {
  const date = instant(value);
  if (!date) return '';
  const key = timeZone ?? '';
  let format = labels.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) });
    labels.set(key, format);
  }
  return format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? timeZone ?? '';
}

/**
 * "Mar 08, 2026 3:30 PDT": the instant on the clock of `timeZone` (an IANA name), labelled. Without
 * one (the business's zone not read yet, or unreadable) the viewer's clock, labelled as such, so a
 * time is never shown on a clock it does not name. A missing or invalid value reads `Invalid Date`.
 */
export function formatZonedDateTime(value: Date | string | number | null | undefined, timeZone?: string): string {
  const date = instant(value);
  if (!date) return INVALID_DATE;
  return `${formatDateTime(date, timeZone)} ${zoneLabel(date, timeZone)}`;
}

/** "Mar 08, 2026": the calendar day the instant falls on by the clock of `timeZone` (the viewer's when none). */
export function formatZonedDate(value: Date | string | number | null | undefined, timeZone?: string): string {
  const date = instant(value);
  if (!date) return INVALID_DATE;
  if (!timeZone) return formatDate(date);
  // The wall-clock day there, read back as a plain day: `formatDateTime` in the zone gives "MMM dd, yyyy H:mm".
  return formatDateTime(date, timeZone).replace(/ \d{1,2}:\d{2}$/, '');
}
