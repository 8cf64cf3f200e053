import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  csvRow,
  formatDateTime,
  formatDay,
  INVOICE_STATE_LABELS,
  type InvoiceListQuery,
  InvoiceState,
  OPEN_INVOICE_STATES,
  type InvoiceListItem,
  type InvoiceSummary,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { todayIn } from '../payment-requests/request-record';
import { invoiceNumber } from './invoice-number';
import { parseInvoiceNumber, toInvoiceListItem, type InvoiceRow } from './invoice-record';
import { plainPage } from '../../db/plain-list';

export type InvoiceQuery = ReturnType<typeof InvoiceListQuery.parse>;

const SORT_COLUMNS = {
  number: 'number',
  issueDate: 'issue_date',
  dueDate: 'due_date',
  total: 'total_cents',
  balance: 'balance',
  payer: 'payer_display_name',
  state: 'state',
} as const;

/** The status filter: states, and `Overdue` for the open ones past due. */
function statusesOf(status: string | undefined): { states: InvoiceState[]; overdue: boolean } {
  const wanted = (status ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = wanted.filter((s) => s !== 'Overdue' && !(InvoiceState.options as readonly string[]).includes(s));
  if (bad.length > 0) {
    throw AppError.validation(`Unknown status: ${bad.join(', ')}.`, { status: `Use any of: ${[...InvoiceState.options, 'Overdue'].join(', ')}.` });
  }
  return { states: wanted.filter((s): s is InvoiceState => s !== 'Overdue'), overdue: wanted.includes('Overdue') };
}

/** The WHERE of the list, its total and its export: this business's invoices, as the query filters them. */
function whereOf(businessId: string, query: InvoiceQuery, today: string) {
  if (query.minAmountCents !== undefined && query.maxAmountCents !== undefined && query.minAmountCents > query.maxAmountCents) {
    throw AppError.validation('The smallest amount is larger than the largest.', { minAmountCents: 'Must not be above the largest amount.' });
  }
  if (query.from && query.to && query.from > query.to)
    throw AppError.validation('The date range ends before it starts.', { from: 'Must not be after the end date.' });
  const { states, overdue } = statusesOf(query.status);
  return (eb: ExpressionBuilder<DB, 'invoices'>): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('business_id', '=', businessId)];
    const byStatus: Expression<SqlBool>[] = [];
    if (states.length > 0) byStatus.push(eb('state', 'in', states));
    if (overdue) byStatus.push(eb.and([eb('state', 'in', OPEN_INVOICE_STATES), eb('due_date', '<', today)]));
    if (byStatus.length > 0) and.push(eb.or(byStatus));
    if (query.payerId) and.push(eb('payer_id', '=', query.payerId));
    if (query.from) and.push(eb('issue_date', '>=', query.from));
    if (query.to) and.push(eb('issue_date', '<=', query.to));
    if (query.minAmountCents !== undefined) and.push(eb('total_cents', '>=', query.minAmountCents));
    if (query.maxAmountCents !== undefined) and.push(eb('total_cents', '<=', query.maxAmountCents));
    if (query.search) {
      const text = query.search.toLowerCase();
      const pattern = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const or: Expression<SqlBool>[] = [sql<SqlBool>`lower(payer_display_name) LIKE ${pattern}`, sql<SqlBool>`lower(payer_email) LIKE ${pattern}`];
      const number = parseInvoiceNumber(query.search);
      if (number !== null) or.push(eb('number', '=', number));
      and.push(eb.or(or));
    }
    return eb.and(and);
  };
}

function ordered(db: Kysely<DB>, businessId: string, query: InvoiceQuery, today: string) {
  const direction = query.sortDirection;
  const column = SORT_COLUMNS[query.sortBy];
  let q = db.selectFrom('invoices').where(whereOf(businessId, query, today));
  q = column === 'balance' ? q.orderBy(sql`total_cents - amount_paid_cents`, direction) : q.orderBy(column, direction);
  return q.orderBy('number', direction);
}

