import { describe, expect, it } from 'vitest';
import { fromMilli, invoiceFigures, mulDivRoundHalfUp, spread, toMilli, type InvoiceLineAmounts } from './totals';

const line = (quantity: number, unitPriceCents: number, taxRate = 0): InvoiceLineAmounts => ({
  quantityMilli: toMilli(quantity)!,
  unitPriceCents,
  taxRateMilli: toMilli(taxRate)!,
});

/** What a printed invoice must satisfy: its figures add up, line by line and in total. */
function expectConsistent(f: ReturnType<typeof invoiceFigures>) {
  expect(f.subtotalCents).toBe(f.lines.reduce((s, l) => s + l.amountCents, 0));
  expect(f.discountCents).toBe(f.lines.reduce((s, l) => s + l.discountCents, 0));
  expect(f.taxCents).toBe(f.lines.reduce((s, l) => s + l.taxCents, 0));
  expect(f.totalCents).toBe(f.subtotalCents - f.discountCents + f.taxCents);
  for (const l of f.lines) expect(l.discountCents).toBeLessThanOrEqual(l.amountCents);
}

describe('invoice figures', () => {
  it('rounds a line half up to the cent: 1/3-ish quantities', () => {
    // 0.333 × $10.00 = $3.33; 0.335 × $10.00 = 335.0 cents exactly; 0.3335 is refused (4 decimals).
    const f = invoiceFigures([line(0.333, 1000), line(0.335, 1000), line(0.005, 100)], { type: 'none' });
    expect(f.lines.map((l) => l.amountCents)).toEqual([333, 335, 1]); // 0.5 cent rounds up
    expect(toMilli(0.3335)).toBeNull();
    expectConsistent(f);
  });

  it('taxes each line at its own rate, 8.875 % rounded half up', () => {
    const f = invoiceFigures([line(3, 1000, 8.875), line(1.5, 1700, 8.875), line(1, 1234)], { type: 'none' });
    expect(f.lines.map((l) => [l.amountCents, l.taxCents])).toEqual([
      [3000, 266], // 266.25
      [2550, 226], // 226.3125
      [1234, 0],
    ]);
    expect(f).toMatchObject({ subtotalCents: 6784, taxCents: 492, totalCents: 7276 });
    // $4.00 at 8.875 % is 35.5 cents: half up.
    expect(invoiceFigures([line(1, 400, 8.875)], { type: 'none' }).taxCents).toBe(36);
  });

  it('spreads a discount over the lines before tax, to the cent', () => {
    const f = invoiceFigures([line(1, 1000, 10), line(1, 1000, 0), line(1, 1000, 20)], { type: 'amount', amountCents: 100 });
    expect(f.lines.map((l) => l.discountCents)).toEqual([34, 33, 33]); // 33.33 each, the odd cent to the first
    expect(f.lines.map((l) => l.taxCents)).toEqual([97, 0, 193]); // 10 % of 966, 20 % of 967 (96.6, 193.4)
    expect(f).toMatchObject({ subtotalCents: 3000, discountCents: 100, taxCents: 290, totalCents: 3190 });
    expectConsistent(f);
  });

  it('takes a percentage discount of the subtotal, half up', () => {
    const f = invoiceFigures([line(1, 999, 8.875)], { type: 'percent', percentMilli: toMilli(12.5)! });
    expect(f.discountCents).toBe(125); // 124.875
    expect(f.taxCents).toBe(78); // 8.875 % of 874 = 77.5675
    expectConsistent(f);
  });

  it('a 100 % discount leaves nothing to pay and no tax; an amount above the subtotal is capped', () => {
    const full = invoiceFigures([line(2, 1234, 8.875), line(1, 1, 5)], { type: 'percent', percentMilli: 100_000 });
    expect(full).toMatchObject({ discountCents: 2469, taxCents: 0, totalCents: 0 });
    expectConsistent(full);
    const capped = invoiceFigures([line(1, 500)], { type: 'amount', amountCents: 9999 });
    expect(capped).toMatchObject({ discountCents: 500, totalCents: 0 });
  });

  it('keeps large figures exact past 2^53 in the intermediate product', () => {
    // 1,000,000 × $10,000,000.00 would be 10^15 cents: the product in thousandths is 10^18.
    expect(mulDivRoundHalfUp(1_000_000_000, 1_000_000_000, 1000)).toBe(1_000_000_000_000_000);
    const f = invoiceFigures([line(999_999.999, 99_999)], { type: 'none' });
    expect(f.subtotalCents).toBe(99_998_999_900); // 999,999.999 × 999.99 = 99,998,999.9001 → cents half up
  });

  it('shares by largest remainder: the parts always add up', () => {
    for (const [total, weights] of [
      [100, [1, 1, 1]],
      [7, [3, 3, 3, 1]],
      [0, [5, 5]],
      [10, [0, 0]],
      [1, [1_000_000, 1]],
    ] as [number, number[]][]) {
      const parts = spread(total, weights);
      const sum = weights.reduce((s, w) => s + w, 0);
      expect(parts.reduce((s, p) => s + p, 0)).toBe(sum === 0 ? 0 : total);
    }
  });

  it('reads and writes thousandths', () => {
    expect([toMilli(1.5), toMilli(8.875), toMilli(0.001), toMilli(1e-4), toMilli(Number.NaN)]).toEqual([1500, 8875, 1, null, null]);
    expect([fromMilli(1500), fromMilli(8875), fromMilli(1), fromMilli(3000)]).toEqual(['1.5', '8.875', '0.001', '3']);
  });
});
