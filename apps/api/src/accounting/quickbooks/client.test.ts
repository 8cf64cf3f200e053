import { describe, expect, it } from 'vitest';
import type { InvoiceRecord } from '../port';
import { testInvoiceRecord } from '../test-invoice-record';
import { centsToDecimal, decimalToCents, lineAmountCents, milliToDecimal, retryAfterSeconds } from '../provider-http';
import { invoiceBody } from './client';

const record = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord =>
  testInvoiceRecord({ customer: { remoteId: '3', remoteVersion: '0' }, memo: '', ...overrides });

type Line = { DetailType: string; Amount: number; SalesItemLineDetail?: { Qty: number; UnitPrice: number } };

/** QBO's own arithmetic over what we send: sales lines, less discount lines, plus TotalTax, in cents. */
function qboTotal(body: Record<string, unknown>): number {
  const cents = (value: number) => decimalToCents(value)!;
  const lines = body.Line as Line[];
  const sales = lines.filter((l) => l.DetailType === 'SalesItemLineDetail').reduce((sum, l) => sum + cents(l.Amount), 0);
  const discount = lines.filter((l) => l.DetailType === 'DiscountLineDetail').reduce((sum, l) => sum + cents(l.Amount), 0);
  return sales - discount + cents((body.TxnTaxDetail as { TotalTax: number }).TotalTax);
}

describe('amounts', () => {
  it('writes cents as decimals without floating point', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(1250)).toBe('12.50');
    expect(centsToDecimal(-305)).toBe('-3.05');
    expect(centsToDecimal(1_000_000_000)).toBe('10000000.00');
    // 0.1 + 0.2 style errors cannot happen: 1.15 is read as 115 cents, not 114.99….
    expect(decimalToCents(1.15)).toBe(115);
    expect(decimalToCents('19.9')).toBe(1990);
    expect(decimalToCents('1.005')).toBeNull();
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });

  it('writes quantities and rounds line amounts half away from zero', () => {
    expect(milliToDecimal(1500)).toBe('1.5');
    expect(milliToDecimal(2000)).toBe('2');
    expect(milliToDecimal(125)).toBe('0.125');
    expect(lineAmountCents(1500, 1233)).toBe(1850);
    expect(lineAmountCents(1000, 333)).toBe(333);
    expect(lineAmountCents(1500, -1)).toBe(-2);
  });

  it('reads Retry-After', () => {
    expect(retryAfterSeconds('12')).toBe(12);
    expect(retryAfterSeconds(null)).toBe(30);
    expect(retryAfterSeconds('soon')).toBe(30);
  });
});

describe('QuickBooks invoice', () => {
  it('comes to the total with the discount and the tax', () => {
    const body = invoiceBody(record());
    expect(qboTotal(body)).toBe(2969);
    expect(body.TxnTaxDetail).toEqual({ TotalTax: 2.2 });
    expect(body.Line).toContainEqual({ DetailType: 'DiscountLineDetail', Amount: 1, DiscountLineDetail: { PercentBased: false } });
    expect(body).toMatchObject({ CustomerRef: { value: '3' }, DocNumber: 'INV-0007', TxnDate: '2026-01-01', DueDate: '2026-01-31' });
  });

  it('sends each line as Qty × UnitPrice = Amount, or 1 × Amount when the rounded product differs', () => {
    const body = invoiceBody(
      record({
        lines: [{ description: 'Odd', quantityMilli: 1500, unitPriceCents: 1233, amountCents: 1849 }],
        discountCents: 0,
        taxCents: 0,
        totalCents: 1849,
      }),
    );
    const [line] = body.Line as Line[];
    expect(line).toMatchObject({ Amount: 18.49, SalesItemLineDetail: { Qty: 1, UnitPrice: 18.49 } });
    expect(qboTotal(body)).toBe(1849);
  });

  it('puts a rounding difference in the tax, and in the discount should the tax go below zero', () => {
    expect(qboTotal(invoiceBody(record({ taxCents: 219 })))).toBe(2969);
    const body = invoiceBody(record({ taxCents: 0, totalCents: 2700 }));
    expect(qboTotal(body)).toBe(2700);
    expect(body.TxnTaxDetail).toEqual({ TotalTax: 0 });
  });
});
