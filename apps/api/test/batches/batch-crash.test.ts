// PostgreSQL pass: a worker killed mid-batch: its rows' locks and the transaction it held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessForJob, CHECK_CHUNK, checkBatch, mapBatch } from '../../src/domain/batches/check-batch';
import { resumeBatches, SEND_CHUNK, sendBatch, submitBatch } from '../../src/domain/batches/submit-batch';
import type { RequestContext } from '../../src/domain/payment-requests/request-context';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { Death, insertsInto, raw, type StatementMatch } from '../support/death';
import { batchesApi, requestsOfBatch, type BatchesApi } from './batch-api';

/**
 * Exactly once under a crash: the `batches.send` job (sendBatch) dies in the middle of its work —
 * its mailer fails, or the process is killed at a chosen statement — and is run again (the queue's
 * retry, or `resumeBatches` sweeping a run whose heartbeat stopped). Every valid row must then be
 * a request exactly once: none lost, none twice, each with one e-mail, numbered without gaps.
 *
 * The dying run is called directly, with a context of its own; the batch is submitted without
 * queueing its job, so only the test runs it until the restart hands it to the app's workers.
 */

let t: TestApp;
let acme: ApprovedBusiness;
let api: BatchesApi;
let owner: { userId: string; email: string };
const db = () => t.runtime.database.db;

/** More than two chunks: the crash falls between committed chunks and chunks still to come. */
const ROWS = 2 * SEND_CHUNK + 250;
const PAYERS = 5;

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'crash-owner@example.com');
  api = batchesApi(t.app, acme);
  for (let i = 0; i < PAYERS; i++) await insertPayer(db(), acme.businessId, { email: `crash${i}@payers.example`, displayName: `Crash Payer ${i}` });
  const user = await db().selectFrom('users').select(['id', 'email']).where('email', '=', acme.email).executeTakeFirstOrThrow();
  owner = { userId: user.id, email: user.email };
}, 120_000);
afterAll(async () => t?.close());

