// PostgreSQL pass: a batch submitted once, its rows sent by the job queue.
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBatch } from '../../src/domain/batches/submit-batch';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get } from '../support/identity';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { batchesApi, requestsOfBatch, type Batch, type BatchesApi, type Row } from './batch-api';

/**
 * Submitting a batch: its valid rows become requests to pay, each exactly once, sent now or at a
 * time; and every way a submission (or a change after it) is refused.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let api: BatchesApi;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'submit-owner@example.com');
  api = batchesApi(t.app, acme);
}, 120_000);
afterAll(async () => t?.close());

const due = () => dayIn(15);
const columns = { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference', memo: 'Memo' };
let serial = 0;

/** Payers of the test's own (so their outboxes hold only its e-mails), and a checked batch for them. */
async function checkedBatch(valid: number, { invalid = 0, fileName = 'submit.csv' } = {}) {
  serial += 1;
  const emails: string[] = [];
  for (let i = 0; i < valid; i++) {
    const email = `p${serial}-${i}@payers.example`;
    await insertPayer(db(), acme.businessId, { email, displayName: `Payer ${serial}-${i}` });
    emails.push(email);
  }
  const lines = ['Email,Amount,Due date,Reference,Memo'];
  emails.forEach((email, i) => lines.push(`${email},${10 + i},${due()},B${serial}-${i},Tuition ${i}`));
  for (let i = 0; i < invalid; i++) lines.push(`ghost${serial}-${i}@payers.example,5,${due()},G${i},x`);
  const up = await api.uploaded(lines.join('\n'), fileName);
  const b = await api.mapped(up.batchId, { columns });
  expect(b.counts).toMatchObject({ rows: valid + invalid, valid, invalid });
  return { batch: b, emails };
}

function context(): RequestContext {
  const { mailer, config } = t.runtime;
  return { db: db(), mailer, authSecret: config.authSecret, previousAuthSecrets: config.previousAuthSecrets, publicUrl: config.publicUrl };
}

async function outbox(to: string): Promise<{ subject: string; text: string }[]> {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as { subject: string; text: string }[];
}

