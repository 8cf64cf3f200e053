import { sql, type Kysely, type Transaction } from 'kysely';
import { addDays, ErrorCode, programCharge, formatDay, type BillingPeriod, type BillingRunOutcome } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import { businessForJob } from '../batches/check-batch';
import { createStudentBillingBatch, type StudentBillingLine } from '../batches/student-billing-batch';
import { submitBatch } from '../batches/submit-batch';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { billedAlready } from '../students/charges';
import { auditActor, loadCycle, loadRun, scheduleOf, selectCycle, type CycleRow, type RunRow } from './cycle-record';
import { currentPeriod, dueDateOf, nextRunFrom, periodOfRun } from './schedule';

export interface RunDeps {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
}

/** Who a run acts as: the person who pressed Run now, or (on schedule) the cycle's creator. */
interface RunUser {
  userId: string;
  email: string;
  ip?: string | undefined;
}

/** A run's batch waiting to be submitted (its cycle says so) after the run's transaction commits. */
interface PendingSubmit {
  runId: string;
  batchId: string;
  user: RunUser;
}

/** A run still `Running` this long after it was made lost its submit (the process died): the job submits it. */
const STALLED_SUBMIT_MS = 60_000;

/** Who a scheduled run acts as: the cycle's creator, or the business's owner when the creator is gone. */
async function runUserOf(db: Kysely<DB> | Transaction<DB>, cycle: Pick<CycleRow, 'business_id' | 'created_by'>): Promise<RunUser> {
  if (cycle.created_by) {
    const member = await db
      .selectFrom('business_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email'])
      .where('m.business_id', '=', cycle.business_id)
      .where('m.user_id', '=', cycle.created_by)
      .executeTakeFirst();
    if (member) return { userId: member.id, email: member.email };
  }
  const owner = await db
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email'])
    .where('m.business_id', '=', cycle.business_id)
    .where('m.role', '=', 'owner')
    .orderBy('u.id')
    .executeTakeFirstOrThrow();
  return { userId: owner.id, email: owner.email };
}

/**
 * What a run bills: one line per enrollment of the cycle's active programs that overlaps the
 * period (an active one, or one withdrawn inside it), of an active student, not yet charged for the
 * period (a one-time program: not charged ever). The amount is the program's fee for the days of
 * the period the enrollment covers within the program's own dates, prorated when the program says
 * so; nothing (no line) when that is 0.
 */
export async function linesFor(
  trx: Transaction<DB>,
  businessId: string,
  programIds: string[],
  period: BillingPeriod,
  runDay: string,
): Promise<StudentBillingLine[]> {
  if (programIds.length === 0) return [];
  const rows = await trx
    .selectFrom('enrollments as e')
    .innerJoin('programs as p', (j) => j.onRef('p.business_id', '=', 'e.business_id').onRef('p.id', '=', 'e.program_id'))
    .innerJoin('students as s', (j) => j.onRef('s.business_id', '=', 'e.business_id').onRef('s.id', '=', 'e.student_id'))
    .select([
      'e.id',
      'e.student_id',
      'e.program_id',
      'e.start_date',
      'e.end_date',
      'p.name',
      'p.fee_cents',
      'p.prorate',
      'p.frequency',
      'p.start_date as program_start',
      'p.end_date as program_end',
    ])
    .where('e.business_id', '=', businessId)
    .where('e.program_id', 'in', programIds)
    .where('p.status', '=', 'active')
    .where('s.status', '=', 'active')
    .where('e.start_date', '<=', period.end)
    .where((eb) => eb.or([eb('e.end_date', 'is', null), eb('e.end_date', '>=', period.start)]))
    .where((eb) => eb.or([eb('e.status', '=', 'active'), eb('e.end_date', 'is not', null)]))
    .orderBy(sql`lower(s.last_name), lower(s.first_name), s.id, lower(p.name)`)
    .execute();
  // Billed once (ADR 036): days of a student and program that any request billed already are left out.
  const billed = await billedAlready(
    trx,
    businessId,
    rows.map((r) => ({ studentId: r.student_id, programId: r.program_id, start: period.start, end: period.end, oneTime: r.frequency === 'one_time' })),
  );
  const lines: StudentBillingLine[] = [];
  for (const [i, r] of rows.entries()) {
    if (billed[i]) continue;
    // Only the days both the enrollment and the program run; a one-time program in full, once.
    const { amountCents } = programCharge(
      { feeCents: Number(r.fee_cents), frequency: r.frequency, prorate: r.prorate, startDate: r.program_start, endDate: r.program_end },
      period,
      { start: r.start_date, end: r.end_date },
    );
    if (amountCents <= 0) continue;
    lines.push({
      studentId: r.student_id,
      programId: r.program_id,
      enrollmentId: r.id,
      amountCents,
      period: { start: period.start, end: period.end, label: period.label },
      memo: `${r.name} — ${period.label}`.slice(0, 500),
      dueDate: dueDateOf(period, runDay),
      billTo: 'guardian',
    });
  }
  return lines;
}

