import { sql, type Kysely } from 'kysely';
import {
  csvRow,
  ErrorCode,
  EVENT_STATUS_LABELS,
  formatDateTime,
  formatDay,
  formatMoney,
  RECEIVER_REVIEW_LABELS,
  RECEIVER_VERIFICATION_LABELS,
  type EventCheckIn,
  type EventCheckInQuery,
  type EventListQuery,
  type EventValues,
  type PayoutEvent,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor as AuditActor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { newCheckInToken, selectEvent, toEvent } from './event-record';
import { plainPage } from '../../db/plain-list';
import { anyRow } from '../../db/any-row';

export interface EventContext {
  db: Kysely<DB>;
  publicUrl: string;
}

type ListQuery = ReturnType<typeof EventListQuery.parse>;
type CheckInQuery = ReturnType<typeof EventCheckInQuery.parse>;

const auditActor = (user: ActingUser): AuditActor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

function columnsOf(values: EventValues) {
  return {
    name: values.name,
    event_date: values.eventDate,
    place: values.place,
    amount_cents: values.amountCents,
    status: values.status,
    max_check_ins: values.maxCheckIns,
    check_ins_close_at: values.checkInsCloseAt ? new Date(values.checkInsCloseAt) : null,
  };
}

export async function createEvent(
  ctx: EventContext,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: EventValues },
): Promise<PayoutEvent> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('events')
      .values({ business_id: business.id, id: newId('evn'), token: newCheckInToken(), ...columnsOf(body), created_by: user.userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'event.created', details: { eventId: row.id, name: row.name } });
    return toEvent(row, ctx.publicUrl);
  });
}

/** Edits an event; what its code encodes never changes, so printed copies keep working. */
export async function updateEvent(
  ctx: EventContext,
  { business, user, eventId, body }: { business: ScopedBusiness; user: ActingUser; eventId: string; body: EventValues },
): Promise<PayoutEvent> {
  return ctx.db.transaction().execute(async (trx) => {
    await selectEvent(trx, business.id, eventId, { lock: true });
    const row = await trx
      .updateTable('events')
      .set({ ...columnsOf(body), updated_at: sql<Date>`now()` })
      .where('business_id', '=', business.id)
      .where('id', '=', eventId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'event.updated', details: { eventId, name: row.name } });
    return toEvent(row, ctx.publicUrl);
  });
}

export async function setEventStatus(
  ctx: EventContext,
  { business, user, eventId, enable }: { business: ScopedBusiness; user: ActingUser; eventId: string; enable: boolean },
): Promise<PayoutEvent> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectEvent(trx, business.id, eventId, { lock: true });
    const status = enable ? 'active' : 'Disabled';
    if (current.status === status) throw new AppError(ErrorCode.Conflict, `The event "${current.name}" is already ${enable ? 'enabled' : 'disabled'}.`);
    const row = await trx
      .updateTable('events')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('business_id', '=', business.id)
      .where('id', '=', eventId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: enable ? 'event.enabled' : 'event.disabled',
      details: { eventId, name: row.name },
    });
    return toEvent(row, ctx.publicUrl);
  });
}

/** Deletes an event no one has checked in to; the others stay on record with their check-ins. */
export async function deleteEvent(
  ctx: EventContext,
  { business, user, eventId }: { business: ScopedBusiness; user: ActingUser; eventId: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const current = await selectEvent(trx, business.id, eventId, { lock: true });
    if (await anyRow(trx, 'event_check_ins', business.id, { event_id: eventId })) {
      throw new AppError(ErrorCode.Conflict, `Receivers have checked in to "${current.name}", so it stays on record with their check-ins. Disable it instead.`);
    }
    await trx.deleteFrom('events').where('business_id', '=', business.id).where('id', '=', eventId).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'event.deleted', details: { eventId, name: current.name } });
  });
}

export async function getEvent(ctx: EventContext, { business, eventId }: { business: ScopedBusiness; eventId: string }): Promise<PayoutEvent> {
  return toEvent(await selectEvent(ctx.db, business.id, eventId), ctx.publicUrl);
}

const SORT_COLUMNS = { createdAt: 'created_at', name: 'name', eventDate: 'event_date', checkIns: 'check_ins_count' } as const;

function filtered(db: Kysely<DB>, businessId: string, query: Pick<ListQuery, 'search' | 'status'>) {
  let q = db.selectFrom('events').where('business_id', '=', businessId);
  if (query.search) q = q.where(sql<boolean>`strpos(lower(name), lower(${query.search})) > 0`);
  if (query.status) q = q.where('status', '=', query.status);
  return q;
}

export async function listEvents(ctx: EventContext, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(ctx.db, business.id, query);
  return plainPage(query, base.selectAll().orderBy(SORT_COLUMNS[query.sortBy], query.sortDirection).orderBy('id', query.sortDirection), base, (rows) =>
    rows.map((r) => toEvent(r, ctx.publicUrl)),
  );
}

