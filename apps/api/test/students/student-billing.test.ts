// PostgreSQL pass: charges and balances aggregated by SQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthPeriod } from '@tay/contract';
import { createStudentBillingBatch } from '../../src/domain/batches/student-billing-batch';
import { businessForJob } from '../../src/domain/batches/check-batch';
import { type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, dayIn, outbox } from '../support/requests';
import { templateBusinesses } from '../support/template-businesses';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, type BatchesApi } from '../batches/batch-api';
import { enroll, insertProgram, insertStudent } from './student-billing-support';
import { withSource } from '../support/request-rows';

/**
 * Batch kind `student-billing` (ADR 036): its checks per field and rule, what a sent row makes
 * (one request for the student, with program, period, copy guardian and its charge), a period
 * billed once across batches, Request to Pay Multiple Students, the CSV path end to end, and
 * refusals (another business's students, a standard business, a viewer).
 */

let t: TestApp;
let school: ApprovedBusiness;
let other: ApprovedBusiness;
let standard: ApprovedBusiness;
let viewerToken: string;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz: school, other, standard, viewerToken } = await templateBusinesses(t.app, db(), 'student', 'billing-school'));
  api = batchesApi(t.app, school);
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(15);
/** A month ahead: its dates never depend on today's day of the month for these checks. */
const period = () => monthPeriod(dayIn(70));
const bulk = (b: ApprovedBusiness, body: unknown, token = b.token, key?: string) =>
  call(t.app, 'POST', `/api/businesses/${b.businessId}/student-billing`, token, body, key ? { 'idempotency-key': key } : {});

async function requestsOf(batchId: string) {
  return db()
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', school.businessId)
    .where('batch_id', '=', batchId)
    .orderBy('number')
    .execute()
    .then((rows) => rows.map(withSource));
}