/**
 * One run of a cycle for one period, in the caller's transaction: its row first (unique per cycle
 * and period: a second run, worker or restart gets nothing back and makes nothing), then its
 * batch in review. Null when the period was run already.
 */
async function makeRun(
  trx: Transaction<DB>,
  business: ScopedBusiness,
  cycle: CycleRow,
  period: BillingPeriod,
  { runDay, trigger, user, actor }: { runDay: string; trigger: 'schedule' | 'manual'; user: RunUser; actor: Actor },
): Promise<{ run: RunRow; pending: PendingSubmit | null } | null> {
  const runId = newId('bcr');
  const inserted = await trx
    .insertInto('billing_cycle_runs')
    .values({
      business_id: business.id,
      id: runId,
      cycle_id: cycle.id,
      period_start: period.start,
      period_end: period.end,
      period_label: period.label,
      trigger,
      error: null,
      started_by: trigger === 'manual' ? user.email : null,
      finished_at: null,
    })
    .onConflict((oc) => oc.columns(['business_id', 'cycle_id', 'period_start']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  const lines = await linesFor(trx, business.id, cycle.program_ids, period, runDay);
  let pending: PendingSubmit | null = null;
  let update: {
    state: RunRow['state'];
    batch_id: string | null;
    requests_count: number;
    total_cents: number;
    finished_at: Date | null;
    error?: string | null;
  };
  if (lines.length === 0) {
    update = { state: 'Empty', batch_id: null, requests_count: 0, total_cents: 0, finished_at: new Date() };
  } else {
    const batch = await createStudentBillingBatch(trx, business, {
      lines,
      fileName: `${cycle.name} — ${period.label}.csv`,
      billingRunId: runId,
      user: { userId: user.userId, email: user.email },
    });
    // Auto-submit sends a batch only when every row is good: a row with an error (a student without
    // a guardian) would otherwise be dropped without anyone seeing it. Such a batch waits in review.
    const submitNow = cycle.auto_submit && batch.valid > 0 && batch.invalid === 0;
    if (submitNow) pending = { runId, batchId: batch.batchId, user };
    const held =
      cycle.auto_submit && batch.invalid > 0
        ? `${batch.invalid} of ${batch.rows} ${batch.rows === 1 ? 'row' : 'rows'} ${batch.invalid === 1 ? 'has' : 'have'} errors, so the batch waits in review instead of being submitted. Fix or skip ${batch.invalid === 1 ? 'it' : 'them'} there, then submit.`
        : null;
    update = {
      state: submitNow ? 'Running' : held ? 'Error' : 'Drafted',
      batch_id: batch.batchId,
      requests_count: batch.valid,
      total_cents: batch.totalCents,
      finished_at: submitNow ? null : new Date(),
      error: held,
    };
  }
  const run = await trx
    .updateTable('billing_cycle_runs')
    .set(update)
    .where('business_id', '=', business.id)
    .where('id', '=', runId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    businessId: business.id,
    actor,
    action: 'billing_cycle.run',
    details: {
      cycleId: cycle.id,
      runId,
      period: period.label,
      periodStart: period.start,
      trigger,
      state: run.state,
      batchId: run.batch_id,
      requests: run.requests_count,
      totalCents: Number(run.total_cents),
    },
  });
  return { run, pending };
}

/** The first days of the periods the cycle has run. */
async function ranStarts(trx: Transaction<DB>, businessId: string, cycleId: string): Promise<Set<string>> {
  const rows = await trx
    .selectFrom('billing_cycle_runs')
    .select('period_start')
    .where('business_id', '=', businessId)
    .where('cycle_id', '=', cycleId)
    .execute();
  return new Set(rows.map((r) => r.period_start));
}

/**
 * Submits a run's batch through the engine's own submit, as the cycle's creator (or the person who
 * pressed Run now) would. A batch someone (or another worker) submitted meanwhile counts as done;
 * a refusal leaves the batch in review and the run says why (`Error`).
 */
async function submitRun(deps: RunDeps, business: ScopedBusiness, pending: PendingSubmit): Promise<void> {
  const { db } = deps;
  let error: string | null = null;
  try {
    await submitBatch({ db, jobs: deps.jobs, business, batchId: pending.batchId, user: pending.user, body: { mode: 'send' } });
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const batch = await db.selectFrom('batches').select('state').where('business_id', '=', business.id).where('id', '=', pending.batchId).executeTakeFirst();
  const submitted = batch !== undefined && batch.state !== 'Draft';
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('billing_cycle_runs')
      .set(
        submitted
          ? { state: 'Submitted', error: null, finished_at: new Date() }
          : { state: 'Error', error: error ?? 'The batch could not be submitted.', finished_at: new Date() },
      )
      .where('business_id', '=', business.id)
      .where('id', '=', pending.runId)
      .where('state', '=', 'Running')
      .returning('cycle_id')
      .executeTakeFirst();
    if (updated && !submitted) {
      await recordEvent(trx, {
        businessId: business.id,
        actor: { userId: pending.user.userId, label: pending.user.email },
        action: 'billing_cycle.run_submit_failed',
        details: { cycleId: updated.cycle_id, runId: pending.runId, batchId: pending.batchId, error },
      });
    }
  });
}

