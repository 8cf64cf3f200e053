import { sql, type Kysely, type RawBuilder } from 'kysely';
import { formatDay, MAX_REMINDER_OFFSET_DAYS, type RequestTimelineEvent } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/executor';
import { authSecretsOf } from '../../lib/secret-box';
import type { RequestContext } from './request-context';
import { addDays, payLink, payToken, payTokenHash, sentPayToken } from './request-record';
import { issueLinkAndMessage, messagePayer, withCurrentPayer } from './send-request-email';
import { recordRequestEvent, SYSTEM, transitionRequest } from './transition';

/**
 * How much one run of a job may do: it walks the due rows in a stable order, `batchSize` at a
 * time, and stops after `maxBatches`; the next run (cron) carries on where the work remains.
 */
export interface BatchLimits {
  batchSize: number;
  maxBatches: number;
}

export const DEFAULT_LIMITS: BatchLimits = { batchSize: 200, maxBatches: 25 };

/** The timeline event that says why a due scheduled request was not sent. */
export const SEND_HELD_EVENT = 'sendHeld' satisfies RequestTimelineEvent;

/** Today's date in the business's time zone, as SQL (`b` is the business). */
function todayOf(now: Date): RawBuilder<string> {
  return sql<string>`(${now}::timestamptz AT TIME ZONE b.time_zone)::date`;
}

/**
 * Tomorrow in UTC: no time zone's today is later (UTC+14 is at most one calendar day ahead). A
 * bound on a date column that the jobs' indexes can walk to, whatever each business's zone.
 */
function latestTodayAnywhere(now: Date): string {
  return addDays(now.toISOString().slice(0, 10), 1);
}

/** A key that orders due rows and lets the next batch start after the last one. */
interface Cursor {
  key: string;
  business_id: string;
  id: string;
}

/**
 * Walks the rows `candidates` returns (ordered by key, business, id; at most `limit`, after the
 * cursor) batch by batch and hands each to `handle`, which runs in its own transaction so one
 * failure neither undoes nor blocks the others. A failed row is passed over until the next run;
 * the failures are thrown together at the end so the job is reported as failed.
 */
async function walk(
  limits: BatchLimits,
  what: string,
  candidates: (after: Cursor | null, limit: number) => Promise<Cursor[]>,
  handle: (candidate: Cursor) => Promise<boolean>,
): Promise<number> {
  let done = 0;
  let after: Cursor | null = null;
  const failures: unknown[] = [];
  for (let batch = 0; batch < limits.maxBatches; batch++) {
    const rows = await candidates(after, limits.batchSize);
    for (const row of rows) {
      try {
        if (await handle(row)) done += 1;
      } catch (error) {
        failures.push(error);
      }
    }
    if (rows.length < limits.batchSize) break;
    after = rows.at(-1)!;
  }
  if (failures.length > 0) {
    throw new AggregateError(failures, `${what}: ${failures.length} request(s) failed and will be tried again on the next run; ${done} done.`);
  }
  return done;
}

