import { sql, type Kysely } from 'kysely';
import { ErrorCode, formatDay, type Batch, type BatchSubmitBody } from '@tay/contract';
import { jobDb, type Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { RequestContext } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import type { BatchRunDeps, SendOutcome } from './batch-kind';
import { assertDraft, BATCH_KIND_DEFINITIONS, duplicateOf, lockBatch, recordBatchEvent, recount, toBatch } from './batch-record';
import { businessForJob } from './check-batch';

/** Valid rows sent per transaction: each chunk's requests, messages and row outcomes commit together. */
export const SEND_CHUNK = 500;

/** A run (check or send) whose heartbeat is older than this is taken as dead and started again. */
export const STALLED_AFTER_SECONDS = 30;

/**
 * POST …/batches/:batchId/submit: a checked Draft becomes Submitted and its sending is queued
 * (`batches.send`), both in one transaction. The batch row is locked first, so of two submits at
 * once the second finds it Submitted and is refused (409): a batch is sent once.
 */
export async function submitBatch({
  db,
  jobs,
  business,
  batchId,
  user,
  body,
}: {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  business: ScopedBusiness;
  batchId: string;
  user: { userId: string; email: string; ip?: string | undefined };
  body: { mode: BatchSubmitBody['mode']; sendAt?: string | null | undefined };
}): Promise<Batch> {
  return db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, business.id, batchId);
    assertDraft(batch, 'it cannot be submitted again');
    if (batch.phase !== 'validated') {
      throw new AppError(
        ErrorCode.Conflict,
        batch.phase === 'uploaded'
          ? 'Map the columns of the file and check its rows first.'
          : 'The rows of this batch are still being checked. Wait for the check to finish.',
      );
    }
    if (batch.valid_count === 0)
      throw AppError.validation('No row of this batch is valid, so there is nothing to send. Fix or drop the rows with errors first.');
    let sendAt: Date | null = null;
    if (body.mode === 'schedule') {
      sendAt = new Date(body.sendAt!);
      if (sendAt.getTime() <= Date.now()) throw AppError.validation('The send time must be in the future.', { sendAt: 'Choose a time in the future.' });
      // Rows whose link would have expired by then would only fail: say so now.
      const sendDay = todayIn(business.timeZone, sendAt);
      const expiring = await trx
        .selectFrom('batch_rows')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('line').as('first')])
        .where('business_id', '=', business.id)
        .where('batch_id', '=', batchId)
        .where('status', '=', 'valid')
        .where(sql<boolean>`plan ->> 'expiresOn' < ${sendDay}`)
        .executeTakeFirstOrThrow();
      if (Number(expiring.n) > 0) {
        const n = Number(expiring.n);
        throw AppError.validation(
          `${n === 1 ? 'One row expires' : `${n} rows expire`} before ${formatDay(sendDay)} (first: line ${String(expiring.first)}). Send earlier, or give them a later expiry date.`,
          { sendAt: 'Some requests would expire before this time.' },
        );
      }
    }
    const row = await trx
      .updateTable('batches')
      .set({
        state: 'Submitted',
        // A scheduled batch waits, checked, until its time (`batches.send` starts after it).
        phase: sendAt ? 'validated' : 'sending',
        send_mode: body.mode,
        send_at: sendAt,
        submitted_at: new Date(),
        submitted_by_user_id: user.userId,
        submitted_by: user.email,
        progress_done: 0,
        progress_total: batch.valid_count,
        heartbeat_at: sendAt ? null : new Date(),
        updated_at: new Date(),
      })
      .where('business_id', '=', business.id)
      .where('id', '=', batchId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordBatchEvent(trx, business.id, user, 'batch.submitted', {
      batchId,
      kind: batch.kind,
      fileName: batch.file_name,
      rows: batch.valid_count,
      totalCents: Number(batch.total_cents),
      mode: body.mode,
      ...(sendAt ? { sendAt: sendAt.toISOString() } : {}),
    });
    await jobs.send('batches.send', { businessId: business.id, batchId }, { db: jobDb(trx), ...(sendAt ? { startAfter: sendAt } : {}) });
    return toBatch(row, await duplicateOf(trx, row));
  });
}

/**
 * POST …/batches/:batchId/unschedule: a scheduled batch whose time has not come goes back to
 * review (Draft). Its queued start finds it Draft and does nothing; nothing was sent.
 */
export async function unscheduleBatch({
  db,
  business,
  batchId,
  user,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  batchId: string;
  user: { userId: string; email: string; ip?: string | undefined };
}): Promise<Batch> {
  return db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, business.id, batchId);
    if (batch.state !== 'Submitted' || batch.phase !== 'validated' || !batch.send_at) {
      throw new AppError(
        ErrorCode.Conflict,
        batch.state === 'Draft' ? 'This batch is not scheduled.' : 'This batch has started sending, so it cannot be taken back.',
      );
    }
    const row = await trx
      .updateTable('batches')
      .set({
        state: 'Draft',
        send_mode: null,
        send_at: null,
        submitted_at: null,
        submitted_by_user_id: null,
        submitted_by: null,
        progress_total: 0,
        updated_at: new Date(),
      })
      .where('business_id', '=', business.id)
      .where('id', '=', batchId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordBatchEvent(trx, business.id, user, 'batch.unscheduled', { batchId, fileName: batch.file_name, sendAt: batch.send_at.toISOString() });
    return toBatch(row, await duplicateOf(trx, row));
  });
}

