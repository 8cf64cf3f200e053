// PostgreSQL pass: statements billed once under concurrent runs.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessForJob } from '../../src/domain/batches/check-batch';
import { DEFAULT_DUE_DAYS } from '../../src/domain/batches/patient-billing-rows';
import { SEND_CHUNK, sendBatch, submitBatch } from '../../src/domain/batches/submit-batch';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { addDays } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { dayIn, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { createHealthcareBusiness, insertPatient } from '../support/patients';
import { batchesApi, type Batch, type BatchesApi } from '../batches/batch-api';
import { withSource } from '../support/request-rows';
import { Death, raw } from '../support/death';

/**
 * Batch kind `patient-billing` (ADR 037): a file of charges, one row per charge line, grouped by
 * MRN into one statement (one request to the guarantor) per patient. Its checks by field, the
 * grouping, all or nothing per statement (across the file's chunks, with fixes and drops), the
 * statement made once under two submits, two send runs and a crash, and the refusals.
 */

let t: TestApp;
let clinic: ApprovedBusiness;
let otherClinic: ApprovedBusiness;
let standard: ApprovedBusiness;
let school: ApprovedBusiness;
let api: BatchesApi;
let owner: { userId: string; email: string };
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await createHealthcareBusiness(t.app, db(), 'owner@billing-clinic.example');
  otherClinic = await createHealthcareBusiness(t.app, db(), 'owner@billing-other-clinic.example');
  standard = await approvedBusiness(t.app, db(), 'owner@billing-standard-practice.example');
  school = await approvedBusiness(t.app, db(), 'owner@billing-patients-school.example', 'student');
  api = batchesApi(t.app, clinic);
  const user = await db().selectFrom('users').select(['id', 'email']).where('email', '=', clinic.email).executeTakeFirstOrThrow();
  owner = { userId: user.id, email: user.email };
}, 180_000);
afterAll(async () => t?.close());

const HEADER = 'MRN,Date of service,Description,Billed,Insurance paid,Adjustment,Patient responsibility,Memo,Due date';
const COLUMNS = {
  mrn: 'MRN',
  dateOfService: 'Date of service',
  description: 'Description',
  billed: 'Billed',
  insurancePaid: 'Insurance paid',
  adjustment: 'Adjustment',
  patientResponsibility: 'Patient responsibility',
  memo: 'Memo',
  dueDate: 'Due date',
};

let seq = 0;
interface TestPatient {
  id: string;
  mrn: string;
  payerId: string;
  email: string;
}
/** A patient of the business whose guarantor is a new payer with a known e-mail. */
async function patient(businessId: string, firstName: string, lastName: string, over: { status?: 'active' | 'Disabled' } = {}): Promise<TestPatient> {
  const tag = `${++seq}-${Date.now().toString(36)}`;
  const email = `guarantor-${tag}@patients.example`;
  const mrn = `MRN-${tag}`;
  const payerId = await insertPayer(db(), businessId, { email, displayName: `Guarantor of ${firstName}` });
  const { id } = await insertPatient(db(), businessId, { mrn, firstName, lastName, dateOfBirth: '1984-06-02', guarantorPayerId: payerId, ...over });
  return { id, mrn, payerId, email };
}

/** Uploads the rows (after the header) as a patient-billing file and waits for their check. */
async function checked(rows: string[], name = `charges-${++seq}.csv`, who: BatchesApi = api): Promise<Batch> {
  const up = await who.upload([HEADER, ...rows].join('\n'), { query: `kind=patient-billing&fileName=${name}` });
  expect(up.statusCode, up.body).toBe(201);
  const batchId = (up.json().data as Batch).batchId;
  return who.mapped(batchId, { payer: 'existing', columns: COLUMNS });
}

type Groups = { groups?: { valid: number; sent: number } };

async function requestsOf(businessId: string, batchId: string) {
  const rows = await db()
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('batch_id', '=', batchId)
    .orderBy('number')
    .execute();
  return rows.map(withSource);
}

