/**
 * A `datetime-local` input shows and returns wall-clock time with no zone in the text; the API
 * keeps an instant (ISO, UTC). The business works on the clock of its configured time zone, so
 * the send time is read and written on that clock, wherever the person scheduling it sits, and
 * opening a scheduled request and saving it unchanged keeps its send time to the minute.
 */

const pad = (n: number) => String(n).padStart(2, '0');

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `instant` in `timeZone`. */
function wallClock(instant: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(format.formatToParts(instant).find((p) => p.type === type)!.value);
  return { y: part('year'), mo: part('month'), d: part('day'), h: part('hour'), mi: part('minute') };
}

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in milliseconds (whole minutes). */
function offsetAt(instant: number, timeZone: string): number {
  const c = wallClock(instant, timeZone);
  return Date.UTC(c.y, c.mo - 1, c.d, c.h, c.mi) - Math.floor(instant / 60_000) * 60_000;
}

/** ISO instant → 'YYYY-MM-DDTHH:mm' on the clock of `timeZone`; '' for no or an invalid value. */
export function isoToZonedInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return '';
  const c = wallClock(instant, timeZone);
  return `${c.y}-${pad(c.mo)}-${pad(c.d)}T${pad(c.h)}:${pad(c.mi)}`;
}

/**
 * 'YYYY-MM-DDTHH:mm' on the clock of `timeZone` → ISO instant; null for an empty or invalid value,
 * and for a time that never shows on that clock (the hour skipped when daylight saving starts).
 */
export function zonedInputToIso(value: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  // The offset at the guess may be the one before a change; the offset at the first answer settles it.
  let instant = asUtc - offsetAt(asUtc, timeZone);
  instant = asUtc - offsetAt(instant, timeZone);
  // A date that does not exist (Feb 30), or a skipped hour, reads back differently: refuse it.
  if (isoToZonedInput(new Date(instant).toISOString(), timeZone) !== value) return null;
  return new Date(instant).toISOString();
}