function afterCursor(keyColumn: string, after: Cursor | null, keyType: 'timestamptz' | 'date') {
  if (!after) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(keyColumn)}, r.business_id, r.id) > (${after.key}::${sql.raw(keyType)}, ${after.business_id}, ${after.id})`;
}

/**
 * Pending requests that can go out now: their time has come, the business is Approved, the payer
 * is active, and they have not expired while held (docs/product.md §4: Pending ─(time)─▶ Sent). The state
 * is literal SQL to match the partial index the walk uses (migration 0011) in any plan.
 */
function sendable(db: Executor, now: Date) {
  return db
    .selectFrom('payment_requests as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'r.business_id').onRef('p.id', '=', 'r.payer_id'))
    .where(sql<boolean>`r.state = 'Pending'`)
    .where('r.send_at', '<=', now)
    .where('b.state', '=', 'Approved')
    .where('p.status', '=', 'active')
    .where(sql<boolean>`r.expires_on >= ${todayOf(now)}`);
}

/**
 * Scheduled requests whose time has come are sent (Pending → Sent), oldest first. Only rows that
 * can be sent are selected, so held ones never crowd out the rest; each is locked with SKIP
 * LOCKED and re-checked, so two workers never send one twice. Due requests that are held (the
 * business is not Approved, the payer is deactivated, or it expired meanwhile) stay Pending and
 * get one timeline entry saying why. Returns how many were sent.
 */
export async function sendScheduledRequests(ctx: RequestContext, now = new Date(), limits: BatchLimits = DEFAULT_LIMITS): Promise<number> {
  await noteHeldSends(ctx.db, now, limits.batchSize * limits.maxBatches);
  return walk(
    limits,
    'Scheduled sends',
    async (after, limit) =>
      sendable(ctx.db, now)
        .select([sql<string>`r.send_at::text`.as('key'), 'r.business_id', 'r.id'])
        .where(afterCursor('r.send_at', after, 'timestamptz'))
        .orderBy('r.send_at')
        .orderBy('r.business_id')
        .orderBy('r.id')
        .limit(limit)
        .execute(),
    ({ business_id, id }) =>
      ctx.db.transaction().execute(async (trx) => {
        const row = await sendable(trx, now)
          .selectAll('r')
          .select('b.business_name')
          .where('r.business_id', '=', business_id)
          .where('r.id', '=', id)
          .forUpdate('r')
          .skipLocked()
          .executeTakeFirst();
        // Taken by another worker, or no longer sendable since the batch was read.
        if (!row) return false;
        const { sentAt, how } = await issueLinkAndMessage(ctx, trx, row, row.business_name, 'request');
        await transitionRequest({
          db: trx,
          businessId: business_id,
          requestId: id,
          event: 'scheduledSend',
          from: 'Pending',
          to: 'Sent',
          actor: SYSTEM,
          set: { sent_at: sentAt, send_at: null },
          detail: `Scheduled send; ${how}`,
        });
        return true;
      }),
  );
}

/**
 * One timeline entry per reason for each due request that is held: recorded again only if the
 * reason changes or the request is edited after it. Set-based and bounded; rows already noted
 * drop out, so the next run reaches the rest.
 */
async function noteHeldSends(db: Kysely<DB>, now: Date, limit: number): Promise<void> {
  await sql`
    INSERT INTO payment_request_events (business_id, request_id, actor_type, actor_id, actor_label, event, from_state, to_state, detail)
    SELECT r.business_id, r.id, ${SYSTEM.type}, NULL, ${SYSTEM.label}, ${SEND_HELD_EVENT}, 'Pending', 'Pending', held.detail
    FROM payment_requests r
    JOIN businesses b ON b.id = r.business_id
    JOIN payers p ON p.business_id = r.business_id AND p.id = r.payer_id
    CROSS JOIN LATERAL (SELECT CASE
      WHEN b.state <> 'Approved' THEN
        'Not sent: this business is ' || b.state || ', so its scheduled requests are held. They go out once it is approved again, unless they have expired.'
      WHEN p.status <> 'active' THEN
        'Not sent: ' || p.display_name || ' (' || p.email || ') is deactivated. It goes out once you activate the payer again, unless it has expired by then (it expires on '
        || to_char(r.expires_on, 'Mon DD, YYYY') || '); or cancel it.'
      ELSE
        'Not sent: it was held past its expiry date (' || to_char(r.expires_on, 'Mon DD, YYYY') || '). Edit it with new dates to send it, or cancel it.'
      END AS detail) held
    WHERE r.state = 'Pending'
      AND r.send_at <= ${now}
      AND (b.state <> 'Approved' OR p.status <> 'active' OR r.expires_on < ${todayOf(now)})
      AND NOT EXISTS (
        SELECT 1 FROM payment_request_events e
        WHERE e.business_id = r.business_id AND e.request_id = r.id AND e.event = ${SEND_HELD_EVENT}
          AND e.detail = held.detail AND e.created_at >= r.updated_at)
    ORDER BY r.send_at, r.business_id, r.id
    LIMIT ${limit}`.execute(db);
}

/**
 * Open requests past their expiry in their business's time zone. The first date condition is
 * implied by the second and lets the index stop at the requests that have expired somewhere;
 * the state is literal SQL to match the partial index (migration 0011) in any plan.
 */
function expirable(db: Executor, now: Date) {
  return db
    .selectFrom('payment_requests as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .where(sql<boolean>`r.state IN ('Sent', 'Resent', 'Error')`)
    .where(sql<boolean>`r.expires_on < ${latestTodayAnywhere(now)}::date`)
    .where('b.auto_expire', '=', true)
    .where(sql<boolean>`r.expires_on < ${todayOf(now)}`);
}

/**
 * Open requests past their expiry date (in their business's time zone) become Expired, for
 * businesses that expire requests automatically. Returns how many.
 */
export async function expireRequests(ctx: RequestContext, now = new Date(), limits: BatchLimits = DEFAULT_LIMITS): Promise<number> {
  return walk(
    limits,
    'Expiry',
    async (after, limit) =>
      expirable(ctx.db, now)
        .select([sql<string>`r.expires_on::text`.as('key'), 'r.business_id', 'r.id'])
        .where(afterCursor('r.expires_on', after, 'date'))
        .orderBy('r.expires_on')
        .orderBy('r.business_id')
        .orderBy('r.id')
        .limit(limit)
        .execute(),
    ({ business_id, id }) =>
      ctx.db.transaction().execute(async (trx) => {
        const row = await expirable(trx, now)
          .selectAll('r')
          .where('r.business_id', '=', business_id)
          .where('r.id', '=', id)
          .forUpdate('r')
          .skipLocked()
          .executeTakeFirst();
        if (!row) return false;
        await transitionRequest({
          db: trx,
          businessId: business_id,
          requestId: id,
          event: 'expire',
          from: row.state,
          to: 'Expired',
          actor: SYSTEM,
          detail: `Not paid by ${formatDay(row.expires_on)}`,
        });
        return true;
      }),
  );
}

/**
 * The reminder step due now, as SQL: the latest day of the business's schedule (days from the
 * due date) that has come, and that is not before the day the request was last e-mailed — that
 * e-mail already said everything a reminder would. NULL when none is due.
 */
function dueStep(now: Date): RawBuilder<number | null> {
  return sql<number | null>`(
    SELECT max(s) FROM unnest(b.reminder_schedule) AS s
    WHERE s <= ${todayOf(now)} - r.due_date
      AND s >= (r.sent_at AT TIME ZONE b.time_zone)::date - r.due_date)`;
}

/**
 * The latest due date a reminder can be due for now, in any time zone: no step is more than
 * MAX_REMINDER_OFFSET_DAYS before the due date. The index walk stops there, so requests due
 * later are never read.
 */
function latestRemindableDueDate(now: Date): string {
  return addDays(latestTodayAnywhere(now), MAX_REMINDER_OFFSET_DAYS);
}

/**
 * Open requests due a reminder now, and the step that is due. The state and the other row
 * conditions of the partial index the walk uses (migration 0011) are literal SQL, so a plan made
 * for any parameters still matches the index.
 */
function remindable(db: Executor, now: Date) {
  return db
    .selectFrom('payment_requests as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'r.business_id').onRef('p.id', '=', 'r.payer_id'))
    .where(sql<boolean>`r.state IN ('Sent', 'Resent', 'PartiallyPaid', 'Error')`)
    .where('r.sent_at', 'is not', null)
    .where('r.pay_token_hash', 'is not', null)
    .where(sql<boolean>`r.due_date <= ${latestRemindableDueDate(now)}::date`)
    .where('b.auto_reminders', '=', true)
    .where('b.state', '=', 'Approved')
    .where('p.status', '=', 'active')
    .where(sql<boolean>`r.expires_on >= ${todayOf(now)}`)
    .where(sql<boolean>`${dueStep(now)} > coalesce(r.last_reminder_offset, -2147483648)`);
}

/**
 * Reminders on each business's schedule (days from the due date), for businesses that send them.
 * One reminder per step at most: the last step sent is kept on the request, and a request that
 * has had its step is no longer a candidate. The link in a reminder is the one already sent (it
 * is derived from the send time), so earlier e-mails keep working.
 */
export async function sendReminders(ctx: RequestContext, now = new Date(), limits: BatchLimits = DEFAULT_LIMITS): Promise<number> {
  return walk(
    limits,
    'Reminders',
    async (after, limit) =>
      remindable(ctx.db, now)
        .select([sql<string>`r.due_date::text`.as('key'), 'r.business_id', 'r.id'])
        .where(afterCursor('r.due_date', after, 'date'))
        .orderBy('r.due_date')
        .orderBy('r.business_id')
        .orderBy('r.id')
        .limit(limit)
        .execute(),
    ({ business_id, id }) =>
      ctx.db.transaction().execute(async (trx) => {
        const row = await remindable(trx, now)
          .selectAll('r')
          .select(['b.business_name', dueStep(now).as('step')])
          .where('r.business_id', '=', business_id)
          .where('r.id', '=', id)
          .forUpdate('r')
          .skipLocked()
          .executeTakeFirst();
        if (!row || row.step === null || !row.sent_at) return false;
        const step = Number(row.step);
        // The link already sent, made again; if the secret that made it is no longer configured
        // (ADR 018), a new one under the current secret, which replaces it.
        const sent = row.pay_token_hash ? sentPayToken(authSecretsOf(ctx), row.id, row.sent_at, row.pay_token_hash) : null;
        const token = sent ?? payToken(ctx.authSecret, row.id, row.sent_at);
        const current = await withCurrentPayer(trx, row);
        const { how } = await messagePayer(ctx, trx, current, row.business_name, 'reminder', payLink(ctx.publicUrl, token));
        await trx
          .updateTable('payment_requests')
          .set({ last_reminder_offset: step, ...(sent ? {} : { pay_token_hash: payTokenHash(token) }) })
          .where('business_id', '=', business_id)
          .where('id', '=', id)
          .execute();
        const when = step === 0 ? 'on the due date' : step < 0 ? `${-step} day(s) before the due date` : `${step} day(s) after the due date`;
        const newLink = sent ? '' : ', with a new link: the secret that made the earlier one is no longer configured, so that link no longer opens';
        await recordRequestEvent({
          db: trx,
          businessId: business_id,
          requestId: id,
          actor: SYSTEM,
          event: 'reminder',
          from: row.state,
          to: row.state,
          detail: `Reminder ${how} ${when}${newLink}`,
        });
        return true;
      }),
  );
}