function context(over: Partial<RequestContext> = {}): RequestContext {
  return {
    db: db(),
    mailer: t.runtime.mailer,
    authSecret: t.runtime.config.authSecret,
    previousAuthSecrets: t.runtime.config.previousAuthSecrets,
    publicUrl: t.runtime.config.publicUrl,
    ...over,
  };
}

/** Submitted through the engine with its send job not queued: only the test runs it. */
async function submittedQuietly(batchId: string): Promise<void> {
  const business = (await businessForJob(db(), clinic.businessId))!;
  await submitBatch({ db: db(), jobs: { send: async () => null }, business, batchId, user: owner, body: { mode: 'send' } });
}

/**
 * Every valid row sent exactly once, as one statement per patient: one request per patient, its
 * lines those of the patient's rows in file order, every row linked to it, one e-mail each.
 */
async function expectOneStatementPerPatient(batchId: string, linesOf: Map<string, number[]>) {
  const requests = await requestsOf(clinic.businessId, batchId);
  expect(requests).toHaveLength(linesOf.size);
  expect(new Set(requests.map((r) => r.patient_id)).size).toBe(linesOf.size);
  const rows = await db().selectFrom('batch_rows').select(['line', 'status', 'request_id', 'amount_cents']).where('batch_id', '=', batchId).execute();
  for (const request of requests) {
    const lines = linesOf.get(request.patient_id!)!;
    expect(lines, `patient ${request.patient_id}`).toBeDefined();
    const linked = rows.filter((r) => r.request_id === request.id);
    expect(linked.map((r) => r.line).sort((a, b) => a - b)).toEqual(lines);
    expect(linked.every((r) => r.status === 'sent')).toBe(true);
    expect(request.statement_lines).toHaveLength(lines.length);
    expect(Number(request.amount_cents)).toBe(linked.reduce((sum, r) => sum + Number(r.amount_cents), 0));
  }
  const mails = await db()
    .selectFrom('mail_outbox')
    .select('request_id')
    .where(
      'request_id',
      'in',
      requests.map((r) => r.id),
    )
    .execute();
  expect(mails).toHaveLength(requests.length);
}