async function audit() {
  const res = await get(t.app, `/api/businesses/${acme.businessId}/audit?pageSize=100`, acme.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as { action: string; actor: string; summary: string; details: Record<string, unknown> }[];
}

describe('submitting now', () => {
  it('202 Submitted, then Processed: each valid row linked to its request, sent by e-mail with its pay link', async () => {
    const { batch, emails } = await checkedBatch(3, { invalid: 1, fileName: 'june.csv' });
    const res = await api.submit(batch.batchId, { mode: 'send' }, `june-${batch.batchId}`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({
      batchId: batch.batchId,
      state: 'Submitted',
      phase: 'sending',
      progress: { done: 0, total: 3 },
      submittedBy: 'submit-owner@example.com',
      sendAt: null,
      submittedAt: expect.any(String),
    });
    const done = await api.until(batch.batchId, (b) => b.phase === 'done');
    expect(done).toMatchObject({
      state: 'Processed',
      counts: { rows: 4, valid: 0, invalid: 1, sent: 3, failed: 0 },
      totalCents: 1000 + 1100 + 1200,
      sentCents: 1000 + 1100 + 1200,
      progress: { done: 3, total: 3 },
      processedAt: expect.any(String),
    });

    const sent = await api.rows(batch.batchId, '?status=sent');
    expect(sent.total).toBe(3);
    const made = await requestsOfBatch(db(), acme.businessId, batch.batchId);
    expect(made).toHaveLength(3);
    expect(new Set(sent.items.map((r) => r.requestId))).toEqual(new Set(made.map((r) => r.id)));
    for (const row of sent.items) {
      const request = made.find((r) => r.id === row.requestId)!;
      expect(row.referenceNumber).toBe(`TRX-${request.number}`);
      expect([request.payer_email, request.amount_cents, request.reference, request.state]).toEqual([
        row.fields.email,
        row.amountCents,
        row.fields.reference,
        'Sent',
      ]);
    }
    // Numbered one after another.
    expect(made.map((r) => Number(r.number) - Number(made[0]!.number))).toEqual([0, 1, 2]);

    const history = await get(t.app, `/api/businesses/${acme.businessId}/payment-requests?batchId=${batch.batchId}`, acme.token);
    expect(history.statusCode, history.body).toBe(200);
    const listed = history.json().data as { total: number; items: { transactionId: string; transactionState: string; referenceNumber: string }[] };
    expect(listed.total).toBe(3);
    expect(new Set(listed.items.map((r) => r.transactionId))).toEqual(new Set(made.map((r) => r.id)));
    expect(listed.items.every((r) => r.transactionState === 'Sent')).toBe(true);
    const detail = await get(t.app, `/api/businesses/${acme.businessId}/payment-requests/${made[0]!.id}`, acme.token);
    expect(detail.json().data).toMatchObject({ batch: { batchId: batch.batchId, fileName: 'june.csv' }, transactionState: 'Sent' });

    for (const [i, email] of emails.entries()) {
      const mails = await outbox(email);
      expect(mails, email).toHaveLength(1);
      const request = made.find((r) => r.payer_email === email)!;
      expect(mails[0]!.subject).toContain(`(TRX-${request.number})`);
      expect(mails[0]!.text).toContain(`For: Tuition ${i}`);
      const token = mails[0]!.text.match(/\/pay\/(\S+)/)?.[1];
      expect(token, mails[0]!.text).toBeTruthy();
      // The link opens that request for the payer.
      const page = await t.app.inject({ method: 'GET', url: `/api/public/pay/${token}` });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().data).toMatchObject({ referenceNumber: `TRX-${request.number}`, amountCents: request.amount_cents });
    }
    // The invalid row was not sent.
    expect(await outbox('ghost1-0@payers.example')).toEqual([]);
  });

  it('a kind not sent in groups counts no groups: its batch keeps 0 statements and says nothing of them', async () => {
    const { batch } = await checkedBatch(2);
    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 2 } });
    expect(done).not.toHaveProperty('groups');
    const stored = await db().selectFrom('batches').select(['group_count', 'sent_group_count']).where('id', '=', batch.batchId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ group_count: 0, sent_group_count: 0 });
  });

  it('a second submit is 409, whatever its key; the same key and body replay the stored answer', async () => {
    const { batch } = await checkedBatch(2);
    const first = await api.submit(batch.batchId, { mode: 'send' }, 'replay-key');
    expect(first.statusCode, first.body).toBe(202);
    const replay = await api.submit(batch.batchId, { mode: 'send' }, 'replay-key');
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toEqual(first.json());
    const otherKey = await api.submit(batch.batchId, { mode: 'send' }, 'another-key');
    expect(otherKey.statusCode).toBe(409);
    expect(errorOf(otherKey).message).toMatch(/^This batch was (submitted|processed) already, so it cannot be submitted again\.$/);
    const noKey = await api.submit(batch.batchId);
    expect(noKey.statusCode).toBe(409);
    const sameKeyOtherBody = await api.submit(batch.batchId, { mode: 'schedule', sendAt: new Date(Date.now() + 86_400_000).toISOString() }, 'replay-key');
    expect(sameKeyOtherBody.statusCode).toBe(422);
    await api.until(batch.batchId, (b) => b.phase === 'done');
    const late = await api.submit(batch.batchId, { mode: 'send' }, 'late-key');
    expect(errorOf(late)).toEqual({ code: 'CONFLICT', message: 'This batch was processed already, so it cannot be submitted again.' });
    // Still the stored answer after the batch moved on.
    expect((await api.submit(batch.batchId, { mode: 'send' }, 'replay-key')).json()).toEqual(first.json());
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toHaveLength(2);
  });

  it('two submits at once with different keys: one 202, one 409, and each row is sent once', async () => {
    const { batch } = await checkedBatch(6);
    const [a, b] = await Promise.all([
      api.submit(batch.batchId, { mode: 'send' }, `race-a-${batch.batchId}`),
      api.submit(batch.batchId, { mode: 'send' }, `race-b-${batch.batchId}`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    const done = await api.until(batch.batchId, (x) => x.phase === 'done');
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 6, failed: 0 } });
    const made = await requestsOfBatch(db(), acme.businessId, batch.batchId);
    expect(made).toHaveLength(6);
    const rowRequests = (await api.rows(batch.batchId)).items.map((r) => r.requestId);
    expect(new Set(rowRequests).size).toBe(6);
    const submittedForThis = await db()
      .selectFrom('business_events')
      .select('details')
      .where('business_id', '=', acme.businessId)
      .where('action', '=', 'batch.submitted')
      .execute();
    expect(submittedForThis.filter((e) => (e.details as { batchId?: string }).batchId === batch.batchId)).toHaveLength(1);
  });
});