describe('the CSV path: upload → map → check → submit → requests', () => {
  it('checks every field and rule of a row, then sends the valid rows as requests for the students', async () => {
    const piano = await insertProgram(db(), school.businessId, { name: 'Piano CSV', feeCents: 12_000 });
    const closed = await insertProgram(db(), school.businessId, { name: 'Closed CSV', status: 'Disabled' });
    const mia = await insertStudent(db(), school.businessId, { firstName: 'Mia', lastName: 'Lopez' });
    const leo = await insertStudent(db(), school.businessId, { firstName: 'Leo', lastName: 'Lee', guardians: 2 });
    const gone = await insertStudent(db(), school.businessId, { firstName: 'Gone', status: 'Disabled' });
    const alone = await insertStudent(db(), school.businessId, { firstName: 'Alone', guardians: 0 });
    const foreign = await insertStudent(db(), other.businessId, { firstName: 'Foreign' });
    const miaEnrollment = await enroll(db(), school.businessId, mia.id, piano.id, '2020-01-01');
    const p = period();
    const lines = [
      'Student id,Program,Amount,Period,Memo,Due date,Bill',
      `${mia.number},Piano CSV,,${p.label},Lessons,${due()},guardian`, // 2: valid, the fee
      `${leo.number},,$45.00,,School trip,${due()},both`, // 3: valid, both guardians
      `NOPE-1,,10,,x,${due()},`, // 4: unknown student
      `${gone.number},,10,,x,${due()},`, // 5: deactivated
      `${alone.number},,10,,x,${due()},`, // 6: no guardian
      `${mia.number},,10,,x,${due()},both`, // 7: both with one guardian
      `${mia.number},Violin Nope,10,,x,${due()},`, // 8: unknown program
      `${mia.number},${closed.name},10,,x,${due()},`, // 9: disabled program
      `${mia.number},,12.345,,x,${due()},`, // 10: bad amount
      `${mia.number},,10,,x,${dayIn(-3)},`, // 11: past due date
      `${mia.number},,10,,x,${due()},everyone`, // 12: bad bill
      `${leo.number},,$45.00,,Again,${due()},both`, // 13: repeat of line 3
      `${foreign.number},,10,,x,${due()},`, // 14: another business's student
      `${mia.number},,,,x,${due()},`, // 15: no amount, no program
      `${mia.number},Piano CSV,,Someday,x,${due()},`, // 16: a period that is not one
    ];
    const up = await api.upload(lines.join('\n'), { query: 'kind=student-billing&fileName=billing.csv' });
    expect(up.statusCode, up.body).toBe(201);
    const uploaded = up.json().data as { batchId: string; mapping: { columns: Record<string, string> } };
    expect(uploaded.mapping.columns).toMatchObject({ studentNumber: 'Student id', program: 'Program', amount: 'Amount', dueDate: 'Due date', billTo: 'Bill' });
    const checked = await api.mapped(uploaded.batchId, { payer: 'existing', columns: uploaded.mapping.columns });
    expect(checked.counts).toMatchObject({ rows: 15, valid: 2, invalid: 13 });
    expect(checked.totalCents).toBe(12_000 + 4_500);

    const rows = await api.rows(uploaded.batchId);
    const errors = (line: number) => rows.items.find((r) => r.row === line)!.errors;
    expect(rows.items.find((r) => r.row === 2)).toMatchObject({ status: 'valid', amountCents: 12_000, payerName: `${mia.name} (Guardian 1 of Mia)` });
    expect(rows.items.find((r) => r.row === 3)).toMatchObject({ status: 'valid', amountCents: 4_500 });
    expect(errors(4).studentNumber).toBe('No student of yours has the student id NOPE-1.');
    expect(errors(5).studentNumber).toMatch(/Gone .* is deactivated; activate them first\./);
    expect(errors(6).studentNumber).toMatch(/has no guardian to bill/);
    expect(errors(7).billTo).toMatch(/has one guardian, so both cannot be billed/);
    expect(errors(8).program).toBe('No program of yours is named "Violin Nope".');
    expect(errors(9).program).toBe(`${closed.name} is disabled; enable it first.`);
    expect(errors(10).amount).toBe('"12.345" is not an amount. Write it like 125.50 or $1,234.50.');
    expect(errors(11).dueDate).toBe('The due date cannot be in the past.');
    expect(errors(12).billTo).toBe('"everyone" is not who to bill. Write guardian or both.');
    expect(errors(13).row).toMatch(/^Same student, program, period and amount as line 3 of the file\./);
    expect(errors(14).studentNumber).toBe(`No student of yours has the student id ${foreign.number}.`);
    expect(errors(15).amount).toBe('Enter an amount, or name a program to bill its fee.');
    expect(errors(16).period).toMatch(/"Someday" is not a period we know/);

    const done = await api.sent(uploaded.batchId);
    expect(done.counts).toMatchObject({ sent: 2, failed: 0 });
    const made = await requestsOf(uploaded.batchId);
    expect(made).toHaveLength(2);
    const [forMia, forLeo] = [made.find((r) => r.student_id === mia.id)!, made.find((r) => r.student_id === leo.id)!];
    expect(forMia).toMatchObject({
      student_name: mia.name,
      program_id: piano.id,
      program_name: 'Piano CSV',
      period: p.label,
      period_start: p.start,
      payer_id: mia.guardians[0]!.id,
      copy_payer_id: null,
      amount_cents: 12_000,
      state: 'Sent',
    });
    expect(forLeo).toMatchObject({
      student_name: leo.name,
      program_id: null,
      period: null,
      payer_id: leo.guardians[0]!.id,
      copy_payer_id: leo.guardians[1]!.id,
    });
    // The enrollment's period is billed: its charge names the request.
    const charge = await db().selectFrom('student_charges').selectAll().where('enrollment_id', '=', miaEnrollment).executeTakeFirstOrThrow();
    expect(charge).toMatchObject({ request_id: forMia.id, amount_cents: 12_000, student_id: mia.id, program_id: piano.id });
    // The guardians are e-mailed, both of Leo's with the same link.
    expect((await outbox(t.app, mia.guardians[0]!.email)).length).toBe(1);
    const first = await outbox(t.app, leo.guardians[0]!.email);
    const second = await outbox(t.app, leo.guardians[1]!.email);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    const link = (text: string) => /\/pay\/\S+/.exec(text)?.[0];
    expect(link(second[0]!.text)).toBe(link(first[0]!.text));
  });

  it('refuses a mapping without the student id or the due date', async () => {
    const up = await api.upload('Who,Amount\nS-1,10\n', { query: 'kind=student-billing&fileName=bad.csv' });
    expect(up.statusCode, up.body).toBe(201);
    const res = await api.map(up.json().data.batchId, { payer: 'existing', columns: { amount: 'Amount' } });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toMatchObject({
      'mapping.studentNumber': 'Choose the column with the student id.',
      'mapping.dueDate': 'Choose the column with the due date.',
    });
  });
});

