/**
 * Money is held as integer cents (ARCHITECTURE.md §5). These helpers are the only way the
 * product turns cents into text or text into cents.
 */
/** Largest amount the product accepts in one movement: $10,000,000.00. */
export const MAX_AMOUNT_CENTS = 1_000_000_000;

/**
 * "$1,234.56", "-$0.07": what `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })`
 * writes, from the integer cents without dividing them. Not Intl itself: its first use loads the
 * locale's data, the largest single piece of work of a payer's page on a phone (bench/RESULTS.md,
 * lighthouse, 2026-12-04).
 */
export function formatMoney(cents: number | bigint): string {
  const value = typeof cents === 'bigint' ? Number(cents) : cents;
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not a whole number of cents: ${String(cents)}`);
  const magnitude = Math.abs(value);
  const dollars = String(Math.floor(magnitude / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(magnitude % 100).padStart(2, '0');
  return `${value < 0 ? '-' : ''}$${dollars}.${rest}`;
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

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: [number, string][] = [
  [1_000_000_000_000, 'trillion'],
  [1_000_000_000, 'billion'],
  [1_000_000, 'million'],
  [1_000, 'thousand'],
];

function underThousand(n: number): string {
  const words: string[] = [];
  if (n >= 100) words.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const rest = n % 100;
  if (rest >= 20) words.push(rest % 10 ? `${TENS[Math.floor(rest / 10)]}-${ONES[rest % 10]}` : TENS[Math.floor(rest / 10)]!);
  else if (rest > 0 || words.length === 0) words.push(ONES[rest]!);
  return words.join(' ');
}

function wholeInWords(n: number): string {
  if (n === 0) return 'zero';
  const words: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    if (rest >= size) {
      words.push(`${underThousand(Math.floor(rest / size))} ${name}`);
      rest %= size;
    }
  }
  if (rest > 0) words.push(underThousand(rest));
  return words.join(' ');
}

/**
 * An amount in words, as a cheque writes it: "ten thousand dollars and fifty cents". A large
 * amount's confirmation repeats it so (a typo of two zeros reads very differently in words).
 */
export function amountInWords(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not a whole number of cents: ${String(cents)}`);
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  const dollarWords = `${wholeInWords(dollars)} ${dollars === 1 ? 'dollar' : 'dollars'}`;
  return rest === 0 ? dollarWords : `${dollarWords} and ${wholeInWords(rest)} ${rest === 1 ? 'cent' : 'cents'}`;
}

/** Above this a request, invoice or payout asks for a confirmation that repeats it in words, unless the business sets its own: $10,000.00. */
export const DEFAULT_CONFIRM_ABOVE_CENTS = 1_000_000;

/** The 422 code of a large amount sent without its confirmation (`confirmedAmountCents`). */
export const AMOUNT_CONFIRMATION_REQUIRED = 'AMOUNT_CONFIRMATION_REQUIRED';

/**
 * The repeated amount of a request, invoice or payout above the business's confirmation limit
 * (`AMOUNT_CONFIRMATION_REQUIRED`): the same cents as the amount, or it is asked for again.
 */
export const CONFIRMED_AMOUNT_FIELD = 'confirmedAmountCents';