describe('submitting at a time', () => {
  const later = () => new Date(Date.now() + 2 * 86_400_000).toISOString();

  it('the batch waits as one: no request and no e-mail yet, and while it waits it cannot be changed, submitted again or discarded', async () => {
    const { batch, emails } = await checkedBatch(2, { invalid: 1 });
    const sendAt = later();
    const res = await api.submit(batch.batchId, { mode: 'schedule', sendAt }, `schedule-${batch.batchId}`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ state: 'Submitted', phase: 'validated', sendAt, submittedBy: 'submit-owner@example.com' });
    // The queued start, run before its time, changes nothing.
    await sendBatch(context(), { businessId: acme.businessId, batchId: batch.batchId });
    expect(await api.batch(batch.batchId)).toMatchObject({ state: 'Submitted', phase: 'validated', counts: { valid: 2, sent: 0 } });
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toEqual([]);
    for (const email of emails) expect(await outbox(email)).toEqual([]);

    const refusals = [
      [await api.fix(batch.batchId, 4, { email: emails[0]! }), 'its rows cannot change'],
      [await api.drop(batch.batchId, 2), 'its rows cannot change'],
      [await api.map(batch.batchId, { columns }), 'its mapping cannot change'],
      [await api.discard(batch.batchId), 'it cannot be discarded'],
      [await api.submit(batch.batchId, { mode: 'send' }, `now-${batch.batchId}`), 'it cannot be submitted again'],
    ] as const;
    for (const [answer, what] of refusals) {
      expect(answer.statusCode, answer.body).toBe(409);
      expect(errorOf(answer)).toEqual({ code: 'CONFLICT', message: `This batch was submitted already, so ${what}.` });
    }
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toEqual([]);
  });

  it('taken back to review, it is a Draft again: fixed, then sent now, each row once; its old start does nothing', async () => {
    const { batch, emails } = await checkedBatch(2, { invalid: 1, fileName: 'taken-back.csv' });
    expect((await api.submit(batch.batchId, { mode: 'schedule', sendAt: later() }, `s-${batch.batchId}`)).statusCode).toBe(202);
    const back = await api.unschedule(batch.batchId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toMatchObject({ state: 'Draft', phase: 'validated', sendAt: null, submittedAt: null, submittedBy: null });
    const again = await api.unschedule(batch.batchId);
    expect(errorOf(again)).toEqual({ code: 'CONFLICT', message: 'This batch is not scheduled.' });

    const fixed = await api.fix(batch.batchId, 4, { email: emails[0]!, reference: 'FIXED' });
    expect(fixed.json().data.batch).toMatchObject({ counts: { valid: 3, invalid: 0 } });
    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 3 }, sendAt: null });
    // The start queued for the old time comes, and finds nothing to do.
    await db()
      .updateTable('batches')
      .set({ send_at: new Date(Date.now() - 60_000) })
      .where('id', '=', batch.batchId)
      .execute();
    await sendBatch(context(), { businessId: acme.businessId, batchId: batch.batchId });
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toHaveLength(3);
    expect(await outbox(emails[0]!)).toHaveLength(2);
    const late = await api.unschedule(batch.batchId);
    expect(errorOf(late)).toEqual({ code: 'CONFLICT', message: 'This batch has started sending, so it cannot be taken back.' });
    const entry = (await audit()).find((e) => e.action === 'batch.unscheduled' && e.details.batchId === batch.batchId);
    expect(entry).toMatchObject({ actor: 'submit-owner@example.com', summary: 'Took the scheduled bulk batch taken-back.csv back to review' });
  });

  it.each([
    ['a time in the past', { mode: 'schedule', sendAt: new Date(Date.now() - 60_000).toISOString() }, 'sendAt'],
    ['no time', { mode: 'schedule' }, 'sendAt'],
    ['a time without an offset', { mode: 'schedule', sendAt: '2030-01-01T10:00:00' }, 'sendAt'],
    ['an unknown mode', { mode: 'later' }, 'mode'],
  ])('%s: 400 naming the field, and the batch stays a Draft', async (_name, body, field) => {
    const { batch } = await checkedBatch(1);
    const res = await api.submit(batch.batchId, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toContain(field);
    expect(await api.batch(batch.batchId)).toMatchObject({ state: 'Draft', phase: 'validated' });
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toEqual([]);
  });

  it('the past-time message', async () => {
    const { batch } = await checkedBatch(1);
    const res = await api.submit(batch.batchId, { mode: 'schedule', sendAt: new Date(Date.now() - 60_000).toISOString() });
    expect(errorOf(res)).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The send time must be in the future.',
      fields: { sendAt: 'Choose a time in the future.' },
    });
  });
});

