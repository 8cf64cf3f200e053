import { describe, expect, it } from 'vitest';
import type { InvoiceRecord } from '../port';
import { testInvoiceRecord } from '../test-invoice-record';
import { decimalToCents, decimalToMilli, lineAmountCents } from '../provider-http';
import { creditNoteBody, invoiceBody, paymentBody } from './client';

const record = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => testInvoiceRecord(overrides);

type Line = { name: string; qty: string; unit_cost: { amount: string; code: string } };

/** FreshBooks' own arithmetic over what we send: each line's qty × unit cost rounded, summed. */
function freshBooksTotal(body: Record<string, unknown>): number {
  const lines = (body.invoice as { lines: Line[] }).lines;
  return lines.reduce((sum, line) => sum + lineAmountCents(decimalToMilli(line.qty)!, decimalToCents(line.unit_cost.amount)!), 0);
}

describe('FreshBooks invoice', () => {
  it('comes to the total, with the discount and the tax as lines of their own', () => {
    const body = invoiceBody(record());
    expect(freshBooksTotal(body)).toBe(2969);
    const invoice = body.invoice as { lines: Line[]; customerid: unknown; due_offset_days: number; invoice_number: string };
    expect(invoice.lines.map((line) => [line.name, line.qty, line.unit_cost.amount])).toEqual([
      ['A', '1.5', '12.33'],
      ['B', '3', '3.33'],
      ['Discount', '1', '-1.00'],
      ['Sales tax', '1', '2.20'],
    ]);
    expect(invoice).toMatchObject({ customerid: 41, due_offset_days: 30, invoice_number: 'INV-0007' });
  });

  it('keeps the total when a line or the tax was rounded differently', () => {
    const odd = record({
      lines: [{ description: 'Odd', quantityMilli: 1500, unitPriceCents: 1233, amountCents: 1849 }],
      discountCents: 0,
      taxCents: 0,
      totalCents: 1849,
    });
    expect(freshBooksTotal(invoiceBody(odd))).toBe(1849);
    expect(freshBooksTotal(invoiceBody(record({ taxCents: 221 })))).toBe(2969);
    expect(freshBooksTotal(invoiceBody(record({ taxCents: 0, totalCents: 2700 })))).toBe(2700);
  });

  it('sends a payment amount as text and the method in FreshBooks words', () => {
    const body = paymentBody({
      localId: 'p',
      invoice: { remoteId: '9', remoteVersion: null },
      customer: { remoteId: '41', remoteVersion: null },
      amountCents: 4005,
      date: '2026-01-05',
      method: 'card',
      reference: 'Payment of $40.05 on Invoice INV-0007',
    });
    expect(body).toEqual({
      payment: {
        invoiceid: 9,
        amount: { amount: '40.05', code: 'USD' },
        date: '2026-01-05',
        type: 'Credit Card',
        note: 'Payment of $40.05 on Invoice INV-0007',
      },
    });
  });

  it('sends a refund as a credit note to the client: one line of the amount, dated the day it succeeded', () => {
    const body = creditNoteBody({
      localId: 'rfd_1',
      payment: { remoteId: '9', remoteVersion: null },
      customer: { remoteId: '41', remoteVersion: null },
      amountCents: 405,
      date: '2026-01-06',
      transactionNumber: 'TRX-10234',
      reference: 'Refund of $4.05 on Invoice INV-0007',
    });
    expect(body).toEqual({
      credit_note: {
        clientid: 41,
        create_date: '2026-01-06',
        currency_code: 'USD',
        notes: 'Refund of $4.05 on Invoice INV-0007',
        lines: [{ type: 0, name: 'Refund', description: 'Refund of $4.05 on Invoice INV-0007', qty: '1', unit_cost: { amount: '4.05', code: 'USD' } }],
      },
    });
    expect(freshBooksTotal({ invoice: body.credit_note })).toBe(405);
  });
});
