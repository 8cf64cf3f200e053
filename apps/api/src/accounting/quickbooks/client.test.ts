import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderRecordError, type InvoiceRecord, type ProviderSettings, type RefundRecord } from '../port';
import { testInvoiceRecord } from '../test-invoice-record';
import { centsToDecimal, decimalToCents, lineAmountCents, milliToDecimal, retryAfterSeconds } from '../provider-http';
import { createQuickBooksProvider, invoiceBody, refundReceiptBody } from './client';

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

const refund: RefundRecord = {
  localId: 'rfd_1',
  payment: { remoteId: '9', remoteVersion: '0' },
  customer: { remoteId: '3', remoteVersion: '1' },
  amountCents: 405,
  date: '2026-01-06',
  transactionNumber: 'TRX-10234',
  reference: 'Refund of $4.05 on Invoice INV-0007',
};

describe('QuickBooks refund receipt', () => {
  it('is one line of the amount, for the customer, from the deposit account, with the TRX number as PaymentRefNum', () => {
    expect(refundReceiptBody(refund, '4')).toEqual({
      CustomerRef: { value: '3' },
      TxnDate: '2026-01-06',
      PaymentRefNum: 'TRX-10234',
      PrivateNote: 'Refund of $4.05 on Invoice INV-0007',
      DepositToAccountRef: { value: '4' },
      Line: [
        {
          DetailType: 'SalesItemLineDetail',
          Amount: 4.05,
          Description: 'Refund of $4.05 on Invoice INV-0007',
          SalesItemLineDetail: { ItemRef: { value: '1', name: 'Services' }, Qty: 1, UnitPrice: 4.05 },
        },
      ],
      TxnTaxDetail: { TotalTax: 0 },
    });
    // QBO's own arithmetic comes back to the refund, to the cent.
    expect(qboTotal(refundReceiptBody({ ...refund, amountCents: 123_456_789 }, '4'))).toBe(123_456_789);
  });

  describe('pushed', () => {
    const settings: ProviderSettings = {
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: 'https://qbo.test/auth',
      tokenUrl: 'https://qbo.test/token',
      revokeUrl: 'https://qbo.test/revoke',
      apiUrl: 'https://qbo.test',
      standIn: false,
    };
    const session = { accessToken: 'token', accountId: '123', signal: AbortSignal.timeout(5_000) };
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    afterEach(() => vi.restoreAllMocks());

    it('reads the account its payment went into, then creates the receipt from it, idempotently', async () => {
      const fetch = vi
        .spyOn(globalThis, 'fetch')
        .mockResolvedValueOnce(json({ Payment: { Id: '9', SyncToken: '0', DepositToAccountRef: { value: '35' } } }))
        .mockResolvedValueOnce(json({ RefundReceipt: { Id: '17', SyncToken: '0', TotalAmt: 4.05 } }));
      const pushed = await createQuickBooksProvider(settings).pushRefund(session, refund, null);
      expect(pushed).toEqual({ remoteId: '17', remoteVersion: '0' });
      const [read, create] = fetch.mock.calls.map(([url, init]) => ({ url: new URL(String(url)), init: init! }));
      expect(read!.url.pathname).toBe('/v3/company/123/payment/9');
      expect(read!.init.method).toBe('GET');
      expect(create!.url.pathname).toBe('/v3/company/123/refundreceipt');
      expect(create!.url.searchParams.get('requestid')).toMatch(/^tr-rfd_1-/);
      expect(create!.init.method).toBe('POST');
      expect(JSON.parse(String(create!.init.body))).toEqual(refundReceiptBody(refund, '35'));
    });

    it('refuses a receipt whose total QuickBooks worked out otherwise (its own sales tax), and a payment gone from QuickBooks', async () => {
      vi.spyOn(globalThis, 'fetch')
        .mockResolvedValueOnce(json({ Payment: { Id: '9', DepositToAccountRef: { value: '4' } } }))
        .mockResolvedValueOnce(json({ RefundReceipt: { Id: '17', SyncToken: '0', TotalAmt: 4.38 } }))
        .mockResolvedValueOnce(json({ Fault: { Error: [{ Message: 'Object Not Found', Detail: 'Object Not Found : Payment 9', code: '610' }] } }, 400));
      const provider = createQuickBooksProvider(settings);
      await expect(provider.pushRefund(session, refund, null)).rejects.toThrow(/total of 4\.38 for the refund receipt, not 4\.05/);
      const gone = provider.pushRefund(session, refund, null);
      await expect(gone).rejects.toBeInstanceOf(ProviderRecordError);
      await expect(gone).rejects.toThrow(/^Object Not Found : Payment 9 \(the payment this refund gives back was deleted/);
    });
  });
});