describe('a period is billed once', () => {
  it('the same enrollment and period in two batches: the second row fails with the first request', async () => {
    const piano = await insertProgram(db(), school.businessId, { name: 'Piano Once', feeCents: 9_000 });
    const ana = await insertStudent(db(), school.businessId, { firstName: 'Ana' });
    const enrollment = await enroll(db(), school.businessId, ana.id, piano.id, '2020-01-01');
    const p = period();
    const body = { studentIds: [ana.id], amountCents: 9_000, memo: 'Piano', dueDate: due(), programId: piano.id, period: p };
    const a = await bulk(school, body);
    const b = await bulk(school, body);
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    // Both wait in review: nothing is billed until one is sent.
    expect(b.json().data).toMatchObject({ rows: 1, valid: 1, invalid: 0 });

    await api.sent(a.json().data.batchId);
    const [first] = await requestsOf(a.json().data.batchId);
    const sentB = await api.sent(b.json().data.batchId);
    expect(sentB.counts).toMatchObject({ sent: 0, failed: 1 });
    const row = await api.row(b.json().data.batchId, 2);
    expect(row.errors.row ?? Object.values(row.errors)[0]).toBe(`${ana.name} was billed for Piano Once, ${p.label} already (TRX-${first!.number}).`);
    expect(await requestsOf(b.json().data.batchId)).toHaveLength(0);
    const charges = await db().selectFrom('student_charges').selectAll().where('enrollment_id', '=', enrollment).execute();
    expect(charges).toHaveLength(1);

    // A batch made after it flags the row at once.
    const c = await bulk(school, body);
    expect(c.json().data).toMatchObject({ rows: 1, valid: 0, invalid: 1 });
    const flagged = await api.row(c.json().data.batchId, 2);
    expect(flagged.errors.period).toBe(`${ana.name} was billed for Piano Once, ${p.label} already (TRX-${first!.number}).`);
  });
});

describe('a period is billed once, even when two batches are sent at once', () => {
  it('two batches of the same enrollments submitted together make one request per enrollment', async () => {
    const drums = await insertProgram(db(), school.businessId, { name: 'Drums Race', feeCents: 5_000 });
    const kids = [await insertStudent(db(), school.businessId), await insertStudent(db(), school.businessId)];
    const enrollments = [];
    for (const k of kids) enrollments.push(await enroll(db(), school.businessId, k.id, drums.id, '2020-01-01'));
    const body = { studentIds: kids.map((k) => k.id), amountCents: 5_000, memo: 'Drums', dueDate: due(), programId: drums.id, period: period() };
    const [a, b] = [await bulk(school, body), await bulk(school, body)];
    const [doneA, doneB] = await Promise.all([api.sent(a.json().data.batchId), api.sent(b.json().data.batchId)]);
    expect(doneA.counts.sent + doneB.counts.sent).toBe(2);
    expect(doneA.counts.failed + doneB.counts.failed).toBe(2);
    const charges = await db().selectFrom('student_charges').selectAll().where('enrollment_id', 'in', enrollments).execute();
    expect(charges).toHaveLength(2);
    const requests = await db()
      .selectFrom('payment_requests')
      .select('id')
      .where(sql<string>`source #>> '{list,program,programId}'`, '=', drums.id)
      .execute();
    expect(requests.map((r) => r.id).sort()).toEqual(charges.map((c) => c.request_id).sort());
  });
});

