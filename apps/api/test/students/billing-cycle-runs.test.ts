// PostgreSQL pass: cycle runs claimed by the job queue.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  formatDay,
  monthPeriod,
  nextMonthPeriod,
  type BillingCycleDetail,
  type BillingCycleInput,
  type BillingRun,
  type BillingRunOutcome,
} from '@tay/contract';
import { businessForJob } from '../../src/domain/batches/check-batch';
import { runBillingCycleNow, runDueBillingCycles } from '../../src/domain/billing-cycles/run-cycle';
import { todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { enroll, insertProgram, insertStudent, setTimeZone } from './billing-cycle-support';
import { withSource } from '../support/request-rows';
import { Death, insertsInto } from '../support/death';

/**
 * What billing cycles' runs make (issue 21, ADR 036): one request per enrollment and period,
 * whatever runs it (the job at the business's midnight, a catch-up after downtime, Run now, two
 * workers at once), prorated when the program says so.
 */

let t: TestApp;
let school: ApprovedBusiness;
const db = () => t.runtime.database.db;
const deps = () => ({ db: db(), jobs: t.runtime.jobs });
const TZ = 'America/New_York';

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@runs-school.example', 'student');
  await setTimeZone(db(), school.businessId, TZ);
});
afterAll(async () => t?.close());
// Each test's cycles stop there: a tick with a later "now" in another test must not run them.
afterEach(async () => {
  await db().updateTable('billing_cycles').set({ status: 'Disabled' }).where('business_id', '=', school.businessId).execute();
});

/** A process that dies at a chosen statement: that statement and every later one never reach the database. */
const base = `/api/businesses/${'{id}'}/billing-cycles`;
const url = (path = '') => `${base.replace('{id}', school.businessId)}${path}`;