/**
 * Stores what sending a chunk did, row by row, in one statement, and gives the chunk's counts
 * from the rows it changed: no second read of the batch's rows, which (without statistics on a new
 * batch's rows) could be planned as a walk of all of them for every chunk.
 */
async function recordOutcomes(
  trx: Executor,
  businessId: string,
  batchId: string,
  outcomes: SendOutcome[],
): Promise<{ sent: number; failed: number; sentCents: number }> {
  // Each line's request or reason as JSON objects, and the update by the chunk's lines alone: a
  // join to a set of rows could be planned as a walk of every valid row of the batch per chunk.
  const requests: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const o of outcomes) {
    if ('requestId' in o) requests[o.line] = o.requestId;
    else errors[o.line] = o.error;
  }
  const made = JSON.stringify(requests);
  const changed = await sql<{ status: string; amount_cents: string | number | null }>`
    UPDATE batch_rows r SET
      status = CASE WHEN ${made}::jsonb ? r.line::text THEN 'sent' ELSE 'failed' END,
      request_id = ${made}::jsonb ->> r.line::text,
      errors = CASE WHEN ${made}::jsonb ? r.line::text THEN '{}'::jsonb ELSE jsonb_build_object('row', ${JSON.stringify(errors)}::jsonb ->> r.line::text) END
    WHERE r.business_id = ${businessId} AND r.batch_id = ${batchId} AND r.line = ANY(${outcomes.map((o) => o.line)}::int[]) AND r.status = 'valid'
    RETURNING r.status, r.amount_cents`.execute(trx);
  let sent = 0;
  let failed = 0;
  let sentCents = 0;
  for (const row of changed.rows) {
    if (row.status === 'sent') {
      sent += 1;
      sentCents += Number(row.amount_cents ?? 0);
    } else failed += 1;
  }
  return { sent, failed, sentCents };
}

/**
 * A chunk of a kind sent in groups, with the rest of its groups: every other valid row whose
 * plan's `group` is one the chunk reaches (far apart in the file, beyond the chunk's limit), locked
 * too, in file order. A row without a group is its own.
 */
async function wholeGroups(trx: Executor, businessId: string, batchId: string, rows: { line: number; plan: unknown }[]) {
  const groupOf = (plan: unknown) => (plan && typeof plan === 'object' && 'group' in plan ? String(plan.group) : null);
  const groups = [...new Set(rows.map((r) => groupOf(r.plan)).filter((g): g is string => g !== null))];
  if (groups.length === 0) return rows;
  const more = await trx
    .selectFrom('batch_rows')
    .select(['line', 'plan'])
    .where('business_id', '=', businessId)
    .where('batch_id', '=', batchId)
    .where('status', '=', 'valid')
    .where(
      'line',
      'not in',
      rows.map((r) => r.line),
    )
    .where(sql<string>`plan ->> 'group'`, 'in', groups)
    .orderBy('line')
    .forUpdate()
    .execute();
  return [...rows, ...more].sort((a, b) => a.line - b.line);
}

/**
 * The `batches.send` job: the valid rows go a chunk at a time, each chunk in one transaction —
 * its rows locked (`SKIP LOCKED`: two runs share the work, never a row), their requests and
 * messages made, and the rows marked with what they made. A crash undoes the chunk under way
 * and nothing else, so the next run (the queue's retry, or `resumeBatches`) sends each row
 * exactly once. The batch is Processed when every row went, Error when some failed.
 */
