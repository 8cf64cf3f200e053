import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyRunDay, nextMonthPeriod, type BillingCycleDetail, type BillingCycleInput } from '@tay/contract';
import { todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { addMember } from '../support/payouts';
import { call } from '../support/requests';
import { expectOtherTemplateRefused, type EndpointCall } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { enroll, insertProgram, insertStudent, setTimeZone } from './billing-cycle-support';

/**
 * Billing cycles (issue 21, ADR 036): a schedule, the programs it bills, whether a run submits at
 * once. What runs make is in billing-cycle-runs.test.ts.
 */

let t: TestApp;
let school: ApprovedBusiness;
let otherSchool: ApprovedBusiness;
let shop: ApprovedBusiness;
let viewerToken: string;
let piano: string;
let violin: string;
let drama: string;
let disabledProgram: string;
let otherProgram: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@cycles-school.example', 'student');
  otherSchool = await approvedBusiness(t.app, db(), 'owner@cycles-other.example', 'student');
  shop = await approvedBusiness(t.app, db(), 'owner@cycles-shop.example');
  await setTimeZone(db(), school.businessId, 'America/New_York');
  viewerToken = await addMember(t.app, db(), school.businessId, 'viewer@cycles-school.example', 'viewer');
  piano = await insertProgram(db(), school.businessId, { name: 'Piano' });
  violin = await insertProgram(db(), school.businessId, { name: 'Violin' });
  drama = await insertProgram(db(), school.businessId, { name: 'Drama', frequency: 'term' });
  disabledProgram = await insertProgram(db(), school.businessId, { name: 'Old choir', status: 'Disabled' });
  otherProgram = await insertProgram(db(), otherSchool.businessId, { name: 'Piano' });
});
afterAll(async () => t?.close());

const base = (b = school) => `/api/businesses/${b.businessId}/billing-cycles`;

const monthly = (over: Partial<BillingCycleInput> = {}): BillingCycleInput => ({
  name: 'Monthly tuition',
  schedule: 'monthly',
  dayOfMonth: 1,
  programIds: [piano],
  autoSubmit: false,
  ...over,
});