export async function* exportEvents(ctx: EventContext, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const rows = await filtered(ctx.db, business.id, query)
    .selectAll()
    .orderBy(SORT_COLUMNS[query.sortBy], query.sortDirection)
    .orderBy('id', query.sortDirection)
    .execute();
  yield '\ufeff' + csvRow(['Name', 'Date', 'Place', 'Amount per check-in', 'Status', 'Check-ins', 'Check-in link', 'Created']) + '\r\n';
  for (const row of rows) {
    const ev = toEvent(row, ctx.publicUrl);
    yield (
      csvRow([
        ev.name,
        formatDay(ev.eventDate),
        ev.place,
        formatMoney(ev.amountCents),
        EVENT_STATUS_LABELS[ev.status],
        ev.checkInsCount,
        ev.checkInUrl,
        formatDateTime(row.created_at, business.timeZone),
      ]) + '\r\n'
    );
  }
}

function checkInsOf(db: Kysely<DB>, businessId: string, eventId: string, query: Pick<CheckInQuery, 'search'>) {
  let q = db
    .selectFrom('event_check_ins as c')
    .innerJoin('receivers as r', (join) => join.onRef('r.business_id', '=', 'c.business_id').onRef('r.id', '=', 'c.receiver_id'))
    .where('c.business_id', '=', businessId)
    .where('c.event_id', '=', eventId);
  if (query.search) {
    q = q.where(
      sql<boolean>`(strpos(lower(r.first_name || ' ' || r.last_name), lower(${query.search})) > 0 OR strpos(lower(r.email), lower(${query.search})) > 0)`,
    );
  }
  return q;
}

function checkInOrder(query: CheckInQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  return query.sortBy === 'name' ? sql`lower(r.first_name || ' ' || r.last_name) ${dir}, r.id ${dir}` : sql`c.checked_in_at ${dir}, r.id ${dir}`;
}

const CHECK_IN_COLUMNS = [
  'c.receiver_id',
  'r.first_name',
  'r.last_name',
  'r.email',
  'r.verification',
  'r.added_via',
  'r.reviewed_at',
  'c.checked_in_at',
  'c.payout_id',
] as const;

function toCheckIn(row: {
  receiver_id: string;
  first_name: string;
  last_name: string;
  email: string;
  verification: 'unverified' | 'verified';
  added_via: 'team' | 'check_in';
  reviewed_at: Date | null;
  checked_in_at: Date;
  payout_id: string | null;
}): EventCheckIn {
  return {
    receiverId: row.receiver_id,
    receiverName: `${row.first_name} ${row.last_name}`,
    email: row.email,
    verification: row.verification,
    checkedInAt: row.checked_in_at.toISOString(),
    payoutId: row.payout_id,
    addedVia: row.added_via,
    receiverReviewed: row.reviewed_at !== null,
  };
}

export async function listCheckIns(ctx: EventContext, { business, eventId, query }: { business: ScopedBusiness; eventId: string; query: CheckInQuery }) {
  const event = await selectEvent(ctx.db, business.id, eventId);
  const base = checkInsOf(ctx.db, business.id, eventId, query);
  const [rows, count] = await Promise.all([
    base
      .select(CHECK_IN_COLUMNS)
      .orderBy(checkInOrder(query))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const unreviewed = await ctx.db
    .selectFrom('event_check_ins as c')
    .innerJoin('receivers as r', (join) => join.onRef('r.business_id', '=', 'c.business_id').onRef('r.id', '=', 'c.receiver_id'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('c.business_id', '=', business.id)
    .where('c.event_id', '=', eventId)
    .where('r.reviewed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    event: { ...toEvent(event, ctx.publicUrl), unreviewedCheckInsCount: Number(unreviewed.n) },
    items: rows.map(toCheckIn),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(count.n),
  };
}

export async function* exportCheckIns(
  ctx: EventContext,
  { business, eventId, query }: { business: ScopedBusiness; eventId: string; query: CheckInQuery },
): AsyncGenerator<string> {
  const event = await selectEvent(ctx.db, business.id, eventId);
  const rows = await checkInsOf(ctx.db, business.id, eventId, query).select(CHECK_IN_COLUMNS).orderBy(checkInOrder(query)).execute();
  yield '\ufeff' + csvRow(['Event', 'Receiver', 'E-mail', 'Verification', 'Reviewed', 'Checked in', 'Payout']) + '\r\n';
  for (const row of rows) {
    const c = toCheckIn(row);
    yield (
      csvRow([
        event.name,
        c.receiverName,
        c.email,
        RECEIVER_VERIFICATION_LABELS[c.verification],
        c.receiverReviewed ? 'Yes' : RECEIVER_REVIEW_LABELS[c.addedVia],
        formatDateTime(row.checked_in_at, business.timeZone),
        c.payoutId ?? '',
      ]) + '\r\n'
    );
  }
}
