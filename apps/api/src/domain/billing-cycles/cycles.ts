import { sql, type Kysely } from 'kysely';
import {
  BILLING_CYCLE_STATUS_LABELS,
  BILLING_SCHEDULE_LABELS,
  csvRow,
  ErrorCode,
  formatDateTime,
  formatDay,
  formatMoney,
  type BillingCycleDetail,
  type BillingCycleListQuery,
  type BillingCycleValues,
  type BillingRunListQuery,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { auditActor, loadCycle, runsQuery, scheduleOf, selectCycle, toCycles, toRun, type CycleRow } from './cycle-record';
import { nextRunFrom } from './schedule';
import { plainPage } from '../../db/plain-list';
import { anyRow } from '../../db/any-row';
import { updateOwned } from '../../db/owned-rows';

type ListQuery = ReturnType<typeof BillingCycleListQuery.parse>;
type RunsQuery = ReturnType<typeof BillingRunListQuery.parse>;

/** Every program named must be one of the business's active programs: 400 naming the first that is not. */
async function assertPrograms(db: Executor, businessId: string, programIds: string[]): Promise<void> {
  const found = await db.selectFrom('programs').select(['id', 'name', 'status']).where('business_id', '=', businessId).where('id', 'in', programIds).execute();
  const byId = new Map(found.map((p) => [p.id, p]));
  for (const id of programIds) {
    const program = byId.get(id);
    if (!program) throw AppError.validation('Choose programs of this business.', { programIds: `There is no program ${id} in this business.` });
    if (program.status !== 'active') {
      throw AppError.validation(`${program.name} is disabled, so it cannot be billed.`, {
        programIds: `${program.name} is disabled. Activate it first, or choose another program.`,
      });
    }
  }
}

const SCHEDULE_WORDS = { monthly: 'a monthly cycle', term: 'a per-term cycle' } as const;
const FREQUENCY_WORDS = { monthly: 'monthly', term: 'per term', one_time: 'one time' } as const;

/**
 * A cycle bills each program at its own pace: a monthly cycle monthly (and one-time) programs, a
 * per-term cycle per-term (and one-time) ones — else a term's fee would be billed every month.
 * Custom dates may bill any program. 400 naming the first that does not fit.
 */
async function assertFrequencies(db: Executor, businessId: string, programIds: string[], schedule: BillingCycleValues['schedule']): Promise<void> {
  if (schedule === 'custom' || programIds.length === 0) return;
  const found = await db.selectFrom('programs').select(['name', 'frequency']).where('business_id', '=', businessId).where('id', 'in', programIds).execute();
  const misfit = found.find((p) => p.frequency !== 'one_time' && p.frequency !== schedule);
  if (misfit) {
    const message = `${misfit.name} is billed ${FREQUENCY_WORDS[misfit.frequency]}, so ${SCHEDULE_WORDS[schedule]} cannot bill it. Choose programs billed ${FREQUENCY_WORDS[schedule]}, or custom dates.`;
    throw AppError.validation(message, { programIds: message });
  }
}

async function ranStarts(db: Executor, businessId: string, cycleId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('billing_cycle_runs').select('period_start').where('business_id', '=', businessId).where('cycle_id', '=', cycleId).execute();
  return new Set(rows.map((r) => r.period_start));
}

function columnsOf(body: BillingCycleValues) {
  return {
    name: body.name,
    schedule: body.schedule,
    day_of_month: body.dayOfMonth,
    periods: JSON.stringify(body.periods),
    program_ids: JSON.stringify(body.programIds),
    auto_submit: body.autoSubmit,
  };
}

/** POST …/billing-cycles: an active cycle whose first run is its next run day from today on. */
export async function createBillingCycle(
  db: Kysely<DB>,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: BillingCycleValues },
): Promise<BillingCycleDetail> {
  return db.transaction().execute(async (trx) => {
    await assertPrograms(trx, business.id, body.programIds);
    await assertFrequencies(trx, business.id, body.programIds, body.schedule);
    const id = newId('bcy');
    const nextRunOn = nextRunFrom(body, todayIn(business.timeZone), new Set());
    await trx
      .insertInto('billing_cycles')
      .values({ business_id: business.id, id, ...columnsOf(body), next_run_on: nextRunOn, created_by: user.userId })
      .execute();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'billing_cycle.created',
      details: { cycleId: id, name: body.name, schedule: body.schedule, programIds: body.programIds, autoSubmit: body.autoSubmit, nextRunOn },
    });
    return loadCycle(trx, business.id, id);
  });
}