export async function sendBatch(ctx: RequestContext, { businessId, batchId }: { businessId: string; batchId: string }, deps?: BatchRunDeps): Promise<void> {
  const { db } = ctx;
  const found = await db.selectFrom('batches').selectAll().where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirst();
  if (!found || found.state !== 'Submitted') return;
  // A scheduled batch starts sending once its time has come (a run before it changes nothing).
  if (found.phase === 'validated' && (!found.send_at || found.send_at.getTime() > Date.now())) return;
  const started = await db
    .updateTable('batches')
    .set({ phase: 'sending', heartbeat_at: new Date(), updated_at: new Date() })
    .where('business_id', '=', businessId)
    .where('id', '=', batchId)
    .where('state', '=', 'Submitted')
    .where('phase', 'in', ['validated', 'sending'])
    // Read again here: a batch unscheduled and scheduled later meanwhile waits for its new time.
    .where((eb) => eb.or([eb('send_at', 'is', null), eb('send_at', '<=', new Date())]))
    .returningAll()
    .executeTakeFirst();
  if (!started) return;
  const batch = started;
  const business = await businessForJob(db, businessId);
  if (!business) return;
  const def = BATCH_KIND_DEFINITIONS[batch.kind];
  const user = { userId: batch.submitted_by_user_id!, email: batch.submitted_by! };
  for (;;) {
    const sent = await db.transaction().execute(async (trx) => {
      // A kind sent in groups: one chunk at a time (a second run waits here, then finds the rows
      // sent), so no other run holds a row of a group this chunk reaches.
      if (def.groups) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`batches.send:${businessId}:${batchId}`}, 0))`.execute(trx);
      let rows = await trx
        .selectFrom('batch_rows')
        .select(['line', 'plan'])
        .where('business_id', '=', businessId)
        .where('batch_id', '=', batchId)
        .where('status', '=', 'valid')
        .orderBy('line')
        .limit(SEND_CHUNK)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return 0;
      if (def.groups) rows = await wholeGroups(trx, businessId, batchId, rows);
      const outcomes =
        business.state === 'Approved'
          ? await def.sendRows({ ctx, trx, business, batchId, user, scheduledFor: batch.send_mode === 'schedule' ? batch.send_at : null }, rows)
          : rows.map((r) => ({ line: r.line, error: `The business is ${business.state}, so nothing more can be sent.` }));
      const c = await recordOutcomes(trx, businessId, batchId, outcomes);
      // The counts move with each chunk, in its transaction, so the review page's "Sent" and
      // "Failed" figures go up as the bar does (the final recount settles the groups).
      await sql`
        UPDATE batches b SET progress_done = b.progress_done + ${rows.length},
          sent_count = b.sent_count + ${c.sent}::int, failed_count = b.failed_count + ${c.failed}::int,
          valid_count = greatest(b.valid_count - ${c.sent + c.failed}::int, 0), sent_cents = b.sent_cents + ${c.sentCents}::bigint,
          heartbeat_at = now(), updated_at = now()
        WHERE b.business_id = ${businessId} AND b.id = ${batchId}`.execute(trx);
      return rows.length;
    });
    if (sent === 0) break;
  }
  const unsent = await db
    .selectFrom('batch_rows')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('batch_id', '=', batchId)
    .where('status', '=', 'valid')
    .executeTakeFirstOrThrow();
  // Rows another run holds are still under way: that run finishes the batch.
  if (Number(unsent.n) > 0) return;
  // Before the batch reads Processed, so whoever sees it done sees its payouts approved too. A crash
  // here leaves the batch sending: the resumed run finds nothing left to send and does this again,
  // which approves only what is still Submitted. Nothing moves that a person has not approved or
  // that the business's settings do not approve at once.
  if (deps && def.afterSend && business.state === 'Approved') await def.afterSend(ctx, deps, business, batchId, user);
  await db.transaction().execute(async (trx) => {
    await recount(trx, businessId, batchId);
    const finished = await sql`
      UPDATE batches SET phase = 'done', state = CASE WHEN failed_count > 0 THEN 'Error' ELSE 'Processed' END,
        processed_at = now(), heartbeat_at = NULL, updated_at = now()
      WHERE business_id = ${businessId} AND id = ${batchId} AND phase = 'sending'
      RETURNING id`.execute(trx);
    // The payers the file added (a bulk request's new payers, a student file's guardians): one
    // entry in the audit trail, as an import of payers has, which each payer's history shows.
    // Once, by the run that finishes the batch.
    if (finished.rows.length === 0) return;
    const added = await trx
      .selectFrom('payers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', businessId)
      .where('import_batch_id', '=', batchId)
      .executeTakeFirstOrThrow();
    if (Number(added.n) > 0) {
      await recordEvent(trx, {
        businessId,
        actor: { userId: user.userId, label: user.email },
        action: 'payers.imported',
        details: { batchId, fileName: batch.file_name, added: Number(added.n) },
      });
    }
  });
}

/**
 * The `batches.resume` job (every minute, and when a worker starts): a check or a send whose
 * heartbeat stopped (its process died) is queued again. Running one twice is harmless.
 */
export async function resumeBatches(db: Kysely<DB>, jobs: Pick<Jobs, 'send'>, now = new Date()): Promise<number> {
  const stale = new Date(now.getTime() - STALLED_AFTER_SECONDS * 1000);
  const stalled = await db
    .selectFrom('batches')
    .select(['business_id', 'id', 'phase', 'mapping_version'])
    .where((eb) =>
      eb.or([
        eb.and([eb('phase', 'in', ['validating', 'sending']), eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', stale)])]),
        // A scheduled batch whose time has passed and whose start was missed.
        eb.and([eb('state', '=', 'Submitted'), eb('phase', '=', 'validated'), eb('send_at', '<', stale)]),
      ]),
    )
    .limit(100)
    .execute();
  for (const b of stalled) {
    if (b.phase === 'sending' || b.phase === 'validated') await jobs.send('batches.send', { businessId: b.business_id, batchId: b.id });
    else await jobs.send('batches.check', { businessId: b.business_id, batchId: b.id, version: b.mapping_version });
  }
  return stalled.length;
}
