/**
 * A `datetime-local` input shows and returns wall-clock time in the browser's time zone, with no
 * zone in the text; the API keeps an instant (ISO, UTC). These two convert between them so that
 * opening a scheduled request and saving it unchanged keeps its send time to the minute.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO instant → 'YYYY-MM-DDTHH:mm' on this browser's clock; '' for no or an invalid value. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** 'YYYY-MM-DDTHH:mm' on this browser's clock → ISO instant; null for an empty or invalid value. */
export function localInputToIso(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi);
  // A date that does not exist (Feb 30) rolls over; refuse it rather than schedule another day.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return date.toISOString();
}

/** The browser's time zone, to say which clock the input is on. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