describe('upload → map → review → send', () => {
  it('names each bad row by field, and sends one statement per patient with its lines', async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Lopez');
    const leo = await patient(clinic.businessId, 'Leo', 'Lee');
    const kim = await patient(clinic.businessId, 'Kim', 'Park');
    const gone = await patient(clinic.businessId, 'Gone', 'Away', { status: 'Disabled' });
    const foreign = await patient(otherClinic.businessId, 'Far', 'Away');
    const due = dayIn(20);
    const rows = [
      `${ana.mrn},${dayIn(-5)},Office visit,250.00,180.00,20.00,50.00,,${due}`, // 2: valid
      `${ana.mrn.toLowerCase()} ,${dayIn(-7)},X-ray,$120.00,100.00,0,,,`, // 3: valid, computed 20.00; blank due date takes row 2's
      `${leo.mrn},${dayIn(-3)},Physiotherapy session,90.00,0,,90.00,Thank you for visiting,`, // 4: valid, default due date
      `NOPE-1,${dayIn(-3)},Visit,10,0,0,10,,`, // 5: unknown MRN
      `${gone.mrn},${dayIn(-3)},Visit,10,0,0,10,,`, // 6: disabled patient
      `${foreign.mrn},${dayIn(-3)},Visit,10,0,0,10,,`, // 7: another practice's patient
      `${kim.mrn},${dayIn(-3)},Visit,100.00,50.00,0,60.00,,`, // 8: does not add up
      `${kim.mrn},${dayIn(3)},Visit,100,0,0,,,`, // 9: service in the future
      `${kim.mrn},someday,Visit,100,0,0,,,`, // 10: unreadable date
      `${kim.mrn},${dayIn(-3)},,100,0,0,,,`, // 11: no description
      `${kim.mrn},${dayIn(-3)},${'x'.repeat(201)},100,0,0,,,`, // 12: description too long
      `${kim.mrn},${dayIn(-3)},Visit,-5,0,0,,,`, // 13: negative
      `${kim.mrn},${dayIn(-3)},Visit,abc,0,0,,,`, // 14: unreadable amount
      `${kim.mrn},${dayIn(-3)},Visit,100,80,30,,,`, // 15: insurance and adjustment above billed
      `${kim.mrn},${dayIn(-3)},Visit,100,0,0,,,${dayIn(-1)}`, // 16: due date past
      `${kim.mrn},${dayIn(-3)},Visit,100,0,0,,,tomorrow`, // 17: unreadable due date
    ];
    const batch = await checked(rows);
    expect(batch.counts).toMatchObject({ rows: 16, valid: 3, invalid: 13 });
    expect(batch.totalCents).toBe(5_000 + 2_000 + 9_000);
    expect((batch as Groups).groups).toEqual({ valid: 2, sent: 0 });

    const list = (await api.rows(batch.batchId)).items;
    const row = (line: number) => list.find((r) => r.row === line)!;
    expect(row(2)).toMatchObject({ status: 'valid', amountCents: 5_000, payerName: 'Ana Lopez (Guarantor of Ana)' });
    expect(row(3)).toMatchObject({ status: 'valid', amountCents: 2_000 });
    expect(row(4)).toMatchObject({ status: 'valid', amountCents: 9_000, payerName: 'Leo Lee (Guarantor of Leo)' });
    // Never the date of birth on the review.
    expect(JSON.stringify(list)).not.toContain('1984-06-02');
    expect(row(5).errors).toEqual({ mrn: 'No patient has MRN NOPE-1.' });
    expect(row(6).errors).toEqual({ mrn: `Gone Away (MRN ${gone.mrn}) is disabled; enable them first.` });
    expect(row(7).errors).toEqual({ mrn: `No patient has MRN ${foreign.mrn}.` });
    expect(row(8).errors).toEqual({
      patientResponsibility: 'The patient responsibility does not add up: $100.00 billed − $50.00 insurance paid − $0.00 adjustment is $50.00, not $60.00.',
    });
    expect(row(9).errors).toEqual({ dateOfService: 'The date of service cannot be in the future.' });
    expect(row(10).errors.dateOfService).toBe('"someday" is not a date we can read. Write it as 2026-11-20, 11/20/2026 or Nov 20, 2026.');
    expect(row(11).errors).toEqual({ description: 'Enter what was done (the description of the charge).' });
    expect(row(12).errors).toEqual({ description: 'The description is 201 characters; at most 200 fit.' });
    expect(row(13).errors).toEqual({ billed: 'The billed amount cannot be negative.' });
    expect(row(14).errors).toEqual({ billed: '"abc" is not an amount. Write it like 125.50 or $1,234.50.' });
    expect(row(15).errors.insurancePaid).toBe('Insurance paid ($80.00) and the adjustment ($30.00) together are more than the $100.00 billed.');
    expect(row(16).errors).toEqual({ dueDate: 'The due date cannot be in the past.' });
    expect(row(17).errors.dueDate).toContain('"tomorrow" is not a date we can read.');

    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 3, failed: 0, invalid: 13 }, sentCents: 16_000 });
    expect((done as Groups).groups).toEqual({ valid: 0, sent: 2 });

    const [first, second] = await requestsOf(clinic.businessId, batch.batchId);
    const anaRequest = [first, second].find((r) => r!.patient_id === ana.id)!;
    const leoRequest = [first, second].find((r) => r!.patient_id === leo.id)!;
    expect(anaRequest).toMatchObject({
      payer_id: ana.payerId,
      payer_email: ana.email,
      amount_cents: 7_000,
      state: 'Sent',
      patient_name: 'Ana Lopez',
      patient_first_name: 'Ana',
      date_of_service: dayIn(-7),
      due_date: due,
      memo: '',
    });
    expect(anaRequest.statement_lines).toEqual([
      {
        serviceDate: dayIn(-5),
        description: 'Office visit',
        billedCents: 25_000,
        insurancePaidCents: 18_000,
        adjustmentCents: 2_000,
        responsibilityCents: 5_000,
      },
      { serviceDate: dayIn(-7), description: 'X-ray', billedCents: 12_000, insurancePaidCents: 10_000, adjustmentCents: 0, responsibilityCents: 2_000 },
    ]);
    expect(leoRequest).toMatchObject({
      payer_id: leo.payerId,
      amount_cents: 9_000,
      memo: 'Thank you for visiting',
      due_date: dayIn(30),
      patient_first_name: 'Leo',
    });

    // Both rows of Ana link to her one statement; each guarantor got one e-mail.
    const sent = (await api.rows(batch.batchId, '?status=sent')).items;
    expect(sent.filter((r) => r.requestId === anaRequest.id).map((r) => r.row)).toEqual([2, 3]);
    expect(new Set(sent.filter((r) => r.requestId === anaRequest.id).map((r) => r.referenceNumber)).size).toBe(1);
    expect(await outbox(t.app, ana.email)).toHaveLength(1);
    expect(await outbox(t.app, leo.email)).toHaveLength(1);
  });
});

