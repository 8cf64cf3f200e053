import { useCallback, useMemo } from 'react';
import { useBusinessTimeZone } from './business-time-zone';
import { formatZonedDate, formatZonedDateTime } from './zoned-time';

/**
 * A business's times, on the business's clock and labelled with it (docs/product.md §9): the one
 * way the portal writes when something of a business happened, wherever the person reading sits.
 * "Mar 08, 2026 3:30 PDT": the spec's date-time, then the zone's short name at that instant
 * (daylight saving or not; a GMT offset where the zone has no common abbreviation: "GMT+13").
 */

export interface BusinessTime {
  /** The business's IANA zone, once read. */
  timeZone: string | undefined;
  /** "Mar 08, 2026 3:30 PDT" on the business's clock. */
  dateTime(value: Date | string | number | null | undefined): string;
  /** "Mar 08, 2026", the business's calendar day of the instant. */
  date(value: Date | string | number | null | undefined): string;
}

/** What a time reads while the business's zone is on its way: no clock at all rather than the wrong one. */
export const TIME_PENDING = '…';

/**
 * The selected business's clock, for every time of its records the web shows. While its zone is
 * being read the times read `…`; if it cannot be read, the viewer's clock, named.
 */
export function useBusinessTime(): BusinessTime {
  const zone = useBusinessTimeZone();
  const timeZone = zone.data;
  const pending = !timeZone && zone.isPending && zone.fetchStatus !== 'idle';
  const dateTime = useCallback(
    (value: Date | string | number | null | undefined) => (pending ? TIME_PENDING : formatZonedDateTime(value, timeZone)),
    [pending, timeZone],
  );
  const date = useCallback(
    (value: Date | string | number | null | undefined) => (pending ? TIME_PENDING : formatZonedDate(value, timeZone)),
    [pending, timeZone],
  );
  return useMemo(() => ({ timeZone, dateTime, date }), [timeZone, dateTime, date]);
}
