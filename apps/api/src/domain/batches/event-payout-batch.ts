import type { Kysely } from 'kysely';
import { csvRow, ErrorCode, formatDay, type Batch } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import type { ScopedBusiness } from '../businesses/business-scope';
import { mapBatch } from './check-batch';
import { uploadBatch } from './upload-batch';
import { anyRow } from '../../db/any-row';

/** Cents as the file writes an amount: 40.00. */
const amountText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * POST …/events/:eventId/pay ("Pay checked-in receivers", ADR 035): the event's check-ins that no
 * payout pays yet become one payouts batch — written as the CSV file a person would upload
 * (receiver e-mail, the event's amount, a memo naming the event), so it is checked, reviewed,
 * fixed and submitted like any bulk payout. The batch remembers the event: sending it links each
 * payout to its check-in, and a check-in already paid fails its row rather than paying twice.
 */
export async function payCheckedIn({
  db,
  jobs,
  business,
  eventId,
  user,
}: {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  business: ScopedBusiness;
  eventId: string;
  user: { userId: string; email: string; ip?: string | undefined };
}): Promise<Batch> {
  const event = await db
    .selectFrom('events')
    .select(['id', 'name', 'event_date', 'amount_cents'])
    .where('business_id', '=', business.id)
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw AppError.notFound('Event');
  const unpaid = await db
    .selectFrom('event_check_ins as c')
    .innerJoin('receivers as r', (join) => join.onRef('r.business_id', '=', 'c.business_id').onRef('r.id', '=', 'c.receiver_id'))
    .leftJoin('payouts as p', (join) => join.onRef('p.business_id', '=', 'c.business_id').onRef('p.id', '=', 'c.payout_id'))
    .select(['r.email'])
    .where('c.business_id', '=', business.id)
    .where('c.event_id', '=', eventId)
    // Unpaid: no payout, or one that was rejected, cancelled or returned.
    .where((eb) => eb.or([eb('c.payout_id', 'is', null), eb('p.state', 'in', ['Rejected', 'Cancelled', 'Error'])]))
    .orderBy('c.checked_in_at')
    .execute();
  if (unpaid.length === 0) {
    const any = await anyRow(db, 'event_check_ins', business.id, { event_id: eventId });
    throw new AppError(
      ErrorCode.Conflict,
      any ? 'Every check-in of this event is paid already (or waiting for approval).' : 'No one has checked in to this event yet, so there is no one to pay.',
    );
  }
  const memo = `${event.name}, ${formatDay(event.event_date)}`.slice(0, 500);
  const lines = [csvRow(['Email', 'Amount', 'Memo']), ...unpaid.map((c) => csvRow([c.email, amountText(Number(event.amount_cents)), memo]))];
  const slug =
    event.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'event';
  const uploaded = await uploadBatch({
    db,
    business,
    user,
    kind: 'payouts',
    fileName: `${slug}-check-ins.csv`,
    bytes: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'),
  });
  await db.updateTable('batches').set({ event_id: eventId }).where('business_id', '=', business.id).where('id', '=', uploaded.batchId).execute();
  return mapBatch({
    db,
    jobs,
    business,
    batchId: uploaded.batchId,
    mapping: { payer: 'existing', columns: { email: 'Email', amount: 'Amount', memo: 'Memo' } },
    actor: user,
  });
}