describe('the due date', () => {
  it('left blank on every row, counts from the day the statement is sent, not the day it was checked', async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Late');
    const leo = await patient(clinic.businessId, 'Leo', 'Late');
    const given = dayIn(12);
    const batch = await checked([
      `${ana.mrn},${dayIn(-50)},Office visit,100.00,0,0,,,`,
      `${ana.mrn},${dayIn(-45)},X-ray,40.00,0,0,,,`,
      `${leo.mrn},${dayIn(-50)},Physio,90.00,0,0,,,${given}`,
    ]);
    expect(batch.counts).toMatchObject({ rows: 3, valid: 3, invalid: 0 });
    // As if the batch had been checked 40 days ago: the rows' own defaults (check day + 30) are past.
    const checkedThen = dayIn(-40);
    for (const line of [2, 3]) {
      await db()
        .updateTable('batch_rows')
        .set({
          plan: sql`jsonb_set(jsonb_set(plan, '{dueDate}', to_jsonb(${addDays(checkedThen, DEFAULT_DUE_DAYS)}::text)), '{expiresOn}', to_jsonb(${addDays(checkedThen, 60)}::text))`,
        })
        .where('batch_id', '=', batch.batchId)
        .where('line', '=', line)
        .execute();
    }

    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 3, failed: 0 } });
    const made = await requestsOf(clinic.businessId, batch.batchId);
    // Nobody chose Ana's due date: today (the practice's) + 30. Leo's stays the one the file gave.
    expect(made.find((r) => r.patient_id === ana.id)).toMatchObject({ due_date: dayIn(DEFAULT_DUE_DAYS), amount_cents: 14_000, state: 'Sent' });
    expect(made.find((r) => r.patient_id === leo.id)).toMatchObject({ due_date: given, state: 'Sent' });
  });
});