async function create(body: BillingCycleInput = monthly(), b = school): Promise<BillingCycleDetail> {
  const res = await call(t.app, 'POST', base(b), b.token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as BillingCycleDetail;
}

async function audit(cycleId: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('business_events')
    .select(['action', 'details'])
    .where('business_id', '=', school.businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.filter((r) => JSON.stringify(r.details).includes(cycleId)).map((r) => r.action);
}

describe('only the student template', () => {
  it('answers 404 with a clear message to a standard business on every endpoint', async () => {
    const c = `${base(shop)}/bcy_x`;
    const calls: EndpointCall[] = [
      ['GET', base(shop)],
      ['GET', `${base(shop)}/export`],
      ['POST', base(shop), monthly()],
      ['GET', c],
      ['PATCH', c, monthly()],
      ['DELETE', c],
      ['POST', `${c}/activate`],
      ['POST', `${c}/deactivate`],
      ['POST', `${c}/run`],
      ['GET', `${c}/runs`],
    ];
    await expectOtherTemplateRefused(t.app, shop.token, calls, /student template/);
  });
});

describe('create', () => {
  it('makes an active monthly cycle whose next run is its day of month from today on', async () => {
    const cycle = await create(monthly({ name: 'Tuition 15th', dayOfMonth: 15, programIds: [piano, violin], autoSubmit: true }));
    const today = todayIn('America/New_York');
    const thisMonth = monthlyRunDay(today, 15);
    const expected = thisMonth >= today ? thisMonth : monthlyRunDay(nextMonthPeriod(today).start, 15);
    expect(cycle).toMatchObject({
      name: 'Tuition 15th',
      schedule: 'monthly',
      dayOfMonth: 15,
      periods: [],
      autoSubmit: true,
      status: 'active',
      nextRunOn: expected,
      runsCount: 0,
      lastRun: null,
      runs: [],
      actions: ['Edit', 'Run now', 'Deactivate', 'Delete'],
    });
    expect(cycle.programs).toEqual([
      { programId: piano, name: 'Piano', status: 'active' },
      { programId: violin, name: 'Violin', status: 'active' },
    ]);
    expect(cycle.nextPeriod?.start).toBe(`${expected.slice(0, 7)}-01`);
    expect(await audit(cycle.cycleId)).toEqual(['billing_cycle.created']);
  });

  it('makes a term cycle whose next run is the first period starting from today on', async () => {
    const cycle = await create({
      name: 'Terms',
      schedule: 'term',
      periods: [
        { start: '2020-09-01', end: '2020-12-20', label: 'Term 1 2020' },
        { start: '2098-01-05', end: '2098-03-31', label: 'Term 2 2098' },
        { start: '2098-04-15', end: '2098-06-30', label: 'Term 3 2098' },
      ],
      programIds: [drama],
    });
    expect(cycle).toMatchObject({ schedule: 'term', dayOfMonth: null, nextRunOn: '2098-01-05' });
    expect(cycle.nextPeriod).toEqual({ start: '2098-01-05', end: '2098-03-31', label: 'Term 2 2098' });
    expect(cycle.periods).toHaveLength(3);
  });

  it('bills each program at its own pace: a per-term cycle refuses a monthly program, a monthly cycle a per-term one', async () => {
    const term = await call(t.app, 'POST', base(), school.token, {
      name: 'Terms of violin',
      schedule: 'term',
      periods: [{ start: '2098-01-05', end: '2098-03-31', label: 'Term 2 2098' }],
      programIds: [violin],
    });
    expect(term.statusCode).toBe(400);
    expect(errorOf(term).fields).toEqual({
      programIds: 'Violin is billed monthly, so a per-term cycle cannot bill it. Choose programs billed per term, or custom dates.',
    });
    const month = await call(t.app, 'POST', base(), school.token, monthly({ name: 'Monthly drama', programIds: [drama] }));
    expect(month.statusCode).toBe(400);
    expect(errorOf(month).fields).toEqual({
      programIds: 'Drama is billed per term, so a monthly cycle cannot bill it. Choose programs billed monthly, or custom dates.',
    });
  });

  it('has no next run when every period of a custom cycle has passed', async () => {
    const cycle = await create({
      name: 'Past camp',
      schedule: 'custom',
      periods: [{ start: '2021-07-01', end: '2021-07-31', label: 'Camp 2021' }],
      programIds: [piano],
    });
    expect(cycle.nextRunOn).toBeNull();
    expect(cycle.nextPeriod).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['no name', { name: '  ' }, 'name', /Enter the name/],
    ['a long name', { name: 'x'.repeat(101) }, 'name', /at most 100/],
    ['no schedule', { schedule: undefined }, 'schedule', /monthly, per term or custom/],
    ['an unknown schedule', { schedule: 'weekly' }, 'schedule', /monthly, per term or custom/],
    ['no day of month', { dayOfMonth: null }, 'dayOfMonth', /1 to 28/],
    ['day 29', { dayOfMonth: 29 }, 'dayOfMonth', /1 to 28/],
    ['day 0', { dayOfMonth: 0 }, 'dayOfMonth', /1 to 28/],
    ['a fractional day', { dayOfMonth: 2.5 }, 'dayOfMonth', /1 to 28/],
    ['no programs', { programIds: [] }, 'programIds', /at least one program/],
    ['a program twice', { programIds: ['prg_a', 'prg_a'] }, 'programIds', /each program once/],
    ['autoSubmit not a boolean', { autoSubmit: 'yes' }, 'autoSubmit', /submits its batch/],
    ['a term cycle without periods', { schedule: 'term', periods: [] }, 'periods', /at least one period/],
    [
      'a period ending before it starts',
      { schedule: 'custom', periods: [{ start: '2098-02-10', end: '2098-02-01', label: 'Camp' }] },
      'periods.0.end',
      /on or after the start/,
    ],
    [
      'a period without a label',
      { schedule: 'custom', periods: [{ start: '2098-02-01', end: '2098-02-10', label: ' ' }] },
      'periods.0.label',
      /Name the period/,
    ],
    ['a bad date', { schedule: 'custom', periods: [{ start: '2098-02-31', end: '2098-03-10', label: 'Camp' }] }, 'periods.0.start', /start date/],
    [
      'overlapping periods',
      {
        schedule: 'term',
        periods: [
          { start: '2098-01-01', end: '2098-03-31', label: 'Term 1' },
          { start: '2098-03-15', end: '2098-06-30', label: 'Term 2' },
        ],
      },
      'periods.1.start',
      /Term 2 must start after Term 1 ends/,
    ],
    [
      'periods out of order',
      {
        schedule: 'term',
        periods: [
          { start: '2098-04-01', end: '2098-06-30', label: 'Term 2' },
          { start: '2098-01-01', end: '2098-03-31', label: 'Term 1' },
        ],
      },
      'periods.1.start',
      /in order/,
    ],
    [
      'two periods with one name',
      {
        schedule: 'term',
        periods: [
          { start: '2098-01-01', end: '2098-03-31', label: 'Term' },
          { start: '2098-04-01', end: '2098-06-30', label: 'term' },
        ],
      },
      'periods.1.label',
      /its own name/,
    ],
  ])('refuses %s with 400 naming the field', async (_, over, field, message) => {
    const res = await call(t.app, 'POST', base(), school.token, { ...monthly(), ...over });
    expect(res.statusCode, res.body).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields?.[field], JSON.stringify(error.fields)).toMatch(message);
  });

  it('refuses a program of another business, an unknown one and a disabled one', async () => {
    for (const [programIds, message] of [
      [[otherProgram], /no program/],
      [['prg_nothing'], /no program/],
      [[piano, disabledProgram], /Old choir is disabled/],
    ] as const) {
      const res = await call(t.app, 'POST', base(), school.token, monthly({ programIds: [...programIds] }));
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).fields?.programIds).toMatch(message);
    }
    const count = await db()
      .selectFrom('billing_cycles')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', school.businessId)
      .where('name', '=', 'Nope')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('lets a viewer read but not write', async () => {
    const cycle = await create(monthly({ name: 'Viewer sees me' }));
    expect((await call(t.app, 'GET', base(), viewerToken)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/${cycle.cycleId}`, viewerToken)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', base(), monthly()],
      ['PATCH', `${base()}/${cycle.cycleId}`, monthly()],
      ['DELETE', `${base()}/${cycle.cycleId}`],
      ['POST', `${base()}/${cycle.cycleId}/deactivate`],
      ['POST', `${base()}/${cycle.cycleId}/run`],
    ] as const) {
      const res = await call(t.app, method, url, viewerToken, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const runs = await db().selectFrom('billing_cycle_runs').select('id').where('cycle_id', '=', cycle.cycleId).execute();
    expect(runs).toEqual([]);
  });
});

describe('update, activate, deactivate, delete', () => {
  it('edits a cycle and moves its next run with a new schedule', async () => {
    const cycle = await create(monthly({ name: 'To edit' }));
    const res = await call(t.app, 'PATCH', `${base()}/${cycle.cycleId}`, school.token, {
      name: 'Edited',
      schedule: 'custom',
      periods: [{ start: '2098-07-01', end: '2098-07-31', label: 'Summer camp 2098' }],
      programIds: [violin],
      autoSubmit: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Edited',
      schedule: 'custom',
      dayOfMonth: null,
      nextRunOn: '2098-07-01',
      autoSubmit: true,
      programs: [{ programId: violin }],
    });
    expect(await audit(cycle.cycleId)).toEqual(['billing_cycle.created', 'billing_cycle.updated']);
    const bad = await call(t.app, 'PATCH', `${base()}/${cycle.cycleId}`, school.token, { ...monthly(), dayOfMonth: 31 });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields?.dayOfMonth).toMatch(/1 to 28/);
  });

  it('deactivates (no next run by the job) and activates from today on', async () => {
    const cycle = await create(monthly({ name: 'On and off' }));
    const off = await call(t.app, 'POST', `${base()}/${cycle.cycleId}/deactivate`, school.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'Disabled', actions: ['Edit', 'Activate', 'Delete'] });
    const again = await call(t.app, 'POST', `${base()}/${cycle.cycleId}/deactivate`, school.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toMatch(/already deactivated/);
    const run = await call(t.app, 'POST', `${base()}/${cycle.cycleId}/run`, school.token);
    expect(run.statusCode).toBe(409);
    expect(errorOf(run).message).toMatch(/deactivated\. Activate it/);
    // A cycle left behind while off is not caught up when it comes back.
    await db().updateTable('billing_cycles').set({ next_run_on: '2021-01-01' }).where('id', '=', cycle.cycleId).execute();
    const on = await call(t.app, 'POST', `${base()}/${cycle.cycleId}/activate`, school.token);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.status).toBe('active');
    expect(on.json().data.nextRunOn >= todayIn('America/New_York')).toBe(true);
    expect(await audit(cycle.cycleId)).toEqual(['billing_cycle.created', 'billing_cycle.deactivated', 'billing_cycle.activated']);
  });

  it('deletes a cycle that never ran, and refuses one that ran', async () => {
    const cycle = await create(monthly({ name: 'Short lived' }));
    const res = await call(t.app, 'DELETE', `${base()}/${cycle.cycleId}`, school.token);
    expect(res.statusCode, res.body).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${cycle.cycleId}`, school.token)).statusCode).toBe(404);
    expect(await audit(cycle.cycleId)).toEqual(['billing_cycle.created', 'billing_cycle.deleted']);

    const ran = await create(monthly({ name: 'Ran once' }));
    const student = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, student, piano, '2020-01-01');
    const run = await call(t.app, 'POST', `${base()}/${ran.cycleId}/run`, school.token);
    expect(run.statusCode, run.body).toBe(200);
    const refused = await call(t.app, 'DELETE', `${base()}/${ran.cycleId}`, school.token);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/has run, so it stays on record/);
    const detail = (await call(t.app, 'GET', `${base()}/${ran.cycleId}`, school.token)).json().data as BillingCycleDetail;
    expect(detail.actions).not.toContain('Delete');
    expect(detail.runs).toHaveLength(1);
  });
});