describe('a submission that is refused', () => {
  it('before the columns are mapped: 409', async () => {
    const up = await api.uploaded(`Email,Amount,Due date\nx@payers.example,1,${due()}\n`);
    const res = await api.submit(up.batchId);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'CONFLICT', message: 'Map the columns of the file and check its rows first.' });
    expect((await api.batch(up.batchId)).state).toBe('Draft');
  });

  it('with no valid row: 400', async () => {
    const { batch } = await checkedBatch(0, { invalid: 2 });
    const res = await api.submit(batch.batchId);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('No row of this batch is valid, so there is nothing to send. Fix or drop the rows with errors first.');
    expect((await api.batch(batch.batchId)).state).toBe('Draft');
  });

  it('a batch that does not exist: 404', async () => {
    const res = await api.submit('bat_nothing');
    expect(res.statusCode).toBe(404);
  });
});

describe('after submitting, the batch no longer changes', () => {
  let batch: Batch;
  beforeAll(async () => {
    batch = (await checkedBatch(2, { invalid: 1 })).batch;
    await api.sent(batch.batchId);
  });

  it.each([
    ['fix a row', () => api.fix(batch.batchId, 4, { email: 'p1-0@payers.example' }), 'its rows cannot change'],
    ['drop a row', () => api.drop(batch.batchId, 4), 'its rows cannot change'],
    ['map again', () => api.map(batch.batchId, { columns }), 'its mapping cannot change'],
    ['discard it', () => api.discard(batch.batchId), 'it cannot be discarded'],
  ])('%s: 409', async (_name, act, what) => {
    const res = await act();
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'CONFLICT', message: `This batch was processed already, so ${what}.` });
    expect(await api.batch(batch.batchId)).toMatchObject({ state: 'Processed', counts: { rows: 3, sent: 2, invalid: 1 } });
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toHaveLength(2);
  });

  it('while it is being sent too: 409 "submitted already"', async () => {
    const { batch: sending } = await checkedBatch(1);
    // As a submission under way leaves it (its job not run yet).
    await db().updateTable('batches').set({ state: 'Submitted', phase: 'sending' }).where('id', '=', sending.batchId).execute();
    const res = await api.discard(sending.batchId);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('This batch was submitted already, so it cannot be discarded.');
    expect((await api.fix(sending.batchId, 2, { amount: '1' })).statusCode).toBe(409);
  });
});