let serial = 0;
/** A checked batch of `ROWS` valid rows (and 2 invalid), submitted with its job not queued. */
async function submitted(rows = ROWS): Promise<string> {
  serial += 1;
  const lines = ['Email,Amount,Due date,Reference'];
  for (let i = 0; i < rows; i++) lines.push(`crash${i % PAYERS}@payers.example,${(i % 90) + 1}.25,${dayIn(20)},K${serial}-${i}`);
  lines.push(`nobody@payers.example,1,${dayIn(20)},X`, `crash0@payers.example,abc,${dayIn(20)},Y`);
  const up = await api.uploaded(lines.join('\n'), `crash-${serial}.csv`);
  const checked = await api.mapped(up.batchId, { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference' } });
  expect(checked.counts).toMatchObject({ rows: rows + 2, valid: rows, invalid: 2 });
  const business = (await businessForJob(db(), acme.businessId))!;
  await submitBatch({ db: db(), jobs: { send: async () => null }, business, batchId: up.batchId, user: owner, body: { mode: 'send' } });
  return up.batchId;
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

/** What is stored of a batch: its rows by outcome, its requests and their e-mails. */
async function stored(batchId: string) {
  const rows = await db().selectFrom('batch_rows').select(['line', 'status', 'request_id']).where('batch_id', '=', batchId).execute();
  const requests = await requestsOfBatch(db(), acme.businessId, batchId);
  const ids = requests.map((r) => r.id);
  const mails = ids.length === 0 ? [] : await db().selectFrom('mail_outbox').select(['request_id', 'to_address']).where('request_id', 'in', ids).execute();
  const batch = await db().selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow();
  return { rows, requests, mails, batch };
}

/** Every valid row sent exactly once: one request each, one e-mail each, numbers without a gap. */
async function expectExactlyOnce(batchId: string, valid = ROWS) {
  const { rows, requests, mails, batch } = await stored(batchId);
  expect(batch).toMatchObject({ state: 'Processed', phase: 'done', sent_count: valid, failed_count: 0, valid_count: 0, invalid_count: 2 });
  expect(requests).toHaveLength(valid);
  const sent = rows.filter((r) => r.status === 'sent');
  expect(sent).toHaveLength(valid);
  const linked = sent.map((r) => r.request_id);
  expect(new Set(linked).size).toBe(valid);
  expect(new Set(linked)).toEqual(new Set(requests.map((r) => r.id)));
  expect(rows.filter((r) => r.status === 'invalid').every((r) => r.request_id === null)).toBe(true);
  // One e-mail per request, to its payer.
  expect(mails).toHaveLength(valid);
  expect(new Set(mails.map((m) => m.request_id)).size).toBe(valid);
  const numbers = requests.map((r) => Number(r.number));
  expect(new Set(numbers).size).toBe(valid);
  expect(Math.max(...numbers) - Math.min(...numbers) + 1).toBe(valid);
  // What the API says agrees.
  const viaApi = await api.batch(batchId);
  expect(viaApi).toMatchObject({ state: 'Processed', counts: { sent: valid, failed: 0 }, progress: { done: valid, total: valid } });
  expect((await api.rows(batchId, '?status=sent&pageSize=1')).total).toBe(valid);
}

/** The app after the restart: its sweep finds the run whose heartbeat stopped and its workers finish it. */
async function restart(batchId: string) {
  const later = new Date(Date.now() + 60_000);
  expect(await resumeBatches(db(), t.runtime.jobs, later)).toBeGreaterThanOrEqual(1);
  await api.until(batchId, (b) => b.phase === 'done', 60_000);
}

describe('the mailer fails in the middle of the second chunk', () => {
  it('the first chunk stays sent, the second is undone whole; the resumed run sends the rest, each row once', async () => {
    const batchId = await submitted();
    let calls = 0;
    const real = t.runtime.mailer;
    const failing: RequestContext['mailer'] = {
      send: (...args) => real.send(...args),
      sendText: (...args) => real.sendText(...args),
      async sendMany(emails, texts, executor) {
        calls += 1;
        if (calls === 2) {
          // Half of the chunk's e-mails are written, then the process dies.
          await real.sendMany(emails.slice(0, emails.length / 2), [], executor);
          throw new Error('the process was killed');
        }
        return real.sendMany(emails, texts, executor);
      },
    };
    await expect(sendBatch(context({ mailer: failing }), { businessId: acme.businessId, batchId })).rejects.toThrow('the process was killed');

    const after = await stored(batchId);
    expect(after.batch).toMatchObject({ state: 'Submitted', phase: 'sending', progress_done: SEND_CHUNK });
    expect(after.requests).toHaveLength(SEND_CHUNK);
    expect(after.mails).toHaveLength(SEND_CHUNK);
    expect(after.rows.filter((r) => r.status === 'sent')).toHaveLength(SEND_CHUNK);
    expect(after.rows.filter((r) => r.status === 'valid')).toHaveLength(ROWS - SEND_CHUNK);
    // The rows sent are the first of the file.
    const sentLines = after.rows.filter((r) => r.status === 'sent').map((r) => r.line);
    expect(Math.max(...sentLines)).toBe(SEND_CHUNK + 1);

    await restart(batchId);
    await expectExactlyOnce(batchId);
  });
});

/** Once dead, nothing of this process reaches the database; it dies at the `nth` statement `at` matches. */

const CRASH_POINTS: [string, StatementMatch, number, number][] = [
  // [where it dies, the statement, which one, the rows sent by then]
  ["writing the second chunk's requests", insertsInto('payment_requests'), 2, SEND_CHUNK],
  ["queueing the second chunk's e-mails", insertsInto('mail_outbox'), 2, SEND_CHUNK],
  ["marking the second chunk's rows sent (its requests and e-mails written)", raw('UPDATE batch_rows r SET'), 2, SEND_CHUNK],
  ["storing the third chunk's progress (its rows marked)", raw('UPDATE batches b SET progress_done'), 3, 2 * SEND_CHUNK],
  ['marking the batch done (every row sent)', raw("UPDATE batches SET phase = 'done'"), 1, ROWS],
];

describe('the process is killed at a statement of the send', () => {
  it.each(CRASH_POINTS)('killed %s: the run again sends each row once', async (_point, at, nth, sentBefore) => {
    const batchId = await submitted();
    const death = new Death(at, nth);
    await expect(sendBatch(context({ db: db().withPlugin(death) }), { businessId: acme.businessId, batchId })).rejects.toThrow('the process was killed');
    expect(death.dead).toBe(true);

    const after = await stored(batchId);
    expect(after.batch).toMatchObject({ state: 'Submitted', phase: 'sending' });
    // The counts moved with each committed chunk, not only when the whole batch finished.
    expect(after.batch.sent_count).toBe(sentBefore === ROWS ? ROWS : sentBefore);
    expect(after.batch.progress_done).toBe(sentBefore);
    expect(after.requests).toHaveLength(sentBefore);
    expect(after.mails).toHaveLength(sentBefore);
    expect(after.rows.filter((r) => r.status === 'sent')).toHaveLength(sentBefore);

    // The queue's retry of the same job, in the restarted process.
    await sendBatch(context(), { businessId: acme.businessId, batchId });
    await expectExactlyOnce(batchId);
    // A late duplicate of the job changes nothing.
    await sendBatch(context(), { businessId: acme.businessId, batchId });
    expect(await requestsOfBatch(db(), acme.businessId, batchId)).toHaveLength(ROWS);
  });
});

describe('two runs of the same send at once (a retry while the first is still going)', () => {
  it('share the rows, never one row twice', async () => {
    const batchId = await submitted();
    await Promise.all([sendBatch(context(), { businessId: acme.businessId, batchId }), sendBatch(context(), { businessId: acme.businessId, batchId })]);
    await expectExactlyOnce(batchId);
  });
});

describe('the resume sweep', () => {
  it('leaves a run whose heartbeat is fresh alone, and queues one whose heartbeat stopped', async () => {
    const batchId = await submitted(3);
    // Just submitted: its run may still be starting.
    const fresh = await db().selectFrom('batches').select('heartbeat_at').where('id', '=', batchId).executeTakeFirstOrThrow();
    expect(fresh.heartbeat_at).not.toBeNull();
    const queued: string[] = [];
    const spy = { send: async (_name: string, data: { batchId: string }) => (queued.push(data.batchId), null) };
    await resumeBatches(db(), spy as never, new Date());
    expect(queued).not.toContain(batchId);
    await resumeBatches(db(), spy as never, new Date(Date.now() + 31_000));
    expect(queued).toContain(batchId);
    // Handed to the real queue, the app's workers send it.
    await restart(batchId);
    await expectExactlyOnce(batchId, 3);
  });
});

describe('the check of the rows is killed in the middle', () => {
  it('a run again (the queue retry, or the sweep) rewrites the same rows: every row once, with its outcome', async () => {
    const rows = CHECK_CHUNK + 700;
    const lines = ['Email,Amount,Due date,Reference'];
    for (let i = 0; i < rows; i++)
      lines.push(i % 100 === 7 ? `nobody@payers.example,1,${dayIn(20)},V${i}` : `crash${i % PAYERS}@payers.example,2,${dayIn(20)},V${i}`);
    // A repeat of the first row, in the last chunk.
    lines.push(`crash0@payers.example,2,${dayIn(20)},V0`);
    const up = await api.uploaded(lines.join('\n'));
    const business = (await businessForJob(db(), acme.businessId))!;
    const mapping = { payer: 'existing' as const, columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference' } };
    await mapBatch({ db: db(), jobs: { send: async () => null }, business, batchId: up.batchId, mapping, actor: { userId: 'usr_crash', email: acme.email } });
    const { mapping_version: version } = await db().selectFrom('batches').select('mapping_version').where('id', '=', up.batchId).executeTakeFirstOrThrow();

    // Killed as it stores the second chunk of rows.
    const death = new Death(raw('INSERT INTO batch_rows'), 2);
    await expect(checkBatch(db().withPlugin(death), { businessId: acme.businessId, batchId: up.batchId, version })).rejects.toThrow('the process was killed');
    const half = await db().selectFrom('batch_rows').select('line').where('batch_id', '=', up.batchId).execute();
    expect(half).toHaveLength(CHECK_CHUNK);
    expect(await api.batch(up.batchId)).toMatchObject({ phase: 'validating', progress: { done: CHECK_CHUNK, total: rows + 1 } });

    // The sweep hands it to the app's workers, which check it again from the start.
    expect(await resumeBatches(db(), t.runtime.jobs, new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    const checked = await api.until(up.batchId, (b) => b.phase === 'validated');
    const bad = Math.ceil((rows - 7) / 100);
    expect(checked.counts).toEqual({ rows: rows + 1, valid: rows - bad, invalid: bad + 1, sent: 0, failed: 0 });
    const stored = await db().selectFrom('batch_rows').select(['line', 'status']).where('batch_id', '=', up.batchId).orderBy('line').execute();
    expect(stored.map((r) => r.line)).toEqual(Array.from({ length: rows + 1 }, (_, i) => i + 2));
    const invalid = (await api.rows(up.batchId, '?status=invalid&pageSize=100')).items;
    expect(invalid.find((r) => r.row === rows + 2)?.errors).toEqual({
      row: 'Same payer, amount and reference as line 2 of the file. Change the reference, or drop one of them.',
    });
  });
});

describe('a business disabled after the submission', () => {
  it('its rows fail with the reason and the batch ends in Error; nothing is sent', async () => {
    const biz = await approvedBusiness(t.app, db(), 'crash-disabled@example.com');
    const mine = batchesApi(t.app, biz);
    await insertPayer(db(), biz.businessId, { email: 'dis@payers.example', displayName: 'Dis Payer' });
    const up = await mine.uploaded(`Email,Amount,Due date,Reference\ndis@payers.example,5,${dayIn(20)},A\ndis@payers.example,6,${dayIn(20)},B\n`);
    await mine.mapped(up.batchId, { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference' } });
    const user = await db().selectFrom('users').select(['id', 'email']).where('email', '=', biz.email).executeTakeFirstOrThrow();
    await submitBatch({
      db: db(),
      jobs: { send: async () => null },
      business: (await businessForJob(db(), biz.businessId))!,
      batchId: up.batchId,
      user: { userId: user.id, email: user.email },
      body: { mode: 'send' },
    });
    await db().updateTable('businesses').set({ state: 'Disabled' }).where('id', '=', biz.businessId).execute();
    await sendBatch(context(), { businessId: biz.businessId, batchId: up.batchId });
    expect(await mine.batch(up.batchId)).toMatchObject({ state: 'Error', counts: { sent: 0, failed: 2 } });
    expect((await mine.rows(up.batchId, '?status=failed')).items.map((r) => r.errors)).toEqual([
      { row: 'The business is Disabled, so nothing more can be sent.' },
      { row: 'The business is Disabled, so nothing more can be sent.' },
    ]);
    expect(await requestsOfBatch(db(), biz.businessId, up.batchId)).toEqual([]);
  });
});