describe('the payment plan', () => {
  it('a statement may be paid in parts unless one of its charges says no; a cell that is not yes or no is named', async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Plan');
    const leo = await patient(clinic.businessId, 'Leo', 'Plan');
    const mia = await patient(clinic.businessId, 'Mia', 'Plan');
    const header = `${HEADER},Payment plan`;
    const up = await api.upload(
      [
        header,
        `${ana.mrn},${dayIn(-3)},Office visit,100.00,0,0,,,,`,
        `${leo.mrn},${dayIn(-3)},Office visit,100.00,0,0,,,,yes`,
        `${leo.mrn},${dayIn(-3)},X-ray,50.00,0,0,,,,no`,
        `${mia.mrn},${dayIn(-3)},Office visit,100.00,0,0,,,,maybe`,
      ].join('\n'),
      { query: `kind=patient-billing&fileName=plans-${++seq}.csv` },
    );
    expect(up.statusCode, up.body).toBe(201);
    const batch = await api.mapped((up.json().data as Batch).batchId, { payer: 'existing', columns: { ...COLUMNS, paymentPlan: 'Payment plan' } });
    expect(batch.counts).toMatchObject({ rows: 4, valid: 3, invalid: 1 });
    const rows = (await api.rows(batch.batchId, '?status=invalid')).items;
    expect(rows[0]!.errors).toMatchObject({ paymentPlan: '"maybe" is not yes or no.' });
    const dropped = await api.drop(batch.batchId, rows[0]!.row);
    expect(dropped.statusCode, dropped.body).toBe(200);
    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 3, failed: 0 } });
    const made = await requestsOf(clinic.businessId, batch.batchId);
    expect(made.find((r) => r.patient_id === ana.id)).toMatchObject({ allow_partial: true });
    expect(made.find((r) => r.patient_id === leo.id)).toMatchObject({ allow_partial: false, amount_cents: 15_000 });
  });
});

