import type { Selectable, Transaction } from 'kysely';
import {
  fromMilli,
  INVOICE_TERMS_DAYS,
  invoiceActions,
  invoiceFigures,
  MAX_AMOUNT_CENTS,
  OPEN_INVOICE_STATES,
  toMilli,
  type Invoice,
  type InvoiceDiscount,
  type InvoiceListItem,
  type InvoiceValues,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { InvoicesTable, StoredInvoiceDiscount, StoredInvoiceLine } from '../../db/schema/invoices';
import { AppError } from '../../lib/app-error';
import { addDays } from '../payment-requests/request-record';
import { invoiceNumber } from './invoice-number';
import type { Actor } from '../payment-requests/transition';

export type InvoiceRow = Selectable<InvoicesTable>;

/** `INV-0042` (or `inv-42`, `42`) typed in a search box → the number, else null. */
export function parseInvoiceNumber(text: string): number | null {
  const match = /^(?:inv-?)?(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/** The due date the terms give: the issue date plus the term's days, or the date chosen. */
export function dueDateOf(values: Pick<InvoiceValues, 'terms' | 'issueDate' | 'dueDate'>): string {
  if (values.terms === 'custom') return values.dueDate!;
  return addDays(values.issueDate, INVOICE_TERMS_DAYS[values.terms]);
}

function storedDiscount(discount: InvoiceDiscount): StoredInvoiceDiscount {
  if (discount.type === 'amount') return { type: 'amount', amountCents: discount.amountCents };
  if (discount.type === 'percent') return { type: 'percent', percentMilli: toMilli(discount.percent)! };
  return { type: 'none' };
}

function discountOf(stored: StoredInvoiceDiscount): InvoiceDiscount {
  if (stored.type === 'amount') return { type: 'amount', amountCents: stored.amountCents };
  if (stored.type === 'percent') return { type: 'percent', percent: Number(fromMilli(stored.percentMilli)) };
  return { type: 'none' };
}

/**
 * The columns an invoice's input sets: its lines with their figures (packages/contract/src/invoices/totals.ts)
 * and its totals. A total above the largest amount one payment may move is refused here, with the field.
 */
export function invoiceColumns(values: InvoiceValues) {
  const lines = values.items.map((item) => ({
    description: item.description,
    quantityMilli: toMilli(item.quantity)!,
    unitPriceCents: item.unitPriceCents,
    taxRateMilli: toMilli(item.taxRate)!,
  }));
  const discount = storedDiscount(values.discount);
  const figures = invoiceFigures(lines, discount);
  if (figures.totalCents > MAX_AMOUNT_CENTS) {
    throw AppError.validation('The invoice total is above the $10,000,000.00 limit of one payment.', {
      items: 'The total is above $10,000,000.00. Split it into more than one invoice.',
    });
  }
  const items: StoredInvoiceLine[] = lines.map((line, i) => ({ ...line, ...figures.lines[i]! }));
  return {
    issue_date: values.issueDate,
    terms: values.terms,
    due_date: dueDateOf(values),
    items: JSON.stringify(items),
    discount: JSON.stringify(discount),
    subtotal_cents: figures.subtotalCents,
    discount_cents: figures.discountCents,
    tax_cents: figures.taxCents,
    total_cents: figures.totalCents,
    memo: values.memo,
    footer: values.footer,
    allow_partial: values.allowPartial,
    channel: values.channel,
  };
}

/** Owed and past due, on the business's calendar. */
export function isOverdue(row: Pick<InvoiceRow, 'state' | 'due_date'>, today: string): boolean {
  return OPEN_INVOICE_STATES.includes(row.state) && row.due_date < today;
}

export function toInvoiceListItem(row: Omit<InvoiceRow, 'items' | 'discount' | 'memo' | 'footer'>, today: string): InvoiceListItem {
  return {
    invoiceId: row.id,
    number: invoiceNumber(row.number),
    invoiceState: row.state,
    overdue: isOverdue(row, today),
    payerId: row.payer_id,
    payerName: row.payer_display_name,
    payerEmail: row.payer_email,
    channel: row.channel,
    issueDate: row.issue_date,
    terms: row.terms,
    dueDate: row.due_date,
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    taxCents: row.tax_cents,
    totalCents: row.total_cents,
    amountPaidCents: row.amount_paid_cents,
    balanceCents: row.total_cents - row.amount_paid_cents,
    allowPartial: row.allow_partial,
    transactionId: row.request_id,
    sendAt: row.send_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    paidAt: row.paid_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: invoiceActions(row.state),
  };
}

export function invoiceLines(items: StoredInvoiceLine[]): Invoice['items'] {
  return items.map((l) => ({
    description: l.description,
    quantity: Number(fromMilli(l.quantityMilli)),
    unitPriceCents: l.unitPriceCents,
    taxRate: Number(fromMilli(l.taxRateMilli)),
    amountCents: l.amountCents,
    discountCents: l.discountCents,
    taxCents: l.taxCents,
  }));
}

export function toInvoice(row: InvoiceRow, today: string): Invoice {
  const { actions, ...item } = toInvoiceListItem(row, today);
  return { ...item, items: invoiceLines(row.items), discount: discountOf(row.discount), memo: row.memo, footer: row.footer, actions };
}

export async function selectInvoice(db: Executor, businessId: string, invoiceId: string): Promise<InvoiceRow> {
  const row = await db.selectFrom('invoices').selectAll().where('business_id', '=', businessId).where('id', '=', invoiceId).executeTakeFirst();
  if (!row) throw AppError.notFound('Invoice');
  return row;
}

/** The invoice row, locked until the transaction ends; 404 when it is not this business's. */
export async function lockInvoice(trx: Transaction<DB>, businessId: string, invoiceId: string): Promise<InvoiceRow> {
  const row = await trx.selectFrom('invoices').selectAll().where('business_id', '=', businessId).where('id', '=', invoiceId).forUpdate().executeTakeFirst();
  if (!row) throw AppError.notFound('Invoice');
  return row;
}

export async function recordInvoiceEvent(
  db: Executor,
  { businessId, invoiceId, actor, event, detail = null }: { businessId: string; invoiceId: string; actor: Actor; event: string; detail?: string | null },
): Promise<void> {
  await db
    .insertInto('invoice_events')
    .values({
      business_id: businessId,
      invoice_id: invoiceId,
      actor_type: actor.type,
      actor_id: actor.id,
      actor_label: actor.label,
      event,
      detail,
      ip_address: actor.ip ?? null,
    })
    .execute();
}
