import type { Kysely } from 'kysely';
import { csvRow, formatDate, formatDateTime } from '@tay/contract';
import type { DB } from '../../db/schema';
import { businessForRequests } from './request-context';
import { requestFilter, type ListQuery } from './list-requests';
import { referenceNumber } from './request-record';

const HEADER = ['Reference', 'Status', 'Payer', 'Payer e-mail', 'Amount (USD)', 'Paid (USD)', 'Memo', 'Your reference', 'Due date', 'Expires', 'Created', 'Sent'];
const BATCH = 2000;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * The CSV of exactly what the list shows (same filters, search and sort), produced in batches
 * by keyset so memory stays flat however many rows match.
 */
export async function* exportRequests({ db, businessId, userId, query }: { db: Kysely<DB>; businessId: string; userId: string; query: ListQuery }): AsyncGenerator<string> {
  await businessForRequests(db, { businessId, userId, access: 'read' });
  const where = requestFilter(businessId, query);
  yield `\ufeff${csvRow(HEADER)}\r\n`;
  let after: { created_at: Date; id: string } | null = null;
  for (;;) {
    let select = db.selectFrom('payment_requests').selectAll().where(where);
    if (after) {
      const cursor: { created_at: Date; id: string } = after;
      select = select.where((eb) =>
        eb.or([eb('created_at', '<', cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)])]),
      );
    }
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(BATCH).execute();
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
            formatDate(`${r.due_date}T12:00:00`),
            formatDate(`${r.expires_on}T12:00:00`),
            formatDateTime(r.created_at),
            r.sent_at ? formatDateTime(r.sent_at) : '',
          ])}\r\n`,
      )
      .join('');
    const last = rows[rows.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
    if (rows.length < BATCH) return;
  }
}