/** PATCH …/billing-cycles/:cycleId. A new schedule moves the next run (never onto a period already run). */
export async function updateBillingCycle(
  db: Kysely<DB>,
  { business, user, cycleId, body }: { business: ScopedBusiness; user: ActingUser; cycleId: string; body: BillingCycleValues },
): Promise<BillingCycleDetail> {
  return db.transaction().execute(async (trx) => {
    const current = await selectCycle(trx, business.id, cycleId, { lock: true });
    await assertPrograms(
      trx,
      business.id,
      body.programIds.filter((id) => !current.program_ids.includes(id)),
    );
    await assertFrequencies(trx, business.id, body.programIds, body.schedule);
    const scheduleChanged =
      current.schedule !== body.schedule || current.day_of_month !== body.dayOfMonth || JSON.stringify(current.periods) !== JSON.stringify(body.periods);
    const nextRunOn =
      scheduleChanged && current.status === 'active'
        ? nextRunFrom(body, todayIn(business.timeZone), await ranStarts(trx, business.id, cycleId))
        : current.next_run_on;
    await updateOwned(trx, 'billing_cycles', business.id, cycleId, { ...columnsOf(body), next_run_on: nextRunOn });
    const changed = Object.entries({
      name: current.name !== body.name,
      schedule: scheduleChanged,
      programIds: JSON.stringify(current.program_ids) !== JSON.stringify(body.programIds),
      autoSubmit: current.auto_submit !== body.autoSubmit,
    })
      .filter(([, yes]) => yes)
      .map(([field]) => field);
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'billing_cycle.updated', details: { cycleId, changed, nextRunOn } });
    return loadCycle(trx, business.id, cycleId);
  });
}

/**
 * Activate / Deactivate. A cycle activated again runs from today on: the periods it skipped while
 * Disabled are not billed behind the school's back (Run now bills the current one).
 */
export async function setBillingCycleStatus(
  db: Kysely<DB>,
  { business, user, cycleId, activate }: { business: ScopedBusiness; user: ActingUser; cycleId: string; activate: boolean },
): Promise<BillingCycleDetail> {
  return db.transaction().execute(async (trx) => {
    const current = await selectCycle(trx, business.id, cycleId, { lock: true });
    const status = activate ? 'active' : 'Disabled';
    if (current.status === status) throw new AppError(ErrorCode.Conflict, `${current.name} is already ${activate ? 'active' : 'deactivated'}.`);
    if (activate) await assertPrograms(trx, business.id, current.program_ids);
    const nextRunOn = activate ? nextRunFrom(scheduleOf(current), todayIn(business.timeZone), await ranStarts(trx, business.id, cycleId)) : current.next_run_on;
    await updateOwned(trx, 'billing_cycles', business.id, cycleId, { status, next_run_on: nextRunOn });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: activate ? 'billing_cycle.activated' : 'billing_cycle.deactivated',
      details: { cycleId, name: current.name, ...(activate ? { nextRunOn } : {}) },
    });
    return loadCycle(trx, business.id, cycleId);
  });
}

/** DELETE: only a cycle that never ran (a run's batch and requests name it). */
export async function deleteBillingCycle(
  db: Kysely<DB>,
  { business, user, cycleId }: { business: ScopedBusiness; user: ActingUser; cycleId: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await selectCycle(trx, business.id, cycleId, { lock: true });
    if (await anyRow(trx, 'billing_cycle_runs', business.id, { cycle_id: cycleId }))
      throw new AppError(ErrorCode.Conflict, `${current.name} has run, so it stays on record with its runs. Deactivate it instead.`);
    await trx.deleteFrom('billing_cycles').where('business_id', '=', business.id).where('id', '=', cycleId).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'billing_cycle.deleted', details: { cycleId, name: current.name } });
  });
}