const LIST_COLUMNS = [
  'business_id',
  'id',
  'number',
  'state',
  'payer_id',
  'payer_display_name',
  'payer_email',
  'channel',
  'issue_date',
  'terms',
  'due_date',
  'subtotal_cents',
  'discount_cents',
  'tax_cents',
  'total_cents',
  'amount_paid_cents',
  'allow_partial',
  'request_id',
  'send_at',
  'sent_at',
  'paid_at',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** A page of the invoices: filtered, searched (number, payer name or e-mail), sorted, with the exact total. */
export async function listInvoices({
  db,
  businessId,
  timeZone,
  query,
}: {
  db: Kysely<DB>;
  businessId: string;
  timeZone: string;
  query: InvoiceQuery;
}): Promise<{ items: InvoiceListItem[]; page: number; pageSize: number; total: number }> {
  const today = todayIn(timeZone);
  return plainPage(
    query,
    ordered(db, businessId, query, today).select(LIST_COLUMNS),
    db.selectFrom('invoices').where(whereOf(businessId, query, today)),
    (rows) => rows.map((r) => toInvoiceListItem(r, today)),
  );
}

const header = (timeZone: string) => [
  'Number',
  'Status',
  'Overdue',
  'Payer',
  'Payer e-mail',
  'Issue date',
  'Due date',
  'Subtotal (USD)',
  'Discount (USD)',
  'Tax (USD)',
  'Total (USD)',
  'Paid (USD)',
  'Balance (USD)',
  `Sent (${timeZone})`,
  `Paid (${timeZone})`,
];
const dollars = (cents: number) => (cents / 100).toFixed(2);
const BATCH = 1000;

/** The CSV of what the list shows (same filters, search and order), a batch of rows at a time. */
export async function* exportInvoices({
  db,
  businessId,
  timeZone,
  query,
}: {
  db: Kysely<DB>;
  businessId: string;
  timeZone: string;
  query: InvoiceQuery;
}): AsyncGenerator<string> {
  const today = todayIn(timeZone);
  // Built before the header goes out: a bad filter is a 400, not a cut-off file.
  whereOf(businessId, query, today);
  yield `\ufeff${csvRow(header(timeZone))}\r\n`;
  for (let offset = 0; ; offset += BATCH) {
    const rows: Omit<InvoiceRow, 'items' | 'discount' | 'memo' | 'footer'>[] = await ordered(db, businessId, query, today)
      .select(LIST_COLUMNS)
      .limit(BATCH)
      .offset(offset)
      .execute();
    if (rows.length === 0) return;
    yield rows
      .map((r) => {
        const item = toInvoiceListItem(r, today);
        return `${csvRow([
          invoiceNumber(r.number),
          INVOICE_STATE_LABELS[r.state],
          item.overdue ? 'Yes' : '',
          r.payer_display_name,
          r.payer_email,
          formatDay(r.issue_date),
          formatDay(r.due_date),
          dollars(r.subtotal_cents),
          dollars(r.discount_cents),
          dollars(r.tax_cents),
          dollars(r.total_cents),
          dollars(r.amount_paid_cents),
          dollars(item.balanceCents),
          r.sent_at ? formatDateTime(r.sent_at, timeZone) : '',
          r.paid_at ? formatDateTime(r.paid_at, timeZone) : '',
        ])}\r\n`;
      })
      .join('');
    if (rows.length < BATCH) return;
  }
}

/** The landing's figures: what is owed, what is overdue, what was paid this month (the business's month). */
export async function invoiceSummary({ db, businessId, timeZone }: { db: Kysely<DB>; businessId: string; timeZone: string }): Promise<InvoiceSummary> {
  const today = todayIn(timeZone);
  const monthStart = `${today.slice(0, 7)}-01`;
  const row = await db
    .selectFrom('invoices')
    .where('business_id', '=', businessId)
    .select([
      sql<string>`count(*) FILTER (WHERE state IN ('Sent', 'Resent', 'PartiallyPaid'))`.as('outstanding_count'),
      sql<string>`coalesce(sum(total_cents - amount_paid_cents) FILTER (WHERE state IN ('Sent', 'Resent', 'PartiallyPaid')), 0)`.as('outstanding_cents'),
      sql<string>`count(*) FILTER (WHERE state IN ('Sent', 'Resent', 'PartiallyPaid') AND due_date < ${today})`.as('overdue_count'),
      sql<string>`coalesce(sum(total_cents - amount_paid_cents) FILTER (WHERE state IN ('Sent', 'Resent', 'PartiallyPaid') AND due_date < ${today}), 0)`.as(
        'overdue_cents',
      ),
      sql<string>`count(*) FILTER (WHERE state = 'Paid' AND paid_at >= (${monthStart}::date)::timestamp AT TIME ZONE ${timeZone})`.as('paid_count'),
      sql<string>`coalesce(sum(total_cents) FILTER (WHERE state = 'Paid' AND paid_at >= (${monthStart}::date)::timestamp AT TIME ZONE ${timeZone}), 0)`.as(
        'paid_cents',
      ),
      sql<string>`count(*) FILTER (WHERE state = 'Draft')`.as('draft_count'),
    ])
    .executeTakeFirstOrThrow();
  return {
    outstandingCount: Number(row.outstanding_count),
    outstandingCents: Number(row.outstanding_cents),
    overdueCount: Number(row.overdue_count),
    overdueCents: Number(row.overdue_cents),
    paidThisMonthCount: Number(row.paid_count),
    paidThisMonthCents: Number(row.paid_cents),
    draftCount: Number(row.draft_count),
  };
}