async function createCycle(over: Partial<BillingCycleInput> & Pick<BillingCycleInput, 'programIds'>): Promise<BillingCycleDetail> {
  const res = await call(t.app, 'POST', url(), school.token, {
    name: `Cycle ${Math.random().toString(36).slice(2, 8)}`,
    schedule: 'monthly',
    dayOfMonth: 1,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as BillingCycleDetail;
}

async function setNextRun(cycleId: string, day: string): Promise<void> {
  await db().updateTable('billing_cycles').set({ next_run_on: day }).where('id', '=', cycleId).execute();
}

async function runsOf(cycleId: string) {
  return db().selectFrom('billing_cycle_runs').selectAll().where('cycle_id', '=', cycleId).orderBy('period_start').execute();
}

/** The rows of a run's batch: enrollment → amount. */
async function billed(batchId: string): Promise<Map<string, number>> {
  const rows = await db().selectFrom('batch_rows').select(['fields', 'amount_cents', 'status']).where('batch_id', '=', batchId).execute();
  return new Map(rows.map((r) => [(r.fields as Record<string, string>)._enrollmentId!, Number(r.amount_cents)]));
}

async function countWhere(table: 'payment_requests' | 'student_charges', programId: string): Promise<number> {
  const row = await db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', school.businessId)
    .where(table === 'payment_requests' ? sql<string>`source #>> '{list,program,programId}'` : sql<string>`program_id`, '=', programId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Three students enrolled in a new monthly program since 2020. */
async function classOfThree(over: { feeCents?: number; frequency?: 'monthly' | 'term' } = {}) {
  const programId = await insertProgram(db(), school.businessId, {
    name: `Piano ${Math.random().toString(36).slice(2, 8)}`,
    feeCents: over.feeCents ?? 12_500,
    frequency: over.frequency ?? 'monthly',
  });
  const enrollments: string[] = [];
  for (let i = 0; i < 3; i++) {
    const student = await insertStudent(db(), school.businessId, { guardians: 2 });
    enrollments.push(await enroll(db(), school.businessId, student, programId, '2020-01-01'));
  }
  return { programId, enrollments };
}

describe('Run now', () => {
  it('drafts one request per enrollment for the current period into a batch in review, once', async () => {
    const { programId, enrollments } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    const res = await call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token);
    expect(res.statusCode, res.body).toBe(200);
    const { run, cycle: after } = res.json().data as BillingRunOutcome;
    const today = todayIn(TZ);
    const period = monthPeriod(today);
    expect(run).toMatchObject({ period, state: 'Drafted', requests: 3, totalCents: 37_500, trigger: 'manual', batchState: 'Draft', startedBy: school.email });
    expect(after.runs.map((r) => r.runId)).toEqual([run.runId]);
    expect(after.lastRun?.runId).toBe(run.runId);

    const batch = await db().selectFrom('batches').selectAll().where('id', '=', run.batchId!).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ kind: 'student-billing', billing_run_id: run.runId, state: 'Draft', valid_count: 3, invalid_count: 0 });
    expect([...(await billed(run.batchId!)).keys()].sort()).toEqual([...enrollments].sort());
    const memo = await db().selectFrom('batch_rows').select('fields').where('batch_id', '=', run.batchId!).executeTakeFirstOrThrow();
    expect((memo.fields as Record<string, string>).memo).toMatch(new RegExp(`— ${period.label}$`));

    // Again: refused, naming the period, the day and the run; nothing more is made.
    const again = await call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toContain(`${period.label} was billed by this cycle on ${formatDay(today)} (run ${run.runId})`);
    expect(await runsOf(cycle.cycleId)).toHaveLength(1);

    const runs = await call(t.app, 'GET', url(`/${cycle.cycleId}/runs`), school.token);
    expect(runs.statusCode).toBe(200);
    expect(runs.json().data).toMatchObject({ total: 1, items: [{ runId: run.runId, state: 'Drafted' }] });
    const audit = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', school.businessId)
      .where('action', '=', 'billing_cycle.run')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });

  it('two presses at once make one run', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    const answers = await Promise.all([1, 2].map(() => call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await runsOf(cycle.cycleId)).toHaveLength(1);
    const batches = await db()
      .selectFrom('batches')
      .select('id')
      .where('business_id', '=', school.businessId)
      .where(
        'billing_run_id',
        'in',
        (await runsOf(cycle.cycleId)).map((r) => r.id),
      )
      .execute();
    expect(batches).toHaveLength(1);
  });

  it('is Empty when no one is enrolled, with no batch; Run now bills the period once someone is', async () => {
    const programId = await insertProgram(db(), school.businessId, { name: 'Empty class' });
    const cycle = await createCycle({ programIds: [programId] });
    const res = await call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token);
    expect(res.statusCode, res.body).toBe(200);
    const empty = (res.json().data as BillingRunOutcome).run;
    expect(empty).toMatchObject({ state: 'Empty', requests: 0, totalCents: 0, batchId: null });
    // It billed no one, so once a student is enrolled Run now bills the period after all.
    const student = await insertStudent(db(), school.businessId);
    const enrollment = await enroll(db(), school.businessId, student, programId, '2020-01-01');
    const again = await call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token);
    expect(again.statusCode, again.body).toBe(200);
    const { run } = again.json().data as BillingRunOutcome;
    expect(run).toMatchObject({ state: 'Drafted', requests: 1 });
    expect([...(await billed(run.batchId!)).keys()]).toEqual([enrollment]);
    expect((await runsOf(cycle.cycleId)).map((r) => r.id)).toEqual([run.runId]);
    expect((await call(t.app, 'POST', url(`/${cycle.cycleId}/run`), school.token)).statusCode).toBe(409);
  });

  it('moves the schedule on when it bills the period the next run was for', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId], dayOfMonth: 20 });
    // Run now on Jul 10, 2031, while the next run (Jul 20) is to bill July.
    await setNextRun(cycle.cycleId, '2031-07-20');
    const business = (await businessForJob(db(), school.businessId))!;
    const owner = await db().selectFrom('users').select(['id', 'email']).where('email', '=', school.email).executeTakeFirstOrThrow();
    const now = new Date('2031-07-10T12:00:00Z');
    const made = await runBillingCycleNow(deps(), { business, user: { userId: owner.id, email: owner.email }, cycleId: cycle.cycleId, now });
    expect(made.run).toMatchObject({ period: { label: 'July 2031' }, state: 'Drafted', requests: 3 });
    expect(made.cycle.nextRunOn).toBe('2031-08-20');
    // On Jul 20 the job has nothing to do for this cycle.
    await runDueBillingCycles(deps(), new Date('2031-07-20T12:00:00Z'));
    expect(await runsOf(cycle.cycleId)).toHaveLength(1);
  });
});

