import { z } from 'zod';
import { dayTooEarly, dayTooLate, EARLIEST_DAY, FIRST_DAY_AFTER, ISO_DAY, LATEST_DAY } from './dates';

// The schemas of the days any date sent to the API may be (ADR 023), apart from `dates.ts` so
// that a page which only writes dates (the payer's) does not load zod for them.

/**
 * A calendar day (`YYYY-MM-DD`) from EARLIEST_DAY to LATEST_DAY. `label` starts the messages:
 * "Due date must be before Jan 01, 2100." Without `upperBound`, a later bound is the caller's
 * (a date of birth may not be in the future).
 */
export function boundedDay(label: string, { invalid = 'Enter a date.', upperBound = true }: { invalid?: string; upperBound?: boolean } = {}) {
  const day = z.iso.date(invalid).refine((value) => !ISO_DAY.test(value) || value >= EARLIEST_DAY, dayTooEarly(label));
  return upperBound ? day.refine((value) => !ISO_DAY.test(value) || value <= LATEST_DAY, dayTooLate(label)) : day;
}

/** An ISO date-time with an offset, at an instant within the days of `boundedDay` (in UTC). */
export function boundedDateTime(label: string) {
  const earliest = Date.parse(`${EARLIEST_DAY}T00:00:00Z`);
  const firstAfter = Date.parse(`${FIRST_DAY_AFTER}T00:00:00Z`);
  return z.iso
    .datetime({ offset: true })
    .refine((value) => !(Date.parse(value) < earliest), dayTooEarly(label))
    .refine((value) => !(Date.parse(value) >= firstAfter), dayTooLate(label));
}
