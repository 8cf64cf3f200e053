/**
 * Money is held as integer cents (ARCHITECTURE.md §5). These helpers are the only way the
 * product turns cents into text or text into cents.
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Largest amount the product accepts in one movement: $10,000,000.00. */
export const MAX_AMOUNT_CENTS = 1_000_000_000;

export function formatMoney(cents: number | bigint): string {
  const value = typeof cents === 'bigint' ? Number(cents) : cents;
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not a whole number of cents: ${String(cents)}`);
  return usd.format(value / 100);
}

/**
 * Parses what a person types ("1,234.5", "$12", "0.07") into cents without floating-point
 * arithmetic. Returns null for anything that is not a non-negative amount with at most two decimals.
 */
export function parseMoney(input: string): number | null {
  const trimmed = input.trim().replace(/^\$/, '');
  // Commas only as thousands separators: "1,234.56" yes, "1,2,3" no.
  if (trimmed.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(trimmed)) return null;
  const text = trimmed.replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (whole.length > 12) return null;
  const cents = Number(whole) * 100 + Number(fraction);
  return Number.isSafeInteger(cents) ? cents : null;
}