function alreadyBilled(cycle: CycleRow, run: Pick<RunRow, 'id' | 'period_label' | 'created_at'>, timeZone: string): AppError {
  return new AppError(
    ErrorCode.Conflict,
    `${run.period_label} was billed by this cycle on ${formatDay(todayIn(timeZone, run.created_at))} (run ${run.id}). ${cycle.name} bills each period once.`,
  );
}

/**
 * POST …/billing-cycles/:cycleId/run (Run now): bills the current period — the one holding the
 * business's today; for a term or custom cycle between periods, the next one. 409 when the cycle
 * billed it already (a run that found no one to bill is replaced). When the scheduled run was to
 * bill that same period, the schedule moves on.
 */
export async function runBillingCycleNow(
  deps: RunDeps,
  { business, user, cycleId, now = new Date() }: { business: ScopedBusiness; user: ActingUser; cycleId: string; now?: Date },
): Promise<BillingRunOutcome> {
  const { db } = deps;
  const made = await db.transaction().execute(async (trx) => {
    const cycle = await selectCycle(trx, business.id, cycleId, { lock: true });
    if (cycle.status !== 'active') throw new AppError(ErrorCode.Conflict, `${cycle.name} is deactivated. Activate it to run it.`);
    const today = todayIn(business.timeZone, now);
    const schedule = scheduleOf(cycle);
    const period = currentPeriod(schedule, today);
    if (!period) throw new AppError(ErrorCode.Conflict, `Every period of ${cycle.name} has ended. Add a period to bill.`);
    const earlier = await trx
      .selectFrom('billing_cycle_runs')
      .select(['id', 'period_label', 'created_at', 'state'])
      .where('business_id', '=', business.id)
      .where('cycle_id', '=', cycleId)
      .where('period_start', '=', period.start)
      .executeTakeFirst();
    // A run that found no one to bill billed nothing: Run now replaces it (students enrolled since are billed).
    if (earlier && earlier.state !== 'Empty') throw alreadyBilled(cycle, earlier, business.timeZone);
    if (earlier) await trx.deleteFrom('billing_cycle_runs').where('business_id', '=', business.id).where('id', '=', earlier.id).execute();
    const result = await makeRun(trx, business, cycle, period, { runDay: today, trigger: 'manual', user, actor: auditActor(user) });
    if (!result) throw new AppError(ErrorCode.Conflict, `${period.label} was billed by this cycle already.`);
    const scheduled = cycle.next_run_on ? periodOfRun(schedule, cycle.next_run_on) : null;
    const nextRunOn =
      scheduled && scheduled.start === period.start
        ? nextRunFrom(schedule, addDays(cycle.next_run_on!, 1), await ranStarts(trx, business.id, cycleId))
        : cycle.next_run_on;
    await trx
      .updateTable('billing_cycles')
      .set({ next_run_on: nextRunOn, last_run_at: new Date(), updated_at: new Date() })
      .where('business_id', '=', business.id)
      .where('id', '=', cycleId)
      .execute();
    return result;
  });
  if (made.pending) await submitRun(deps, business, made.pending);
  return { run: await loadRun(db, business.id, made.run.id), cycle: await loadCycle(db, business.id, cycleId) };
}

/**
 * Runs every period of one cycle whose run day has come in the business's time zone, oldest
 * first (a run missed while the server was down happens when it is back). Each period is one
 * transaction holding the cycle's row: its run, its batch and the next run day commit together.
 */