describe('the job at the business’s midnight', () => {
  it('runs at 00:00 in the business’s time zone, not at 23:59 the day before', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    await setNextRun(cycle.cycleId, '2030-01-01');
    // 04:59 UTC is 23:59 on Dec 31 in New York.
    await runDueBillingCycles(deps(), new Date('2030-01-01T04:59:00Z'));
    expect(await runsOf(cycle.cycleId)).toEqual([]);
    expect((await db().selectFrom('billing_cycles').select('next_run_on').where('id', '=', cycle.cycleId).executeTakeFirstOrThrow()).next_run_on).toBe(
      '2030-01-01',
    );
    await runDueBillingCycles(deps(), new Date('2030-01-01T05:00:00Z'));
    const runs = await runsOf(cycle.cycleId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      period_start: '2030-01-01',
      period_end: '2030-01-31',
      period_label: 'January 2030',
      trigger: 'schedule',
      state: 'Drafted',
      requests_count: 3,
    });
    expect((await db().selectFrom('billing_cycles').select('next_run_on').where('id', '=', cycle.cycleId).executeTakeFirstOrThrow()).next_run_on).toBe(
      '2030-02-01',
    );
    // Due on the period's first day.
    const due = await db().selectFrom('batch_rows').select('fields').where('batch_id', '=', runs[0]!.batch_id!).executeTakeFirstOrThrow();
    expect((due.fields as Record<string, string>).dueDate).toBe('2030-01-01');
  });

  it('catches up every run missed while the server was down, in order', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    const today = todayIn(TZ);
    const months: string[] = [];
    let day = monthPeriod(today).start;
    for (let i = 0; i < 3; i++) {
      day = monthPeriod(new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10)).start;
      months.unshift(day);
    }
    await setNextRun(cycle.cycleId, months[0]!);
    await runDueBillingCycles(deps());
    const runs = await runsOf(cycle.cycleId);
    expect(runs.map((r) => r.period_start)).toEqual([...months, monthPeriod(today).start]);
    expect(runs.every((r) => r.trigger === 'schedule' && r.state === 'Drafted' && r.requests_count === 3)).toBe(true);
    // Made in order, oldest period first.
    const byCreation = [...runs].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
    expect(byCreation.map((r) => r.period_start)).toEqual(runs.map((r) => r.period_start));
    // A missed period's requests are due the day it is caught up, not in the past.
    const due = await db().selectFrom('batch_rows').select('fields').where('batch_id', '=', runs[0]!.batch_id!).executeTakeFirstOrThrow();
    expect((due.fields as Record<string, string>).dueDate).toBe(today);
    const after = await db().selectFrom('billing_cycles').select('next_run_on').where('id', '=', cycle.cycleId).executeTakeFirstOrThrow();
    expect(after.next_run_on).toBe(nextMonthPeriod(today).start);
    // A second tick finds nothing due.
    expect(await runDueBillingCycles(deps())).toBe(0);
    expect(await runsOf(cycle.cycleId)).toHaveLength(4);
  });

  it('bills each enrollment once when ticked twice and by two workers at once (auto-submit)', async () => {
    const { programId, enrollments } = await classOfThree({ feeCents: 9_900 });
    const cycle = await createCycle({ programIds: [programId], autoSubmit: true });
    await setNextRun(cycle.cycleId, '2030-03-01');
    const now = new Date('2030-03-01T12:00:00Z');
    await Promise.all([runDueBillingCycles(deps(), now), runDueBillingCycles(deps(), now)]);
    await runDueBillingCycles(deps(), now);
    const runs = await runsOf(cycle.cycleId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ state: 'Submitted', requests_count: 3, total_cents: 29_700 });
    const batchId = runs[0]!.batch_id!;
    await eventually(async () => {
      const b = await db().selectFrom('batches').select('state').where('id', '=', batchId).executeTakeFirstOrThrow();
      return b.state === 'Processed';
    }, 20_000);
    expect(await countWhere('payment_requests', programId)).toBe(3);
    expect(await countWhere('student_charges', programId)).toBe(3);
    const requests = (
      await db()
        .selectFrom('payment_requests')
        .selectAll()
        .where(sql<string>`source #>> '{list,program,programId}'`, '=', programId)
        .execute()
    ).map(withSource);
    expect(
      requests.every((r) => r.period === 'March 2030' && r.period_start === '2030-03-01' && r.batch_id === batchId && Number(r.amount_cents) === 9_900),
    ).toBe(true);
    const charges = await db().selectFrom('student_charges').select('enrollment_id').where('program_id', '=', programId).execute();
    expect(charges.map((c) => c.enrollment_id).sort()).toEqual([...enrollments].sort());

    // Another cycle of the same program finds March billed already: nothing to bill.
    const second = await createCycle({ programIds: [programId] });
    await setNextRun(second.cycleId, '2030-03-01');
    await runDueBillingCycles(deps(), now);
    expect(await runsOf(second.cycleId)).toMatchObject([{ period_start: '2030-03-01', state: 'Empty', batch_id: null }]);
    expect(await countWhere('payment_requests', programId)).toBe(3);
  });

  it('holds an auto-submit batch in review when a row has an error, saying why', async () => {
    const { programId } = await classOfThree();
    const orphan = await insertStudent(db(), school.businessId, { guardians: 0 });
    await enroll(db(), school.businessId, orphan, programId, '2020-01-01');
    const cycle = await createCycle({ programIds: [programId], autoSubmit: true });
    await setNextRun(cycle.cycleId, '2030-09-01');
    await runDueBillingCycles(deps(), new Date('2030-09-01T12:00:00Z'));
    const [run] = await runsOf(cycle.cycleId);
    expect(run).toMatchObject({ state: 'Error', requests_count: 3 });
    expect(run!.error).toMatch(/1 of 4 rows has errors, so the batch waits in review/);
    const batch = await db().selectFrom('batches').select(['state', 'invalid_count']).where('id', '=', run!.batch_id!).executeTakeFirstOrThrow();
    expect(batch).toEqual({ state: 'Draft', invalid_count: 1 });
    expect(await countWhere('payment_requests', programId)).toBe(0);
  });

  it('submits the batch of an auto-submit run whose process died before it could', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    await setNextRun(cycle.cycleId, '2030-06-01');
    await runDueBillingCycles(deps(), new Date('2030-06-01T12:00:00Z'));
    const [run] = await runsOf(cycle.cycleId);
    expect(run).toMatchObject({ state: 'Drafted' });
    // As a crash between the run's commit and its submit leaves it.
    await db()
      .updateTable('billing_cycle_runs')
      .set({ state: 'Running', finished_at: null, created_at: new Date(Date.now() - 5 * 60_000) })
      .where('id', '=', run!.id)
      .execute();
    await runDueBillingCycles(deps());
    const [after] = await runsOf(cycle.cycleId);
    expect(after).toMatchObject({ state: 'Submitted' });
    const batch = await db().selectFrom('batches').select('state').where('id', '=', run!.batch_id!).executeTakeFirstOrThrow();
    expect(batch.state).not.toBe('Draft');
  });

  it('leaves nothing half-made when the process dies mid-run; the next tick runs it', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    await setNextRun(cycle.cycleId, '2030-08-01');
    const now = new Date('2030-08-01T12:00:00Z');
    // The process dies as it writes the run's batch: the run's row was written before, in the same transaction.
    const dying = db().withPlugin(new Death(insertsInto('batches')));
    const died = await runDueBillingCycles({ db: dying, jobs: t.runtime.jobs }, now).then(
      () => null,
      (error: unknown) => error,
    );
    const causes = died instanceof AggregateError ? died.errors : [died];
    expect(causes.map((c) => (c instanceof Error ? c.message : String(c)))).toContain('the process was killed');
    expect(await runsOf(cycle.cycleId)).toEqual([]);
    const batches = await db()
      .selectFrom('batches')
      .select('id')
      .where('business_id', '=', school.businessId)
      .where('file_name', 'like', `${cycle.name}%`)
      .execute();
    expect(batches).toEqual([]);
    const before = await db().selectFrom('billing_cycles').select(['next_run_on', 'last_run_at']).where('id', '=', cycle.cycleId).executeTakeFirstOrThrow();
    expect(before).toEqual({ next_run_on: '2030-08-01', last_run_at: null });
    await runDueBillingCycles(deps(), now);
    expect(await runsOf(cycle.cycleId)).toMatchObject([{ period_label: 'August 2030', state: 'Drafted', requests_count: 3 }]);
  });

  it('does not run a deactivated cycle', async () => {
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    await setNextRun(cycle.cycleId, '2030-02-01');
    await call(t.app, 'POST', url(`/${cycle.cycleId}/deactivate`), school.token);
    await runDueBillingCycles(deps(), new Date('2030-02-01T12:00:00Z'));
    expect(await runsOf(cycle.cycleId)).toEqual([]);
  });

  it('runs a term cycle at the start of each period', async () => {
    const { programId } = await classOfThree({ feeCents: 90_000, frequency: 'term' });
    const cycle = await createCycle({
      programIds: [programId],
      schedule: 'term',
      dayOfMonth: null,
      periods: [
        { start: '2098-01-05', end: '2098-03-31', label: 'Term 1 2098' },
        { start: '2098-04-15', end: '2098-06-30', label: 'Term 2 2098' },
      ],
    });
    expect(cycle.nextRunOn).toBe('2098-01-05');
    await runDueBillingCycles(deps(), new Date('2098-01-05T12:00:00Z'));
    await runDueBillingCycles(deps(), new Date('2098-04-15T12:00:00Z'));
    const runs = await runsOf(cycle.cycleId);
    expect(runs.map((r) => [r.period_label, r.total_cents])).toEqual([
      ['Term 1 2098', 270_000],
      ['Term 2 2098', 270_000],
    ]);
    const after = await db().selectFrom('billing_cycles').select('next_run_on').where('id', '=', cycle.cycleId).executeTakeFirstOrThrow();
    expect(after.next_run_on).toBeNull();
  });
});

