import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, monthPeriod, type ProgramBillingPreview } from '@tay/contract';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { addMember } from '../support/payouts';
import { call, dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, type BatchesApi } from '../batches/batch-api';
import { enroll, insertProgram, insertStudent } from './student-billing-support';
import { withSource } from '../support/request-rows';

/**
 * Program Billing and Payment (ADR 036): the preview (who is billed what, prorated, already
 * billed), then the batch in review with adjustments and skips, sent as requests for the students.
 */

let t: TestApp;
let school: ApprovedBusiness;
let other: ApprovedBusiness;
let viewerToken: string;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@progbill-school.example', 'student');
  other = await approvedBusiness(t.app, db(), 'owner@progbill-other.example', 'student');
  viewerToken = await addMember(t.app, db(), school.businessId, 'viewer@progbill-school.example', 'viewer');
  api = batchesApi(t.app, school);
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(15);
/** A 30-day month ahead (April, June, September or November), so the proration below is exact. */
function thirtyDayMonth() {
  let day = dayIn(40);
  for (;;) {
    const p = monthPeriod(day);
    if (p.end.endsWith('-30')) return p;
    day = addDays(p.end, 1);
  }
}

const preview = (body: unknown, token = school.token, b = school) =>
  call(t.app, 'POST', `/api/businesses/${b.businessId}/program-billing/preview`, token, body);
const create = (body: unknown, token = school.token, key?: string) =>
  call(t.app, 'POST', `/api/businesses/${school.businessId}/program-billing`, token, body, key ? { 'idempotency-key': key } : {});

