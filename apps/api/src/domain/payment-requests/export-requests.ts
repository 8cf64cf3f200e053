import { sql, type Kysely, type SqlBool } from 'kysely';
import { csvRow, formatDateTime, formatDay } from '@tay/contract';
import type { DB } from '../../db/schema';
import { requestFilter, SORT_COLUMN, type ListQuery } from './list-requests';
import { referenceNumber } from './request-record';

/** Times are in the business's time zone, as its date filters are; the header says which. */
const header = (timeZone: string) => [
  'Reference',
  'Status',
  'Payer',
  'Payer e-mail',
  'Amount (USD)',
  'Paid (USD)',
  'Memo',
  'Your reference',
  'Due date',
  'Expires',
  `Created (${timeZone})`,
  `Sent (${timeZone})`,
];
const BATCH = 2000;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * The CSV of exactly what the list shows (same filters, search, sort and direction), produced in
 * batches by keyset on (sort column, id) so memory stays flat however many rows match.
 */
export async function* exportRequests({
  db,
  businessId,
  timeZone,
  query,
}: {
  db: Kysely<DB>;
  businessId: string;
  timeZone: string;
  query: ListQuery;
}): AsyncGenerator<string> {
  const where = requestFilter(businessId, query);
  const column = SORT_COLUMN[query.sortBy];
  const direction = query.sortDirection;
  yield `\ufeff${csvRow(header(timeZone))}\r\n`;
  let after: { key: string; id: string } | null = null;
  for (;;) {
    // The sort value travels as text: exact for every column (a JavaScript Date would drop a
    // timestamp's microseconds and skip or repeat rows at a batch edge).
    let select = db
      .selectFrom('payment_requests')
      .selectAll()
      .select(sql<string>`${sql.ref(column)}::text`.as('sort_key'))
      .where(where);
    if (after) {
      // The next batch starts past the last row sent, in the list's order (row comparison).
      select = select.where(sql<SqlBool>`(${sql.ref(column)}, id) ${sql.raw(direction === 'desc' ? '<' : '>')} (${after.key}, ${after.id})`);
    }
    const rows = await select.orderBy(column, direction).orderBy('id', direction).limit(BATCH).execute();
    if (rows.length === 0) return;
    yield rows
      .map(
        (r) =>
          `${csvRow([
            referenceNumber(r.number),
            r.state,
            r.payer_display_name,
            r.payer_email,
            dollars(r.amount_cents),
            dollars(r.amount_paid_cents),
            r.memo,
            r.reference,
            formatDay(r.due_date),
            formatDay(r.expires_on),
            formatDateTime(r.created_at, timeZone),
            r.sent_at ? formatDateTime(r.sent_at, timeZone) : '',
          ])}\r\n`,
      )
      .join('');
    const last = rows[rows.length - 1]!;
    after = { key: last.sort_key, id: last.id };
    if (rows.length < BATCH) return;
  }
}