describe('all or nothing per statement', () => {
  it("holds back a patient's other charges while one has an error; fixing or dropping it frees them", async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Moss');
    const leo = await patient(clinic.businessId, 'Leo', 'Moss');
    const mia = await patient(clinic.businessId, 'Mia', 'Moss');
    const rows = [
      `${ana.mrn},${dayIn(-5)},Office visit,250.00,180.00,20.00,,,`, // 2: held back by 4
      `${ana.mrn},${dayIn(-5)},X-ray,120.00,100.00,0,,,`, // 3: held back by 4
      `${ana.mrn},${dayIn(-5)},Lab work,80.00,lots,0,,,`, // 4: bad amount
      `${leo.mrn},${dayIn(-4)},Physio,90.00,0,0,,,`, // 5: held back by its repeat
      `${leo.mrn},${dayIn(-4)},Physio,90.00,0,0,,,`, // 6: repeat of 5
      `${leo.mrn},${dayIn(-2)},Physio,90.00,0,0,,,`, // 7: held back by 6
      `${mia.mrn},${dayIn(-1)},Cleaning,150.00,100.00,0,,Memo A,${dayIn(20)}`, // 8: due dates disagree
      `${mia.mrn},${dayIn(-1)},Filling,200.00,100.00,0,,,${dayIn(25)}`, // 9
    ];
    const batch = await checked(rows);
    expect(batch.counts).toMatchObject({ rows: 8, valid: 0, invalid: 8 });
    const errors = async (line: number) => (await api.row(batch.batchId, line)).errors;
    const heldBack = (line: number) => ({ row: `Another charge of this patient (row ${line}) has an error: fix or drop it to send this statement.` });
    expect(await errors(2)).toEqual(heldBack(4));
    expect(await errors(3)).toEqual(heldBack(4));
    expect((await errors(4)).insurancePaid).toContain('"lots" is not an amount');
    expect((await errors(6)).row).toBe(
      'Same patient, date of service, description and amounts as line 5 of the file. Drop one of them if it was entered twice, or tell the two charges apart in the description.',
    );
    expect(await errors(5)).toEqual(heldBack(6));
    expect(await errors(7)).toEqual(heldBack(6));
    expect((await errors(8)).dueDate).toBe(
      `The charges of Mia Moss (rows 8 and 9) give different due dates (${dayIn(20)}, ${dayIn(25)}); a statement has one. Write the same due date on each, or leave all but one blank.`,
    );
    expect(await errors(9)).toEqual(await errors(8));
    // Nothing to send yet.
    const refused = await api.submit(batch.batchId, { mode: 'send' }, `nothing-${batch.batchId}`);
    expect(refused.statusCode).toBe(400);

    // Fixing Ana's bad row frees her other two; dropping Leo's repeat frees his; a blank due date agrees.
    const fixed = await api.fix(batch.batchId, 4, { insurancePaid: '60.00' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data.row).toMatchObject({ status: 'valid', amountCents: 2_000 });
    expect((await api.drop(batch.batchId, 6)).statusCode).toBe(200);
    expect((await api.fix(batch.batchId, 9, { dueDate: '' })).statusCode).toBe(200);
    const review = await api.batch(batch.batchId);
    expect(review.counts).toMatchObject({ rows: 7, valid: 7, invalid: 0 });
    expect((review as Groups).groups).toEqual({ valid: 3, sent: 0 });
    expect(review.totalCents).toBe(5_000 + 2_000 + 2_000 + 9_000 + 9_000 + 5_000 + 10_000);

    // Breaking one of Ana's rows again holds the others back again.
    await api.fix(batch.batchId, 3, { billed: '' });
    expect(await errors(2)).toEqual(heldBack(3));
    expect(await errors(4)).toEqual(heldBack(3));
    expect((await errors(3)).billed).toBe('Enter the billed amount.');
    expect(((await api.batch(batch.batchId)) as Groups).groups).toEqual({ valid: 2, sent: 0 });

    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 4, invalid: 3 } });
    const made = await requestsOf(clinic.businessId, batch.batchId);
    expect(made.map((r) => r.patient_id).sort()).toEqual([leo.id, mia.id].sort());
    const miaRequest = made.find((r) => r.patient_id === mia.id)!;
    expect(miaRequest).toMatchObject({ amount_cents: 15_000, due_date: dayIn(20), memo: 'Memo A' });
    // Ana's held-back rows made nothing.
    expect((await api.rows(batch.batchId, '?status=invalid')).items.map((r) => [r.row, r.requestId])).toEqual([
      [2, null],
      [3, null],
      [4, null],
    ]);
  });

  it('a patient whose rows are far apart (different check and send chunks) is held back by a late error, and sent as one statement', async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Far');
    const bob = await patient(clinic.businessId, 'Bob', 'Far');
    const fillers = await Promise.all(Array.from({ length: 11 }, (_, i) => patient(clinic.businessId, `Filler${i}`, 'Patient')));
    const rows = [`${ana.mrn},${dayIn(-9)},First visit,100.00,0,0,,,`, `${bob.mrn},${dayIn(-9)},First visit,100.00,0,0,,,`];
    for (let i = 0; i < SEND_CHUNK + 20; i++) rows.push(`${fillers[i % 11]!.mrn},${dayIn(-3)},Session ${i},10.00,0,0,,,`);
    rows.push(`${ana.mrn},${dayIn(-1)},Follow-up,40.00,0,0,,,`);
    rows.push(`${bob.mrn},${dayIn(-1)},Follow-up,forty,0,0,,,`);
    const lastAna = rows.length; // the file's line of Ana's second charge (the header is line 1)
    const badBob = rows.length + 1;
    const batch = await checked(rows);
    expect(batch.counts).toMatchObject({ rows: rows.length, valid: rows.length - 2, invalid: 2 });
    expect((await api.row(batch.batchId, 3)).errors).toEqual({
      row: `Another charge of this patient (row ${badBob}) has an error: fix or drop it to send this statement.`,
    });
    expect((await api.drop(batch.batchId, badBob)).statusCode).toBe(200);
    expect(((await api.batch(batch.batchId)) as Groups).groups).toEqual({ valid: 13, sent: 0 });

    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: rows.length - 1, failed: 0 } });
    const linesOf = new Map<string, number[]>([
      [ana.id, [2, lastAna]],
      [bob.id, [3]],
    ]);
    fillers.forEach((f, k) =>
      linesOf.set(
        f.id,
        Array.from({ length: SEND_CHUNK + 20 }, (_, i) => i)
          .filter((i) => i % 11 === k)
          .map((i) => i + 4),
      ),
    );
    await expectOneStatementPerPatient(batch.batchId, linesOf);
    const anaRequest = (await requestsOf(clinic.businessId, batch.batchId)).find((r) => r.patient_id === ana.id)!;
    expect(anaRequest).toMatchObject({ amount_cents: 14_000, date_of_service: dayIn(-9) });
  });
});

