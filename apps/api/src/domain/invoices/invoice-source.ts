import { sql } from 'kysely';
import { AppError } from '../../lib/app-error';
import { ErrorCode, type PayerInvoice, type PaymentRequest } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { RequestRow } from '../payment-requests/request-record';
import type { RequestSource, RequestSourceDefinition } from '../payment-requests/request-source';
import { INVOICE_PDF, invoiceEmail, renderInvoicePdfAttachment } from './invoice-document';
import { invoiceNumber, parseInvoiceReference } from './invoice-number';
import { invoiceLines } from './invoice-record';

/** The source record of the request that collects an invoice (ADR 033): the invoice, found by its number too. */
export function invoiceSource(invoice: { id: string; number: number }): RequestSource {
  return {
    kind: 'invoice',
    id: invoice.id,
    number: invoice.number,
    record: { list: { invoiceId: invoice.id, invoiceNumber: invoiceNumber(invoice.number) } satisfies Pick<PaymentRequest, 'invoiceId' | 'invoiceNumber'> },
  };
}

/** The invoice a request collects, or null. */
export function invoiceIdOf(row: Pick<RequestRow, 'source_kind' | 'source_id'>): string | null {
  return row.source_kind === 'invoice' ? row.source_id : null;
}

/** "INV-0042" of the invoice a request collects, or null. */
export function invoiceNumberOf(row: Pick<RequestRow, 'source_kind' | 'source_number'>): string | null {
  return row.source_kind === 'invoice' && row.source_number !== null ? invoiceNumber(row.source_number) : null;
}

/** What the payer's page shows of the invoice a request collects: its lines and figures. */
async function payerInvoice(db: Executor, businessId: string, invoiceId: string): Promise<PayerInvoice | null> {
  const invoice = await db.selectFrom('invoices').selectAll().where('business_id', '=', businessId).where('id', '=', invoiceId).executeTakeFirst();
  if (!invoice) return null;
  return {
    number: invoiceNumber(invoice.number),
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    items: invoiceLines(invoice.items),
    subtotalCents: invoice.subtotal_cents,
    discountCents: invoice.discount_cents,
    taxCents: invoice.tax_cents,
    totalCents: invoice.total_cents,
    memo: invoice.memo,
    footer: invoice.footer,
  };
}

/**
 * The payer opened the invoice's page: noted once per link sent (a new send or resend makes a new
 * link), so the business sees that the e-mail got read without a line for every reload.
 */
async function recordView(db: Executor, row: RequestRow): Promise<void> {
  if (!row.sent_at) return;
  await sql`
    INSERT INTO payment_request_events (business_id, request_id, actor_type, actor_id, actor_label, event, from_state, to_state, detail)
    SELECT ${row.business_id}, ${row.id}, 'payer', NULL, ${`Payer (${row.payer_email})`}, 'viewed', NULL, NULL, NULL
    WHERE NOT EXISTS (
      SELECT 1 FROM payment_request_events
      WHERE business_id = ${row.business_id} AND request_id = ${row.id} AND event = 'viewed' AND created_at >= ${row.sent_at}
    )`.execute(db);
}

/**
 * The request that collects an invoice (ADR 033): it sends the invoice (its own e-mail with the
 * PDF), is named by the invoice's number, is edited through the invoice, and its page shows the
 * invoice's lines.
 */
export const invoiceRequestSource: RequestSourceDefinition = {
  kind: 'invoice',
  createdDetail: (source) => (source.number === null ? null : `For invoice ${invoiceNumber(source.number)}`),
  textReference: (row) => {
    const number = invoiceNumberOf(row);
    return number ? `invoice ${number}` : null;
  },
  email: (db, row, businessName, kind, link) => invoiceEmail(db, row, businessName, kind, link),
  attachments: { [INVOICE_PDF]: renderInvoicePdfAttachment },
  editRefusal: (row) =>
    new AppError(
      ErrorCode.Conflict,
      `This request collects invoice ${invoiceNumberOf(row) ?? ''}: edit the invoice instead, so the invoice and its request stay the same.`,
    ),
  async payPage(db, row, opened) {
    const invoiceId = invoiceIdOf(row);
    if (!invoiceId) return {};
    const invoice = await payerInvoice(db, row.business_id, invoiceId);
    // An invoice's timeline says when the payer opened it; a plain request's does not.
    if (opened) await recordView(db, row);
    return { invoice };
  },
  searchNumber: parseInvoiceReference,
  exportColumns: [{ header: 'Invoice', at: 'afterReference', value: (row) => invoiceNumberOf(row) ?? '' }],
};