describe('Request to Pay Multiple Students', () => {
  it('makes one row per student, in review, and sends them', async () => {
    const kids = [await insertStudent(db(), school.businessId), await insertStudent(db(), school.businessId, { guardians: 2 })];
    const res = await bulk(
      school,
      { studentIds: kids.map((k) => k.id), amountCents: 2_500, memo: 'Field trip', dueDate: due(), billTo: 'both' },
      school.token,
      'bulk-1',
    );
    expect(res.statusCode, res.body).toBe(201);
    const { batchId } = res.json().data as { batchId: string };
    expect(res.json().data).toMatchObject({ rows: 2, valid: 1, invalid: 1, totalCents: 2_500 });
    const again = await bulk(
      school,
      { studentIds: kids.map((k) => k.id), amountCents: 2_500, memo: 'Field trip', dueDate: due(), billTo: 'both' },
      school.token,
      'bulk-1',
    );
    expect(again.json().data.batchId).toBe(batchId);
    const batch = await api.batch(batchId);
    expect(batch).toMatchObject({ kind: 'student-billing', state: 'Draft', phase: 'validated' });
    // The one-guardian student is fixed on the review page: bill the guardian.
    const fixed = await api.fix(batchId, 2, { billTo: 'guardian' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data.row.status).toBe('valid');
    const done = await api.sent(batchId);
    expect(done.counts).toMatchObject({ sent: 2 });
    const made = await requestsOf(batchId);
    expect(made.map((r) => r.memo)).toEqual(['Field trip', 'Field trip']);
    expect(made.find((r) => r.student_id === kids[1]!.id)!.copy_payer_id).toBe(kids[1]!.guardians[1]!.id);
  });

  it('answers 400 naming the field for each bad input', async () => {
    const kid = await insertStudent(db(), school.businessId);
    const cases: [unknown, string][] = [
      [{ studentIds: [], amountCents: 100, memo: 'x', dueDate: due() }, 'studentIds'],
      [{ studentIds: [kid.id], amountCents: 0, memo: 'x', dueDate: due() }, 'amountCents'],
      [{ studentIds: [kid.id], amountCents: 1.5, memo: 'x', dueDate: due() }, 'amountCents'],
      [{ studentIds: [kid.id], amountCents: 100, memo: '', dueDate: due() }, 'memo'],
      [{ studentIds: [kid.id], amountCents: 100, memo: 'x', dueDate: 'soon' }, 'dueDate'],
      [{ studentIds: [kid.id], amountCents: 100, memo: 'x', dueDate: dayIn(-2) }, 'dueDate'],
      [{ studentIds: [kid.id], amountCents: 100, memo: 'x', dueDate: due(), billTo: 'all' }, 'billTo'],
      [{ studentIds: [kid.id, kid.id], amountCents: 100, memo: 'x', dueDate: due() }, 'studentIds'],
      [{ studentIds: [kid.id], amountCents: 100, memo: 'x', dueDate: due(), period: { start: '2026-12-31', end: '2026-12-01', label: 'Dec' } }, 'period.end'],
    ];
    for (const [body, field] of cases) {
      const res = await bulk(school, body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(Object.keys(errorOf(res).fields ?? {}), res.body).toContain(field);
    }
  });

  it("another business's students and programs are not found; nothing is saved", async () => {
    const mine = await insertStudent(db(), school.businessId);
    const theirs = await insertStudent(db(), other.businessId);
    const theirProgram = await insertProgram(db(), other.businessId);
    const before = await db().selectFrom('batches').select('id').where('business_id', '=', school.businessId).execute();
    const a = await bulk(school, { studentIds: [mine.id, theirs.id], amountCents: 100, memo: 'x', dueDate: due() });
    expect(a.statusCode).toBe(404);
    const b = await bulk(school, {
      studentIds: [mine.id],
      amountCents: 100,
      memo: 'x',
      dueDate: due(),
      programId: theirProgram.id,
      month: period().start.slice(0, 7),
    });
    expect(b.statusCode).toBe(404);
    const after = await db().selectFrom('batches').select('id').where('business_id', '=', school.businessId).execute();
    expect(after.length).toBe(before.length);
  });

  it('a generated line naming another business student becomes a row with an error, not a request', async () => {
    const mine = await insertStudent(db(), school.businessId);
    const theirs = await insertStudent(db(), other.businessId);
    const business = (await businessForJob(db(), school.businessId))!;
    const made = await db()
      .transaction()
      .execute((trx) =>
        createStudentBillingBatch(trx, business, {
          lines: [mine, theirs].map((s) => ({
            studentId: s.id,
            programId: null,
            enrollmentId: null,
            amountCents: 700,
            period: null,
            memo: 'Books',
            dueDate: due(),
            billTo: 'guardian' as const,
          })),
          fileName: 'books.csv',
          billingRunId: null,
          user: { userId: 'system', email: 'billing cycle' },
        }),
      );
    expect(made).toMatchObject({ rows: 2, valid: 1, invalid: 1, totalCents: 700 });
    const row = await api.row(made.batchId, 3);
    expect(row.errors.studentNumber).toBe('This student is not one of yours.');
  });

  it('lists the students to pick from, by grade and program', async () => {
    const program = await insertProgram(db(), school.businessId, { name: 'Chess Pick' });
    const a = await insertStudent(db(), school.businessId, { grade: 'Year 9', firstName: 'Pick' });
    const b = await insertStudent(db(), school.businessId, { grade: 'Year 9', firstName: 'Pick' });
    await insertStudent(db(), school.businessId, { grade: 'Year 9', status: 'Disabled' });
    await enroll(db(), school.businessId, b.id, program.id, '2020-01-01');
    const list = async (q: string) => {
      const res = await call(t.app, 'GET', `/api/businesses/${school.businessId}/student-billing/students?${q}`, viewerToken);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: { studentId: string; programs: { name: string }[] }[]; grades: string[] };
    };
    const byGrade = await list('grade=Year%209');
    expect(byGrade.items.map((i) => i.studentId).sort()).toEqual([a.id, b.id].sort());
    expect(byGrade.grades).toContain('Year 9');
    const byProgram = await list(`programId=${program.id}`);
    expect(byProgram.items.map((i) => i.studentId)).toEqual([b.id]);
    expect(byProgram.items[0]!.programs.map((p) => p.name)).toEqual(['Chess Pick']);
  });
});

describe('who may', () => {
  it('a viewer reads but cannot make a batch', async () => {
    const kid = await insertStudent(db(), school.businessId);
    const res = await bulk(school, { studentIds: [kid.id], amountCents: 100, memo: 'x', dueDate: due() }, viewerToken);
    expect(res.statusCode).toBe(403);
  });

  it('a standard business gets 404 from every endpoint, and cannot upload a student-billing file', async () => {
    const calls = [
      bulk(standard, { studentIds: ['stu_x'], amountCents: 100, memo: 'x', dueDate: due() }),
      call(t.app, 'GET', `/api/businesses/${standard.businessId}/student-billing/students`, standard.token),
      call(t.app, 'POST', `/api/businesses/${standard.businessId}/program-billing/preview`, standard.token, { programIds: ['prg_x'], month: '2026-12' }),
      call(t.app, 'POST', `/api/businesses/${standard.businessId}/program-billing`, standard.token, {
        programIds: ['prg_x'],
        month: '2026-12',
        dueDate: due(),
      }),
      batchesApi(t.app, standard).upload('Student id,Amount,Due date\nS-1,10,2099-01-01\n', { query: 'kind=student-billing&fileName=x.csv' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res).message).toMatch(/student template/);
    }
  });
});