describe('list and export', () => {
  it('searches, filters, sorts, pages and exports', async () => {
    const b = otherSchool;
    const prog = await insertProgram(db(), b.businessId, { name: 'Swim' });
    await create(monthly({ name: 'Alpha swim', programIds: [prog], dayOfMonth: 3 }), b);
    const beta = await create(monthly({ name: 'Beta swim', programIds: [prog], dayOfMonth: 5 }), b);
    const termly = await insertProgram(db(), b.businessId, { name: 'Swim squad', frequency: 'term' });
    await create({ name: 'Gamma terms', schedule: 'term', periods: [{ start: '2098-01-01', end: '2098-03-31', label: 'T1' }], programIds: [termly] }, b);
    await call(t.app, 'POST', `${base(b)}/${beta.cycleId}/deactivate`, b.token);

    const list = async (qs: string) => {
      const res = await call(t.app, 'GET', `${base(b)}?${qs}`, b.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: { name: string }[]; total: number };
    };
    expect((await list('search=SWIM&sortBy=name&sortDirection=asc')).items.map((c) => c.name)).toEqual(['Alpha swim', 'Beta swim']);
    expect((await list('status=Disabled')).items.map((c) => c.name)).toEqual(['Beta swim']);
    expect((await list('schedule=term')).items.map((c) => c.name)).toEqual(['Gamma terms']);
    expect((await list(`programId=${prog}`)).total).toBe(2);
    const page = await list('pageSize=2&page=2&sortBy=name&sortDirection=asc');
    expect(page).toMatchObject({ total: 3, items: [{ name: 'Gamma terms' }] });
    expect((await call(t.app, 'GET', `${base(b)}?sortBy=color`, b.token)).statusCode).toBe(400);

    const csv = await call(t.app, 'GET', `${base(b)}/export?sortBy=name&sortDirection=asc`, b.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Name,Schedule,Programs/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['Alpha swim', 'Beta swim', 'Gamma terms']);
    expect(lines[1]).toContain('Monthly on day 3');
  });

  it('keeps each business to its own cycles (404 for another business’s)', async () => {
    const mine = await create(monthly({ name: 'Mine only' }));
    const theirs = `${base(otherSchool)}/${mine.cycleId}`;
    for (const [method, url, body] of [
      ['GET', theirs],
      ['PATCH', theirs, monthly({ programIds: [otherProgram] })],
      ['DELETE', theirs],
      ['POST', `${theirs}/deactivate`],
      ['POST', `${theirs}/run`],
      ['GET', `${theirs}/runs`],
    ] as const) {
      const res = await call(t.app, method, url, otherSchool.token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Nor is the school's own URL found by someone who is not its member.
    expect((await call(t.app, 'GET', `${base()}/${mine.cycleId}`, otherSchool.token)).statusCode).toBe(404);
    const list = (await call(t.app, 'GET', base(otherSchool), otherSchool.token)).json().data as { items: { cycleId: string }[] };
    expect(list.items.map((c) => c.cycleId)).not.toContain(mine.cycleId);
    const still = await db().selectFrom('billing_cycles').select(['status', 'name']).where('id', '=', mine.cycleId).executeTakeFirstOrThrow();
    expect(still).toEqual({ status: 'active', name: 'Mine only' });
  });
});