describe('discarding a Draft', () => {
  it('204: the batch, its rows and its file are gone (404 after), nothing was sent', async () => {
    const { batch } = await checkedBatch(2, { invalid: 1, fileName: 'mistake.csv' });
    const res = await api.discard(batch.batchId);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await api.get(batch.batchId)).statusCode).toBe(404);
    expect((await api.rowsRes(batch.batchId)).statusCode).toBe(404);
    expect((await api.errorsCsv(batch.batchId)).statusCode).toBe(404);
    expect((await api.submit(batch.batchId)).statusCode).toBe(404);
    expect((await api.discard(batch.batchId)).statusCode).toBe(404);
    expect(await db().selectFrom('batch_rows').select('line').where('batch_id', '=', batch.batchId).execute()).toEqual([]);
    expect(await db().selectFrom('batch_files').select('batch_id').where('batch_id', '=', batch.batchId).execute()).toEqual([]);
    expect(await requestsOfBatch(db(), acme.businessId, batch.batchId)).toEqual([]);
    const entry = (await audit()).find((e) => e.action === 'batch.discarded' && e.details.batchId === batch.batchId);
    expect(entry).toMatchObject({ actor: 'submit-owner@example.com', summary: 'Discarded the bulk batch mistake.csv' });
  });

  it('an uploaded batch never mapped can be discarded too', async () => {
    const up = await api.uploaded(`Email,Amount,Due date\nx@payers.example,1,${due()}\n`);
    expect((await api.discard(up.batchId)).statusCode).toBe(204);
    expect((await api.get(up.batchId)).statusCode).toBe(404);
  });
});

describe('a row that can no longer be sent when its turn comes', () => {
  it('a payer deactivated between the check and the submit: that row fails with its reason, the others are sent, the batch ends in Error', async () => {
    const { batch, emails } = await checkedBatch(3);
    await db().updateTable('payers').set({ status: 'Disabled' }).where('business_id', '=', acme.businessId).where('email', '=', emails[1]!).execute();
    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Error', counts: { rows: 3, valid: 0, sent: 2, failed: 1 }, sentCents: 1000 + 1200 });
    const failed = await api.rows(batch.batchId, '?status=failed');
    expect(failed.items.map((r: Row) => [r.row, r.errors, r.requestId])).toEqual([
      [3, { row: `Payer ${serial}-1 is deactivated; activate them first.` }, null],
    ]);
    const made = await requestsOfBatch(db(), acme.businessId, batch.batchId);
    expect(made.map((r) => r.payer_email)).toEqual([emails[0], emails[2]]);
    expect(await outbox(emails[1]!)).toEqual([]);
    // The export lists it with why.
    const csv = parse((await api.errorsCsv(batch.batchId)).body) as string[][];
    expect(csv.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([['3', `Row: Payer ${serial}-1 is deactivated; activate them first.`]]);
  });

  it('a due date that passed between the check and the send fails that row', async () => {
    const { batch } = await checkedBatch(2);
    // The row was checked when its due date was still ahead.
    await db()
      .updateTable('batch_rows')
      .set({ plan: sql`jsonb_set(plan, '{dueDate}', to_jsonb(${dayIn(-2)}::text))` })
      .where('batch_id', '=', batch.batchId)
      .where('line', '=', 2)
      .execute();
    const done = await api.sent(batch.batchId);
    expect(done).toMatchObject({ state: 'Error', counts: { sent: 1, failed: 1 } });
    expect((await api.row(batch.batchId, 2)).errors).toEqual({ row: 'The due date is now in the past.' });
  });
});

describe('the audit log', () => {
  it('shows who uploaded and who submitted a batch, with its file name and rows', async () => {
    const { batch } = await checkedBatch(2, { invalid: 1, fileName: 'audited.csv' });
    await api.sent(batch.batchId);
    const entries = (await audit()).filter((e) => e.details.batchId === batch.batchId);
    expect(entries.map((e) => e.action).sort()).toEqual(['batch.mapped', 'batch.submitted', 'batch.uploaded']);
    expect(entries.find((e) => e.action === 'batch.uploaded')).toMatchObject({
      actor: 'submit-owner@example.com',
      summary: 'Uploaded audited.csv (3 rows) for a bulk request',
      details: { fileName: 'audited.csv', rows: 3, kind: 'requests' },
    });
    expect(entries.find((e) => e.action === 'batch.submitted')).toMatchObject({
      actor: 'submit-owner@example.com',
      summary: 'Submitted the bulk batch audited.csv: 2 requests',
      details: { fileName: 'audited.csv', rows: 2, totalCents: 2100, mode: 'send' },
    });
  });
});
