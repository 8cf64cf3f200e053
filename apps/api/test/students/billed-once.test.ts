// PostgreSQL pass: a cycle billed once under concurrent runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramBillingPreview } from '@tay/contract';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, type BatchesApi } from '../batches/batch-api';
import { enroll, insertProgram, insertStudent } from './student-billing-support';
import { withSource } from '../support/request-rows';

/**
 * Billed once (ADR 036): a student is billed for a program over any day at most once, whatever
 * enrollment, period or path billed it — a one-time program once at all, a period that overlaps a
 * billed one, a re-enrollment after a withdrawal — and only for the days the program runs.
 */

let t: TestApp;
let school: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  school = await approvedBusiness(t.app, db(), 'owner@billed-once.example', 'student');
  api = batchesApi(t.app, school);
}, 120_000);
afterAll(async () => t?.close());

const NOVEMBER = { start: '2098-11-01', end: '2098-11-30', label: 'November 2098' };
const DECEMBER = { start: '2098-12-01', end: '2098-12-31', label: 'December 2098' };

async function preview(programIds: string[], period: { start: string; end: string; label: string }): Promise<ProgramBillingPreview> {
  const res = await call(t.app, 'POST', `/api/businesses/${school.businessId}/program-billing/preview`, school.token, {
    programIds,
    period,
    dueDate: dayIn(10),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as ProgramBillingPreview;
}

/** Program Billing for a period, sent: the requests it made, by student. */
/** A program billing batch of the programs for the period, checked (not yet sent): its id. */
async function billingBatch(programIds: string[], period: { start: string; end: string; label: string }): Promise<string> {
  const res = await call(t.app, 'POST', `/api/businesses/${school.businessId}/program-billing`, school.token, {
    programIds,
    period,
    dueDate: dayIn(10),
    billTo: 'guardian',
    adjustments: [],
  });
  expect(res.statusCode, res.body).toBe(201);
  const { batchId } = res.json().data as { batchId: string };
  await api.until(batchId, (b) => b.phase === 'validated');
  return batchId;
}

async function bill(programIds: string[], period: { start: string; end: string; label: string }) {
  return api.sent(await billingBatch(programIds, period));
}

const requestsOf = (studentId: string) =>
  db()
    .selectFrom('payment_requests')
    .selectAll()
    .where('source_kind', '=', 'student')
    .where('source_id', '=', studentId)
    .orderBy('created_at')
    .execute()
    .then((rows) => rows.map((r) => ({ id: r.id, amount_cents: r.amount_cents, period: withSource(r).period })));

describe('billed once', () => {
  it('a one-time program is billed once at all, whatever period asks again, and never prorated', async () => {
    const camp = await insertProgram(db(), school.businessId, { name: 'Summer camp', feeCents: 25_000, frequency: 'one_time', prorate: true });
    const kid = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, kid.id, camp.id, '2098-11-20');
    const first = await preview([camp.id], NOVEMBER);
    expect(first.lines.map((l) => [l.amountCents, l.prorated])).toEqual([[25_000, false]]);
    await bill([camp.id], NOVEMBER);
    const again = await preview([camp.id], DECEMBER);
    expect(again.lines[0]!.alreadyBilled?.referenceNumber).toMatch(/^TRX-\d+$/);
    expect(again.totals.count).toBe(0);
    expect((await requestsOf(kid.id)).map((r) => Number(r.amount_cents))).toEqual([25_000]);
  });

  it('bills only the days the program runs: half of its last month, nothing after it ended', async () => {
    const course = await insertProgram(db(), school.businessId, { name: 'Autumn course', feeCents: 30_000, prorate: true, endDate: '2098-11-15' });
    const kid = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, kid.id, course.id, '2098-09-01');
    expect((await preview([course.id], NOVEMBER)).lines.map((l) => l.amountCents)).toEqual([15_000]);
    const december = await preview([course.id], DECEMBER);
    expect(december.totals).toMatchObject({ count: 0, totalCents: 0 });
  });

  it('a re-enrollment after a withdrawal in the same month is not billed for that month again', async () => {
    const piano = await insertProgram(db(), school.businessId, { name: 'Piano again', feeCents: 10_000 });
    const kid = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, kid.id, piano.id, '2098-09-01', { status: 'Withdrawn', endDate: '2098-11-10' });
    await enroll(db(), school.businessId, kid.id, piano.id, '2098-11-05');
    await bill([piano.id], NOVEMBER);
    expect((await requestsOf(kid.id)).map((r) => [Number(r.amount_cents), r.period])).toEqual([[10_000, 'November 2098']]);
    const again = await preview([piano.id], NOVEMBER);
    expect(again.lines.every((l) => l.alreadyBilled !== null)).toBe(true);
  });

  it('a period that overlaps a billed one is billed already: dates inside a billed month, a single request for that month', async () => {
    const violin = await insertProgram(db(), school.businessId, { name: 'Violin overlap', feeCents: 8_000 });
    const kid = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, kid.id, violin.id, '2098-01-01');
    await bill([violin.id], NOVEMBER);
    const inside = await preview([violin.id], { start: '2098-11-02', end: '2098-11-30', label: 'Rest of November' });
    expect(inside.lines[0]!.alreadyBilled?.referenceNumber).toMatch(/^TRX-\d+$/);
    const single = await call(t.app, 'POST', `/api/businesses/${school.businessId}/students/${kid.id}/payment-requests`, school.token, {
      amountCents: 8_000,
      memo: 'Violin',
      reference: '',
      dueDate: dayIn(10),
      allowPartial: false,
      mode: 'send',
      billTo: 'guardian',
      programId: violin.id,
      period: '2098-11',
    });
    expect(single.statusCode, single.body).toBe(409);
    expect(errorOf(single).message).toMatch(/was billed for Violin overlap, November 2098 already \(TRX-\d+\)\./);
    expect(await requestsOf(kid.id)).toHaveLength(1);
  });

  it('two batches for overlapping periods sent at once make one request', async () => {
    const drums = await insertProgram(db(), school.businessId, { name: 'Drums race', feeCents: 5_000 });
    const kid = await insertStudent(db(), school.businessId);
    await enroll(db(), school.businessId, kid.id, drums.id, '2098-01-01');
    const make = (period: { start: string; end: string; label: string }) => billingBatch([drums.id], period);
    const a = await make(NOVEMBER);
    const b = await make({ start: '2098-11-15', end: '2098-12-14', label: 'Mid-November to mid-December' });
    const [doneA, doneB] = await Promise.all([api.sent(a), api.sent(b)]);
    expect(doneA.counts.sent + doneB.counts.sent).toBe(1);
    expect(doneA.counts.failed + doneB.counts.failed).toBe(1);
    expect(await requestsOf(kid.id)).toHaveLength(1);
    const charges = await db().selectFrom('student_charges').select('request_id').where('student_id', '=', kid.id).execute();
    expect(charges).toHaveLength(1);
  });
});