describe('preview', () => {
  it('one line per active enrollment overlapping the period, prorated when the program says so; nothing saved', async () => {
    const p = thirtyDayMonth();
    const piano = await insertProgram(db(), school.businessId, { name: 'Piano Prev', feeCents: 12_000, prorate: true });
    const drums = await insertProgram(db(), school.businessId, { name: 'Drums Prev', feeCents: 9_999, prorate: false });
    const whole = await insertStudent(db(), school.businessId, { firstName: 'Whole', lastName: 'Aa' });
    const mid = await insertStudent(db(), school.businessId, { firstName: 'Mid', lastName: 'Bb' });
    const last = await insertStudent(db(), school.businessId, { firstName: 'Last', lastName: 'Cc' });
    const drummer = await insertStudent(db(), school.businessId, { firstName: 'Drum', lastName: 'Dd', guardians: 2 });
    const none = await insertStudent(db(), school.businessId, { firstName: 'None', lastName: 'Ee', guardians: 0 });
    const later = await insertStudent(db(), school.businessId, { firstName: 'Later', lastName: 'Ff' });
    const left = await insertStudent(db(), school.businessId, { firstName: 'Left', lastName: 'Gg' });
    const eWhole = await enroll(db(), school.businessId, whole.id, piano.id, '2020-01-01');
    // From the 11th: 20 of 30 days → 12,000 × 20 / 30 = 8,000.
    const eMid = await enroll(db(), school.businessId, mid.id, piano.id, addDays(p.start, 10));
    // Only the last day: 12,000 / 30 = 400.
    const eLast = await enroll(db(), school.businessId, last.id, piano.id, p.end);
    // Not prorated: the whole fee for any overlap.
    const eDrum = await enroll(db(), school.businessId, drummer.id, drums.id, addDays(p.start, 20));
    await enroll(db(), school.businessId, none.id, piano.id, '2020-01-01');
    await enroll(db(), school.businessId, later.id, piano.id, addDays(p.end, 1)); // starts after the period
    await enroll(db(), school.businessId, left.id, piano.id, '2020-01-01', { status: 'Withdrawn', endDate: addDays(p.start, -1) });
    const batchesBefore = await db().selectFrom('batches').select('id').where('business_id', '=', school.businessId).execute();

    const res = await preview({ programIds: [piano.id, drums.id], period: p, dueDate: due() }, viewerToken);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as ProgramBillingPreview;
    const line = (id: string) => data.lines.find((l) => l.enrollmentId === id)!;
    expect(data.lines).toHaveLength(5);
    expect(line(eWhole)).toMatchObject({ amountCents: 12_000, prorated: false, days: 30, periodDays: 30, alreadyBilled: null, problem: null });
    expect(line(eMid)).toMatchObject({ amountCents: 8_000, prorated: true, days: 20, periodDays: 30 });
    expect(line(eLast)).toMatchObject({ amountCents: 400, prorated: true, days: 1 });
    expect(line(eDrum)).toMatchObject({ amountCents: 9_999, prorated: false, days: 10 });
    expect(line(eDrum).secondGuardian).not.toBeNull();
    expect(line(eWhole).student).toMatchObject({ studentId: whole.id, studentNumber: whole.number, name: whole.name });
    expect(line(eWhole).guardian).toMatchObject({ payerId: whole.guardians[0]!.id, email: whole.guardians[0]!.email });
    expect(data.lines.find((l) => l.student.studentId === none.id)!.problem).toMatch(/has no guardian to bill/);
    expect(data.totals).toMatchObject({ count: 4, totalCents: 12_000 + 8_000 + 400 + 9_999, alreadyBilled: 0, problems: 1 });
    const batchesAfter = await db().selectFrom('batches').select('id').where('business_id', '=', school.businessId).execute();
    expect(batchesAfter.length).toBe(batchesBefore.length);

    // A month picked as such is its calendar month.
    const byMonth = await preview({ programIds: [piano.id], month: p.start.slice(0, 7) });
    expect(byMonth.json().data.period).toEqual(p);
  });

  it('answers 400 naming the field for bad input, 404 for a program of another business', async () => {
    const piano = await insertProgram(db(), school.businessId);
    const cases: [unknown, string][] = [
      [{ programIds: [], month: '2026-12' }, 'programIds'],
      [{ programIds: [piano.id] }, 'period'],
      [{ programIds: [piano.id], month: '2026-13' }, 'month'],
      [{ programIds: [piano.id], period: { start: '2026-12-10', end: '2026-12-01', label: 'Dec' } }, 'period.end'],
      [{ programIds: [piano.id], period: { start: '2026-12-01', end: '2026-12-31', label: '' } }, 'period.label'],
      [{ programIds: [piano.id], period: { start: '2026-01-01', end: '2027-06-30', label: 'Long' } }, 'period.end'],
      [{ programIds: [piano.id], month: '2026-12', dueDate: dayIn(-1) }, 'dueDate'],
    ];
    for (const [body, field] of cases) {
      const res = await preview(body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(Object.keys(errorOf(res).fields ?? {}), res.body).toContain(field);
    }
    const theirs = await insertProgram(db(), other.businessId);
    expect((await preview({ programIds: [theirs.id], month: '2026-12' })).statusCode).toBe(404);
    const closed = await insertProgram(db(), school.businessId, { status: 'Disabled', name: 'Closed Prev' });
    const disabled = await preview({ programIds: [closed.id], month: '2026-12' });
    expect(disabled.statusCode).toBe(400);
    expect(errorOf(disabled).fields).toMatchObject({ programIds: 'Closed Prev is disabled; enable it first.' });
  });
});

describe('the batch', () => {
  it('adjusts and skips, waits in review, and sends one request per line with its charge; a period billed is greyed next time', async () => {
    const p = thirtyDayMonth();
    const violin = await insertProgram(db(), school.businessId, { name: 'Violin Bill', feeCents: 15_000, prorate: true });
    const a = await insertStudent(db(), school.businessId, { firstName: 'Amy' });
    const b = await insertStudent(db(), school.businessId, { firstName: 'Ben', guardians: 2 });
    const c = await insertStudent(db(), school.businessId, { firstName: 'Cal' });
    const ea = await enroll(db(), school.businessId, a.id, violin.id, '2020-01-01');
    const eb = await enroll(db(), school.businessId, b.id, violin.id, addDays(p.start, 15)); // 15 of 30 days → 7,500
    const ec = await enroll(db(), school.businessId, c.id, violin.id, '2020-01-01');
    const body = {
      programIds: [violin.id],
      period: p,
      dueDate: due(),
      billTo: 'both',
      adjustments: [
        { enrollmentId: ea, amountCents: 11_111 },
        { enrollmentId: ec, skip: true },
      ],
    };
    expect((await create(body, viewerToken)).statusCode).toBe(403);
    const res = await create(body, school.token, 'prog-1');
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data as { batchId: string; rows: number; valid: number; totalCents: number };
    expect(made).toMatchObject({ rows: 2, valid: 2, invalid: 0, totalCents: 11_111 + 7_500 });
    expect((await create(body, school.token, 'prog-1')).json().data.batchId).toBe(made.batchId);
    expect(await api.batch(made.batchId)).toMatchObject({ kind: 'student-billing', state: 'Draft', phase: 'validated' });
    // Nothing is billed while it waits.
    expect(await db().selectFrom('student_charges').select('enrollment_id').where('enrollment_id', 'in', [ea, eb, ec]).execute()).toHaveLength(0);

    const done = await api.sent(made.batchId);
    expect(done.counts).toMatchObject({ sent: 2, failed: 0 });
    const requests = (await db().selectFrom('payment_requests').selectAll().where('batch_id', '=', made.batchId).orderBy('number').execute()).map(withSource);
    const ofA = requests.find((r) => r.student_id === a.id)!;
    const ofB = requests.find((r) => r.student_id === b.id)!;
    expect(ofA).toMatchObject({
      amount_cents: 11_111,
      program_id: violin.id,
      program_name: 'Violin Bill',
      period: p.label,
      period_start: p.start,
      copy_payer_id: null,
    });
    expect(ofA.memo).toBe(`Violin Bill, ${p.label}`);
    expect(ofB).toMatchObject({ amount_cents: 7_500, copy_payer_id: b.guardians[1]!.id, payer_id: b.guardians[0]!.id });
    const charges = await db().selectFrom('student_charges').selectAll().where('enrollment_id', 'in', [ea, eb, ec]).execute();
    expect(charges.map((x) => x.enrollment_id).sort()).toEqual([ea, eb].sort());

    // Next time: A and B are greyed with their references; C (skipped) can still be billed.
    const again = (await preview({ programIds: [violin.id], period: p })).json().data as ProgramBillingPreview;
    const lineOf = (id: string) => again.lines.find((l) => l.enrollmentId === id)!;
    expect(lineOf(ea).alreadyBilled).toEqual({ requestId: ofA.id, referenceNumber: `TRX-${ofA.number}` });
    expect(lineOf(ec).alreadyBilled).toBeNull();
    expect(again.totals).toMatchObject({ count: 1, totalCents: 15_000, alreadyBilled: 2 });
    const second = await create({ programIds: [violin.id], period: p, dueDate: due() });
    expect(second.json().data).toMatchObject({ rows: 1, valid: 1, totalCents: 15_000 });
  });

  it('bills a period given by its dates and name (a term), once', async () => {
    const start = addDays(dayIn(40), 0);
    const term = { start, end: addDays(start, 89), label: 'Spring term' };
    const choir = await insertProgram(db(), school.businessId, { name: 'Choir Term', feeCents: 30_000 });
    const s = await insertStudent(db(), school.businessId);
    const e = await enroll(db(), school.businessId, s.id, choir.id, '2020-01-01');
    const res = await create({ programIds: [choir.id], period: term, dueDate: due() });
    expect(res.statusCode, res.body).toBe(201);
    const { batchId } = res.json().data as { batchId: string };
    await api.sent(batchId);
    const request = withSource(await db().selectFrom('payment_requests').selectAll().where('batch_id', '=', batchId).executeTakeFirstOrThrow());
    expect(request).toMatchObject({ period: 'Spring term', period_start: term.start, amount_cents: 30_000, memo: 'Choir Term, Spring term' });
    const charge = await db().selectFrom('student_charges').selectAll().where('enrollment_id', '=', e).executeTakeFirstOrThrow();
    expect(charge).toMatchObject({ period_start: term.start, period_end: term.end, request_id: request.id });
    const again = (await preview({ programIds: [choir.id], period: term })).json().data as ProgramBillingPreview;
    expect(again.lines[0]!.alreadyBilled?.referenceNumber).toBe(`TRX-${request.number}`);
  });

  it('refuses an adjustment of an enrollment not in the preview, and a batch with nothing to bill', async () => {
    const p = thirtyDayMonth();
    const harp = await insertProgram(db(), school.businessId, { name: 'Harp Bill' });
    const s = await insertStudent(db(), school.businessId);
    const e = await enroll(db(), school.businessId, s.id, harp.id, '2020-01-01');
    const bad = await create({ programIds: [harp.id], period: p, dueDate: due(), adjustments: [{ enrollmentId: 'enr_nope', skip: true }] });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toMatchObject({ 'adjustments.0.enrollmentId': 'This enrollment is not billed for these programs and this period.' });
    const zero = await create({ programIds: [harp.id], period: p, dueDate: due(), adjustments: [{ enrollmentId: e, amountCents: 0 }] });
    expect(zero.statusCode).toBe(400);
    const empty = await create({ programIds: [harp.id], period: p, dueDate: due(), adjustments: [{ enrollmentId: e, skip: true }] });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).message).toMatch(/nothing to bill/);
    const past = await create({ programIds: [harp.id], period: p, dueDate: dayIn(-1) });
    expect(past.statusCode).toBe(400);
    expect(errorOf(past).fields).toMatchObject({ dueDate: 'The due date cannot be in the past.' });
  });
});
