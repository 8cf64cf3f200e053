/** `count` decimal digits of `text` from `from`, or -1 if any is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

/**
 * PostgreSQL's text form of a `timestamptz` (DateStyle ISO): `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`.
 * A list page carries about a hundred of them, and the driver's general parser (three regular
 * expressions each) was a measurable share of a list request; this reads the usual form by
 * character codes and leaves anything else (BC, infinity, years before 100 or past 9999) to
 * `fallback`.
 */
export function parseTimestamptz(text: string, fallback: (text: string) => unknown): unknown {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  ) {
    return fallback(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let i = 19;
  let micros = 0;
  if (text.charCodeAt(i) === 46) {
    i++;
    let scale = 100_000;
    while (i < n && scale >= 1) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      micros += c * scale;
      scale /= 10;
      i++;
    }
  }
  const sign = text.charCodeAt(i);
  const hours = digits(text, i + 1, 2);
  let offset = hours < 0 ? -1 : hours * 3600;
  i += 3;
  if (i < n && text.charCodeAt(i) === 58) {
    const minutes = digits(text, i + 1, 2);
    offset = minutes < 0 ? -1 : offset + minutes * 60;
    i += 3;
  }
  if (i < n && text.charCodeAt(i) === 58) {
    const seconds = digits(text, i + 1, 2);
    offset = seconds < 0 || offset < 0 ? -1 : offset + seconds;
    i += 3;
  }
  if ((sign !== 43 && sign !== 45) || i !== n || year < 100 || Math.min(month, day, hour, minute, second, offset) < 0) return fallback(text);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(micros / 1000));
  return new Date(sign === 43 ? utc - offset * 1000 : utc + offset * 1000);
}
