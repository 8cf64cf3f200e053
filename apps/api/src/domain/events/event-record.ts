import { randomBytes } from 'node:crypto';
import { eventActions, type PayoutEvent } from '@tay/contract';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { EventsTable } from '../../db/schema/payouts';
import { AppError } from '../../lib/app-error';

export type EventRow = Selectable<EventsTable>;

/** 24 random bytes, base64url (32 characters): what the printed code encodes; never the database id. */
export function newCheckInToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the event's code encodes: the check-in page. */
export function checkInUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/checkin/${token}`;
}

export function toEvent(row: EventRow, publicUrl: string): PayoutEvent {
  return {
    eventId: row.id,
    name: row.name,
    eventDate: row.event_date,
    place: row.place,
    amountCents: Number(row.amount_cents),
    status: row.status,
    checkInsCount: Number(row.check_ins_count),
    maxCheckIns: row.max_check_ins,
    checkInsCloseAt: row.check_ins_close_at?.toISOString() ?? null,
    checkInUrl: checkInUrl(publicUrl, row.token),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: eventActions(row.status, Number(row.check_ins_count)),
  };
}

/** One event of the business; another business's id is 404, as an unknown one. */
export async function selectEvent(db: Executor, businessId: string, eventId: string, { lock = false } = {}): Promise<EventRow> {
  let query = db.selectFrom('events').selectAll().where('business_id', '=', businessId).where('id', '=', eventId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('Event');
  return row;
}
