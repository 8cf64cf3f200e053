import type { InvoiceRecord } from './port';

/**
 * An invoice as Tay hands it to a provider, for the providers' tests: two lines whose amounts
 * are rounded from fractional quantities, a discount and tax, so each provider's arithmetic over
 * the body it builds must come back to Tay's total.
 */
export const testInvoiceRecord = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
  localId: 'inv',
  number: 'INV-0007',
  customer: { remoteId: '41', remoteVersion: null },
  issueDate: '2026-01-01',
  dueDate: '2026-01-31',
  memo: 'Thanks',
  lines: [
    { description: 'A', quantityMilli: 1500, unitPriceCents: 1233, amountCents: 1850 },
    { description: 'B', quantityMilli: 3000, unitPriceCents: 333, amountCents: 999 },
  ],
  discountCents: 100,
  taxCents: 220,
  totalCents: 2969,
  ...overrides,
});