async function runDueCycle(deps: RunDeps, business: ScopedBusiness, cycleId: string, now: Date): Promise<number> {
  let runs = 0;
  // A cycle years behind stops after 240 periods in one tick; the next tick goes on.
  for (let guard = 0; guard < 240; guard++) {
    const step = await deps.db.transaction().execute(async (trx) => {
      const cycle = await trx
        .selectFrom('billing_cycles')
        .selectAll()
        .where('business_id', '=', business.id)
        .where('id', '=', cycleId)
        .forUpdate()
        .executeTakeFirst();
      const today = todayIn(business.timeZone, now);
      if (!cycle || cycle.status !== 'active' || cycle.next_run_on === null || cycle.next_run_on > today) return null;
      const schedule = scheduleOf(cycle);
      const runDay = cycle.next_run_on;
      const period = periodOfRun(schedule, runDay);
      const user = await runUserOf(trx, cycle);
      const result = period
        ? await makeRun(trx, business, cycle, period, {
            runDay: today,
            trigger: 'schedule',
            user,
            actor: { userId: null, label: `billing cycle ${cycle.name}` },
          })
        : null;
      const nextRunOn = nextRunFrom(schedule, addDays(runDay, 1), await ranStarts(trx, business.id, cycleId));
      await trx
        .updateTable('billing_cycles')
        .set({ next_run_on: nextRunOn, ...(result ? { last_run_at: new Date() } : {}), updated_at: new Date() })
        .where('business_id', '=', business.id)
        .where('id', '=', cycleId)
        .execute();
      return { made: result !== null, pending: result?.pending ?? null };
    });
    if (!step) break;
    if (step.made) runs++;
    if (step.pending) await submitRun(deps, business, step.pending);
  }
  return runs;
}

/**
 * The `billing-cycles.run` job (every minute): runs each active cycle of an approved
 * student-template business whose next run day has come in the business's own time zone (its
 * midnight), catching up every missed period in order; then submits the batches of auto-submit
 * runs whose process died before it could. Running it twice, or on two workers at once, bills
 * nothing twice. Returns how many runs it made.
 */
export async function runDueBillingCycles(deps: RunDeps, now = new Date()): Promise<number> {
  const { db } = deps;
  // No time zone is more than a day ahead of UTC: the index finds the candidates, each business's own day decides.
  const horizon = addDays(now.toISOString().slice(0, 10), 1);
  const due = await db
    .selectFrom('billing_cycles as c')
    .innerJoin('businesses as b', 'b.id', 'c.business_id')
    .select(['c.business_id', 'c.id', 'c.next_run_on', 'b.time_zone'])
    .where('c.status', '=', 'active')
    .where('c.next_run_on', 'is not', null)
    .where('c.next_run_on', '<=', horizon)
    .where('b.state', '=', 'Approved')
    .where('b.entity_type', '=', 'student')
    .orderBy('c.next_run_on')
    .orderBy('c.id')
    .execute();
  let runs = 0;
  const businesses = new Map<string, ScopedBusiness | null>();
  // One cycle that fails (its transaction undone) does not hold up the others; the job reports it and the next tick tries again.
  const failures: unknown[] = [];
  for (const cycle of due) {
    if (cycle.next_run_on! > todayIn(cycle.time_zone, now)) continue;
    try {
      if (!businesses.has(cycle.business_id)) businesses.set(cycle.business_id, await businessForJob(db, cycle.business_id));
      const business = businesses.get(cycle.business_id);
      if (!business) continue;
      runs += await runDueCycle(deps, business, cycle.id, now);
    } catch (error) {
      failures.push(error);
    }
  }
  try {
    await resumeSubmits(deps, now);
  } catch (error) {
    failures.push(error);
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} billing cycle runs failed; the next tick tries them again.`);
  return runs;
}

/** Auto-submit runs left `Running` by a process that died between making the batch and submitting it. */
async function resumeSubmits(deps: RunDeps, now: Date): Promise<void> {
  const stalled = await deps.db
    .selectFrom('billing_cycle_runs as r')
    .innerJoin('billing_cycles as c', (j) => j.onRef('c.business_id', '=', 'r.business_id').onRef('c.id', '=', 'r.cycle_id'))
    .select(['r.business_id', 'r.id', 'r.batch_id', 'r.trigger', 'r.started_by', 'c.created_by'])
    .where('r.state', '=', 'Running')
    .where('r.batch_id', 'is not', null)
    .where('r.created_at', '<', new Date(now.getTime() - STALLED_SUBMIT_MS))
    .execute();
  for (const run of stalled) {
    const business = await businessForJob(deps.db, run.business_id);
    // A business disabled meanwhile sends nothing: its run waits until it is approved again.
    if (!business || business.state !== 'Approved') continue;
    const user = await runUserOf(deps.db, { business_id: run.business_id, created_by: run.created_by });
    await submitRun(deps, business, { runId: run.id, batchId: run.batch_id!, user });
  }
}
