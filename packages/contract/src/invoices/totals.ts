/**
 * An invoice's figures, in integer cents, worked out the same way by the API (what is stored,
 * printed and charged) and by the web app (the totals as the merchant types). ADR 033.
 *
 * - A line's amount is quantity × unit price, rounded half up to the cent. Quantities have up to
 *   3 decimals and are held as thousandths; tax rates are percentages with up to 3 decimals,
 *   held as thousandths of a percent (8.875 % → 8875).
 * - The invoice's discount (an amount, or a percentage of the subtotal rounded half up) is spread
 *   over the lines before tax, in proportion to their amounts, by largest remainder: the lines'
 *   shares add up to the discount exactly.
 * - Each line's tax is its rate on its amount after its share of the discount, rounded half up.
 * - subtotal = Σ line amounts; tax = Σ line taxes; total = subtotal − discount + tax. Every printed
 *   figure is one of these sums, so the printed figures always add up to the total.
 */

export interface InvoiceLineFigures {
  /** quantity × unit price, rounded half up. */
  amountCents: number;
  /** This line's share of the invoice's discount. */
  discountCents: number;
  /** Tax on (amount − discount share). */
  taxCents: number;
}

export interface InvoiceFigures {
  lines: InvoiceLineFigures[];
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
}

export interface InvoiceLineAmounts {
  /** Thousandths: 1.5 → 1500. */
  quantityMilli: number;
  unitPriceCents: number;
  /** Thousandths of a percent: 8.875 % → 8875. */
  taxRateMilli: number;
}

export type InvoiceDiscountAmounts = { type: 'none' } | { type: 'amount'; amountCents: number } | { type: 'percent'; percentMilli: number };

/** a × b / d rounded half up, for non-negative integers, exactly (BigInt: the product may pass 2^53). */
export function mulDivRoundHalfUp(a: number, b: number, d: number): number {
  if (a < 0 || b < 0 || d <= 0) throw new RangeError('mulDivRoundHalfUp takes non-negative whole numbers and a positive divisor.');
  const n = BigInt(a) * BigInt(b);
  const D = BigInt(d);
  return Number((n * 2n + D) / (D * 2n));
}

/** The figures of an invoice's lines under its discount (see the module's comment for the rules). */
export function invoiceFigures(lines: readonly InvoiceLineAmounts[], discount: InvoiceDiscountAmounts): InvoiceFigures {
  const amounts = lines.map((l) => mulDivRoundHalfUp(l.quantityMilli, l.unitPriceCents, 1000));
  const subtotalCents = amounts.reduce((s, a) => s + a, 0);
  let discountCents = 0;
  if (discount.type === 'amount') discountCents = Math.min(discount.amountCents, subtotalCents);
  if (discount.type === 'percent') discountCents = Math.min(mulDivRoundHalfUp(subtotalCents, discount.percentMilli, 100_000), subtotalCents);
  const shares = spread(discountCents, amounts);
  const figures = lines.map((l, i) => {
    const amountCents = amounts[i]!;
    const discountShare = shares[i]!;
    return { amountCents, discountCents: discountShare, taxCents: mulDivRoundHalfUp(amountCents - discountShare, l.taxRateMilli, 100_000) };
  });
  const taxCents = figures.reduce((s, f) => s + f.taxCents, 0);
  return { lines: figures, subtotalCents, discountCents, taxCents, totalCents: subtotalCents - discountCents + taxCents };
}

/**
 * `total` shared over `weights` in proportion, in whole cents that add up to `total` exactly:
 * each gets the floor of its share, and the cents left go one each to the largest remainders
 * (ties to the earlier line). With no weight at all, nothing is shared.
 */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (total === 0 || sum === 0) return weights.map(() => 0);
  const T = BigInt(total);
  const S = BigInt(sum);
  const parts = weights.map((w) => {
    const n = T * BigInt(w);
    return { floor: Number(n / S), remainder: n % S };
  });
  let left = total - parts.reduce((s, p) => s + p.floor, 0);
  const order = parts.map((p, i) => ({ i, r: p.remainder })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const result = parts.map((p) => p.floor);
  for (const { i } of order) {
    if (left <= 0) break;
    result[i]! += 1;
    left -= 1;
  }
  return result;
}

/** 1.5 → 1500; null when the number has more than 3 decimals or is not finite. */
export function toMilli(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const milli = Math.round(value * 1000);
  return Math.abs(milli - value * 1000) < 1e-6 * Math.max(1, Math.abs(value)) ? milli : null;
}

/** 1500 → "1.5"; 8875 → "8.875". */
export function fromMilli(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const whole = Math.floor(abs / 1000);
  const fraction = String(abs % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