describe('what a run bills', () => {
  it('prorates enrollments that start or end inside the period when the program says so', async () => {
    const prorated = await insertProgram(db(), school.businessId, { name: 'Ballet', feeCents: 3_000, prorate: true });
    const whole = await insertProgram(db(), school.businessId, { name: 'Chess', feeCents: 2_000, prorate: false });
    const endsEarly = await insertProgram(db(), school.businessId, { name: 'Drama', feeCents: 3_000, prorate: true, endDate: '2030-04-20' });
    const once = await insertProgram(db(), school.businessId, { name: 'Uniform', feeCents: 4_500, frequency: 'one_time', prorate: true });
    const s = async (over: Parameters<typeof insertStudent>[2] = {}) => insertStudent(db(), school.businessId, over);
    const b = school.businessId;
    const e = {
      full: await enroll(db(), b, await s(), prorated, '2030-01-01'),
      midStart: await enroll(db(), b, await s(), prorated, '2030-04-16'),
      withdrawnInside: await enroll(db(), b, await s(), prorated, '2030-01-01', { endDate: '2030-04-10', status: 'Withdrawn' }),
      withdrawnBefore: await enroll(db(), b, await s(), prorated, '2030-01-01', { endDate: '2030-03-31', status: 'Withdrawn' }),
      startsAfter: await enroll(db(), b, await s(), prorated, '2030-05-01'),
      lastDay: await enroll(db(), b, await s(), prorated, '2030-04-30'),
      disabledStudent: await enroll(db(), b, await s({ status: 'Disabled' }), prorated, '2030-01-01'),
      noProration: await enroll(db(), b, await s(), whole, '2030-04-16'),
      programEnds: await enroll(db(), b, await s(), endsEarly, '2030-01-01'),
      oneTime: await enroll(db(), b, await s(), once, '2030-04-20'),
    };
    const cycle = await createCycle({ programIds: [prorated, whole, endsEarly, once] });
    await setNextRun(cycle.cycleId, '2030-04-01');
    await runDueBillingCycles(deps(), new Date('2030-04-01T12:00:00Z'));
    const [run] = await runsOf(cycle.cycleId);
    const amounts = await billed(run!.batch_id!);
    expect(Object.fromEntries([...amounts].map(([id, cents]) => [Object.entries(e).find(([, v]) => v === id)?.[0], cents]))).toEqual({
      full: 3_000,
      midStart: 1_500, // 15 of 30 days
      withdrawnInside: 1_000, // 10 of 30 days
      lastDay: 100, // 1 of 30 days
      noProration: 2_000,
      programEnds: 2_000, // 20 of 30 days
      oneTime: 4_500, // once, in full
    });
    expect(run).toMatchObject({ requests_count: 7, total_cents: 14_100 });
  });

  it('skips an enrollment already charged for the period (and a one-time program charged before)', async () => {
    const monthly = await insertProgram(db(), school.businessId, { name: 'Guitar', feeCents: 5_000 });
    const once = await insertProgram(db(), school.businessId, { name: 'Registration', feeCents: 2_500, frequency: 'one_time' });
    const student = await insertStudent(db(), school.businessId);
    const charged = await enroll(db(), school.businessId, student, monthly, '2030-01-01');
    const oneTime = await enroll(db(), school.businessId, student, once, '2030-01-01');
    const fresh = await enroll(db(), school.businessId, await insertStudent(db(), school.businessId), monthly, '2030-01-01');
    const charge = (enrollmentId: string, programId: string, start: string, end: string) =>
      db()
        .insertInto('student_charges')
        .values({
          business_id: school.businessId,
          enrollment_id: enrollmentId,
          period_start: start,
          period_end: end,
          student_id: student,
          program_id: programId,
          request_id: 'req_by_hand',
          amount_cents: 100,
        })
        .execute();
    await charge(charged, monthly, '2030-05-01', '2030-05-31');
    await charge(oneTime, once, '2030-01-01', '2030-01-31');
    const cycle = await createCycle({ programIds: [monthly, once] });
    await setNextRun(cycle.cycleId, '2030-05-01');
    await runDueBillingCycles(deps(), new Date('2030-05-01T12:00:00Z'));
    const [run] = await runsOf(cycle.cycleId);
    expect([...(await billed(run!.batch_id!)).keys()]).toEqual([fresh]);
  });
});

describe('runs of another business', () => {
  it('are not listed or run for it', async () => {
    const other = await approvedBusiness(t.app, db(), 'owner@runs-other.example', 'student');
    const { programId } = await classOfThree();
    const cycle = await createCycle({ programIds: [programId] });
    const run = await call(t.app, 'POST', `/api/businesses/${other.businessId}/billing-cycles/${cycle.cycleId}/run`, other.token);
    expect(run.statusCode).toBe(404);
    const runs = await call(t.app, 'GET', `/api/businesses/${other.businessId}/billing-cycles/${cycle.cycleId}/runs`, other.token);
    expect(runs.statusCode).toBe(404);
    expect(await runsOf(cycle.cycleId)).toEqual([]);
    // Its own program ids cannot bill this school's students.
    const theirs = await call(t.app, 'POST', `/api/businesses/${other.businessId}/billing-cycles`, other.token, {
      name: 'Steal',
      schedule: 'monthly',
      dayOfMonth: 1,
      programIds: [programId],
    });
    expect(theirs.statusCode).toBe(400);
    const list = (await call(t.app, 'GET', url(`/${cycle.cycleId}/runs`), school.token)).json().data as { items: BillingRun[] };
    expect(list.items).toEqual([]);
  });
});
