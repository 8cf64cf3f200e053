import type { Selectable } from 'kysely';
import { billingCycleActions, type BillingCycle, type BillingCycleDetail, type BillingRun } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../businesses/audit';
import type { ActingUser } from '../payment-requests/request-context';
import { periodOfRun, type CycleSchedule } from './schedule';

export type CycleRow = Selectable<DB['billing_cycles']>;
export type RunRow = Selectable<DB['billing_cycle_runs']>;

/** Runs shown with a cycle (the rest: GET …/runs). */
export const RECENT_RUNS = 12;

export const auditActor = (user: ActingUser): Actor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

export function scheduleOf(row: Pick<CycleRow, 'schedule' | 'day_of_month' | 'periods'>): CycleSchedule {
  return { schedule: row.schedule, dayOfMonth: row.day_of_month, periods: row.periods };
}

export async function selectCycle(db: Executor, businessId: string, cycleId: string, { lock = false } = {}): Promise<CycleRow> {
  let q = db.selectFrom('billing_cycles').selectAll().where('business_id', '=', businessId).where('id', '=', cycleId);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw AppError.notFound('Billing cycle');
  return row;
}

type RunWithBatch = RunRow & {
  batch_state: string | null;
  batch_phase?: string | null;
  batch_sent_count?: number | null;
  batch_sent_cents?: number | string | null;
};

/**
 * A run as its summary shows it. Once its batch has gone out, what the run made is what the batch
 * sent: a run whose rows another run billed first (billed once, ADR 036) reports only its own.
 */
export function toRun(row: RunWithBatch): BillingRun {
  const sent = row.batch_phase === 'done';
  return {
    runId: row.id,
    cycleId: row.cycle_id,
    period: { start: row.period_start, end: row.period_end, label: row.period_label },
    state: row.state,
    requests: sent ? Number(row.batch_sent_count ?? 0) : Number(row.requests_count),
    totalCents: sent ? Number(row.batch_sent_cents ?? 0) : Number(row.total_cents),
    batchId: row.batch_id,
    batchState: row.batch_state,
    trigger: row.trigger,
    error: row.error,
    startedBy: row.started_by,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** Runs of the business's cycles with their batch's state, newest first. */
export function runsQuery(db: Executor, businessId: string) {
  return db
    .selectFrom('billing_cycle_runs as r')
    .leftJoin('batches as b', (join) => join.onRef('b.business_id', '=', 'r.business_id').onRef('b.id', '=', 'r.batch_id'))
    .selectAll('r')
    .select(['b.state as batch_state', 'b.phase as batch_phase', 'b.sent_count as batch_sent_count', 'b.sent_cents as batch_sent_cents'])
    .where('r.business_id', '=', businessId);
}

export async function loadRun(db: Executor, businessId: string, runId: string): Promise<BillingRun> {
  const row = await runsQuery(db, businessId).where('r.id', '=', runId).executeTakeFirstOrThrow();
  return toRun(row);
}

/** The cycles as the API shows them: their programs' names, run counts and last run, in a few queries. */
export async function toCycles(db: Executor, businessId: string, rows: CycleRow[]): Promise<BillingCycle[]> {
  if (rows.length === 0) return [];
  const programIds = [...new Set(rows.flatMap((r) => r.program_ids))];
  const cycleIds = rows.map((r) => r.id);
  const [programs, counts, lastRuns] = await Promise.all([
    programIds.length
      ? db.selectFrom('programs').select(['id', 'name', 'status']).where('business_id', '=', businessId).where('id', 'in', programIds).execute()
      : Promise.resolve([]),
    db
      .selectFrom('billing_cycle_runs')
      .select(['cycle_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('business_id', '=', businessId)
      .where('cycle_id', 'in', cycleIds)
      .groupBy('cycle_id')
      .execute(),
    runsQuery(db, businessId)
      .where('r.cycle_id', 'in', cycleIds)
      .distinctOn('r.cycle_id')
      .orderBy('r.cycle_id')
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .execute(),
  ]);
  const programById = new Map(programs.map((p) => [p.id, p]));
  const countOf = new Map(counts.map((c) => [c.cycle_id, Number(c.n)]));
  const lastOf = new Map(lastRuns.map((r) => [r.cycle_id, r]));
  return rows.map((row) => {
    const runsCount = countOf.get(row.id) ?? 0;
    const last = lastOf.get(row.id);
    return {
      cycleId: row.id,
      name: row.name,
      schedule: row.schedule,
      dayOfMonth: row.day_of_month,
      periods: row.periods,
      programs: row.program_ids.map((id) => {
        const p = programById.get(id);
        return { programId: id, name: p?.name ?? 'Deleted program', status: p?.status ?? 'Disabled' };
      }),
      autoSubmit: row.auto_submit,
      status: row.status,
      nextRunOn: row.next_run_on,
      nextPeriod: row.next_run_on ? periodOfRun(scheduleOf(row), row.next_run_on) : null,
      lastRunAt: row.last_run_at?.toISOString() ?? null,
      lastRun: last ? toRun(last) : null,
      runsCount,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      actions: billingCycleActions(row.status, runsCount),
    };
  });
}

export async function loadCycle(db: Executor, businessId: string, cycleId: string): Promise<BillingCycleDetail> {
  const row = await selectCycle(db, businessId, cycleId);
  const [cycle] = await toCycles(db, businessId, [row]);
  const runs = await runsQuery(db, businessId)
    .where('r.cycle_id', '=', cycleId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(RECENT_RUNS)
    .execute();
  return { ...cycle!, runs: runs.map(toRun) };
}