export function getBillingCycle(db: Kysely<DB>, { business, cycleId }: { business: ScopedBusiness; cycleId: string }): Promise<BillingCycleDetail> {
  return loadCycle(db, business.id, cycleId);
}

function filtered(db: Kysely<DB>, businessId: string, query: ListQuery) {
  let q = db.selectFrom('billing_cycles as c').where('c.business_id', '=', businessId);
  if (query.search) q = q.where(sql<boolean>`strpos(lower(c.name), lower(${query.search})) > 0`);
  if (query.status) q = q.where('c.status', '=', query.status);
  if (query.schedule) q = q.where('c.schedule', '=', query.schedule);
  if (query.programId) q = q.where(sql<boolean>`c.program_ids @> ${JSON.stringify([query.programId])}::jsonb`);
  return q;
}

function sorted(query: ListQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'name':
      return sql`lower(c.name) ${dir}, c.id ${dir}`;
    case 'nextRunOn':
      return sql`c.next_run_on ${dir} NULLS LAST, c.id ${dir}`;
    default:
      return sql`c.created_at ${dir}, c.id ${dir}`;
  }
}

export async function listBillingCycles(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(db, business.id, query);
  return plainPage(query, base.selectAll('c').orderBy(sorted(query)), base, (rows) => toCycles(db, business.id, rows as CycleRow[]));
}

export async function* exportBillingCycles(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const rows = (await filtered(db, business.id, query).selectAll('c').orderBy(sorted(query)).execute()) as CycleRow[];
  const cycles = await toCycles(db, business.id, rows);
  yield (
    '\ufeff' +
    csvRow(['Name', 'Schedule', 'Programs', 'Auto-submit', 'Next run', 'Next period', 'Last run', 'Last run state', 'Runs', 'Status', 'Added']) +
    '\r\n'
  );
  for (const c of cycles) {
    const schedule = c.schedule === 'monthly' ? `Monthly on day ${c.dayOfMonth}` : `${BILLING_SCHEDULE_LABELS[c.schedule]} (${c.periods.length} periods)`;
    yield (
      csvRow([
        c.name,
        schedule,
        c.programs.map((p) => p.name).join('; '),
        c.autoSubmit ? 'Yes' : 'No',
        c.nextRunOn ? formatDay(c.nextRunOn) : '',
        c.nextPeriod?.label ?? '',
        c.lastRunAt ? formatDateTime(c.lastRunAt, business.timeZone) : '',
        c.lastRun ? `${c.lastRun.period.label}: ${c.lastRun.state}, ${c.lastRun.requests} requests, ${formatMoney(c.lastRun.totalCents)}` : '',
        c.runsCount,
        BILLING_CYCLE_STATUS_LABELS[c.status],
        formatDateTime(c.createdAt, business.timeZone),
      ]) + '\r\n'
    );
  }
}

export async function listBillingRuns(db: Kysely<DB>, { business, cycleId, query }: { business: ScopedBusiness; cycleId: string; query: RunsQuery }) {
  await selectCycle(db, business.id, cycleId);
  let base = runsQuery(db, business.id).where('r.cycle_id', '=', cycleId);
  if (query.state) base = base.where('r.state', '=', query.state);
  const dir = query.sortDirection === 'asc' ? 'asc' : 'desc';
  return plainPage(
    query,
    base.orderBy('r.period_start', dir).orderBy('r.id', dir),
    db
      .selectFrom('billing_cycle_runs')
      .where('business_id', '=', business.id)
      .where('cycle_id', '=', cycleId)
      .$if(Boolean(query.state), (q) => q.where('state', '=', query.state!)),
    (rows) => rows.map(toRun),
  );
}