describe('exactly once', () => {
  /** Two patients over three rows, checked, in review. */
  async function threeRows(): Promise<{ batchId: string; linesOf: Map<string, number[]> }> {
    const ana = await patient(clinic.businessId, 'Ana', 'Once');
    const leo = await patient(clinic.businessId, 'Leo', 'Once');
    const batch = await checked([
      `${ana.mrn},${dayIn(-2)},Visit,100.00,40.00,0,,,`,
      `${leo.mrn},${dayIn(-2)},Visit,80.00,0,0,,,`,
      `${ana.mrn},${dayIn(-1)},Lab,30.00,0,5.00,25.00,,`,
    ]);
    expect(batch.counts).toMatchObject({ valid: 3 });
    return {
      batchId: batch.batchId,
      linesOf: new Map([
        [ana.id, [2, 4]],
        [leo.id, [3]],
      ]),
    };
  }

  it('two submits at once: one is refused, and each statement is made once', async () => {
    const { batchId, linesOf } = await threeRows();
    const [a, b] = await Promise.all([api.submit(batchId, { mode: 'send' }, `race-a-${batchId}`), api.submit(batchId, { mode: 'send' }, `race-b-${batchId}`)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    await api.until(batchId, (x) => x.phase === 'done');
    await expectOneStatementPerPatient(batchId, linesOf);
    const ana = (await requestsOf(clinic.businessId, batchId)).find((r) => r.statement_lines?.length === 2)!;
    expect(ana.amount_cents).toBe(6_000 + 2_500);
  });

  it('two send runs at once share the batch: each statement once', async () => {
    const { batchId, linesOf } = await threeRows();
    await submittedQuietly(batchId);
    await Promise.all([sendBatch(context(), { businessId: clinic.businessId, batchId }), sendBatch(context(), { businessId: clinic.businessId, batchId })]);
    await expectOneStatementPerPatient(batchId, linesOf);
    expect(await api.batch(batchId)).toMatchObject({ state: 'Processed', counts: { sent: 3 } });
    // A late duplicate of the job changes nothing.
    await sendBatch(context(), { businessId: clinic.businessId, batchId });
    expect(await requestsOf(clinic.businessId, batchId)).toHaveLength(2);
  });

  /** A batch of two send chunks: patients reached by the first (one far beyond it), and three only in the second. */
  async function twoChunks() {
    const fillers = await Promise.all(Array.from({ length: 11 }, (_, i) => patient(clinic.businessId, `Crash${i}`, 'Patient')));
    const late = await Promise.all(Array.from({ length: 3 }, (_, i) => patient(clinic.businessId, `Late${i}`, 'Patient')));
    const rows: string[] = [];
    const linesOf = new Map<string, number[]>();
    const add = (p: TestPatient, row: string) => {
      rows.push(row);
      linesOf.set(p.id, [...(linesOf.get(p.id) ?? []), rows.length + 1]);
    };
    for (let i = 0; i < SEND_CHUNK; i++) add(fillers[i % 11]!, `${fillers[i % 11]!.mrn},${dayIn(-3)},Session ${i},10.00,0,0,,,`);
    add(fillers[0]!, `${fillers[0]!.mrn},${dayIn(-2)},Far charge,15.00,0,0,,,`);
    for (const [i, p] of late.entries()) {
      add(p, `${p.mrn},${dayIn(-2)},Late visit ${i},20.00,0,0,,,`);
      add(p, `${p.mrn},${dayIn(-1)},Late lab ${i},5.00,0,0,,,`);
    }
    const batch = await checked(rows);
    expect(batch.counts).toMatchObject({ valid: rows.length, invalid: 0 });
    await submittedQuietly(batch.batchId);
    return { batchId: batch.batchId, linesOf, firstChunk: SEND_CHUNK + 1, total: rows.length };
  }

  it('the mailer fails in the second chunk: the first stays sent whole, the retry sends the rest, each statement once', async () => {
    const { batchId, linesOf, firstChunk, total } = await twoChunks();
    let calls = 0;
    const real = t.runtime.mailer;
    const failing: RequestContext['mailer'] = {
      send: (...args) => real.send(...args),
      sendText: (...args) => real.sendText(...args),
      async sendMany(emails, texts, executor) {
        calls += 1;
        if (calls === 2) {
          await real.sendMany(emails.slice(0, 1), [], executor);
          throw new Error('the process was killed');
        }
        return real.sendMany(emails, texts, executor);
      },
    };
    await expect(sendBatch(context({ mailer: failing }), { businessId: clinic.businessId, batchId })).rejects.toThrow('the process was killed');
    const after = await db().selectFrom('batch_rows').select(['line', 'status']).where('batch_id', '=', batchId).execute();
    // The first chunk went with the far charge of its first patient; the late patients wait whole.
    expect(after.filter((r) => r.status === 'sent')).toHaveLength(firstChunk);
    expect(after.filter((r) => r.status === 'valid')).toHaveLength(total - firstChunk);
    expect(await requestsOf(clinic.businessId, batchId)).toHaveLength(11);

    await sendBatch(context(), { businessId: clinic.businessId, batchId });
    await expectOneStatementPerPatient(batchId, linesOf);
    expect(await api.batch(batchId)).toMatchObject({ state: 'Processed', counts: { sent: total, failed: 0 }, progress: { done: total, total } });
  });

  it('killed after writing a chunk\u2019s statements but before marking its rows: the rerun makes each once', async () => {
    const { batchId, linesOf, total } = await twoChunks();
    const death = new Death(raw('UPDATE batch_rows r SET'), 2);
    await expect(sendBatch(context({ db: db().withPlugin(death) }), { businessId: clinic.businessId, batchId })).rejects.toThrow('the process was killed');
    expect(await requestsOf(clinic.businessId, batchId)).toHaveLength(11);
    await sendBatch(context(), { businessId: clinic.businessId, batchId });
    await expectOneStatementPerPatient(batchId, linesOf);
    expect(await api.batch(batchId)).toMatchObject({ state: 'Processed', counts: { sent: total } });
  });
});

/** Once dead, nothing of this process reaches the database; it dies at the `nth` statement `at` matches. */
describe('refusals', () => {
  it('a business of another template cannot make or read patient billing batches (404)', async () => {
    for (const who of [standard, school]) {
      const res = await batchesApi(t.app, who).upload([HEADER, 'MRN-1,2026-01-01,Visit,10,0,0,,,'].join('\n'), {
        query: 'kind=patient-billing&fileName=charges.csv',
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res).message).toBe('Patients and patient statements belong to the healthcare template, and this business does not use it.');
    }
  });

  it("another practice's batch is not found (404), and its rows are not read", async () => {
    const ana = await patient(clinic.businessId, 'Ana', 'Private');
    const batch = await checked([`${ana.mrn},${dayIn(-2)},Visit,100.00,0,0,,,`]);
    const theirs = batchesApi(t.app, otherClinic);
    expect((await theirs.get(batch.batchId)).statusCode).toBe(404);
    expect((await theirs.rowsRes(batch.batchId)).statusCode).toBe(404);
    expect((await theirs.submit(batch.batchId)).statusCode).toBe(404);
    // The other practice's file naming this practice's MRN finds no such patient.
    const foreign = await checked([`${ana.mrn},${dayIn(-2)},Visit,100.00,0,0,,,`], 'theirs.csv', theirs);
    expect((await theirs.row(foreign.batchId, 2)).errors).toEqual({ mrn: `No patient has MRN ${ana.mrn}.` });
  });
});
