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

/** `MMM dd, yyyy H:mm`; a missing or invalid value reads `Invalid Date` (spec §8). */
export function formatDateTime(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, DATE_TIME_FORMAT) : INVALID_DATE;
}

/** `MMM dd, yyyy`; a missing or invalid value reads `Invalid Date` (spec §8). */
export function formatDate(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, DATE_FORMAT) : INVALID_DATE;
}
