// PostgreSQL pass: scheduled runs claimed by the job queue at their time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeBatches, sendBatch } from '../../src/domain/batches/submit-batch';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { errorOf, get } from '../support/identity';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/**
 * A batch scheduled for later: it waits, checked, until its time, then goes out through the same
 * chunked send as "send now" (ADR 032); before its time it can be taken back to review.
 */

let t: TestApp;
let acme: ApprovedBusiness;
const db = () => t.runtime.database.db;
const base = () => `/api/businesses/${acme.businessId}/batches`;
const ctx = () => ({ db: db(), mailer: t.runtime.mailer, authSecret: t.runtime.config.authSecret, publicUrl: t.runtime.config.publicUrl });

type Batch = { batchId: string; state: string; phase: string; sendAt: string | null; counts: { valid: number; sent: number; failed: number } };

async function checkedBatch(lines: string[]): Promise<Batch> {
  const up = await t.app.inject({
    method: 'POST',
    url: `${base()}?kind=requests&fileName=later.csv`,
    payload: ['Email,Amount,Reference,Due date,Expiry date', ...lines].join('\n'),
    headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'text/csv' },
  });
  expect(up.statusCode, up.body).toBe(201);
  const { batchId } = up.json().data as Batch;
  const mapped = await request(t.app, 'PATCH', `${base()}/${batchId}`, acme.token, {
    mapping: { payer: 'existing', columns: { email: 'Email', amount: 'Amount', reference: 'Reference', dueDate: 'Due date', expiresOn: 'Expiry date' } },
  });
  expect(mapped.statusCode, mapped.body).toBe(202);
  return eventually(async () => {
    const b = (await get(t.app, `${base()}/${batchId}`, acme.token)).json().data as Batch;
    return b.phase === 'validated' ? b : undefined;
  }, 30_000);
}

const submit = (batchId: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: `${base()}/${batchId}/submit`, payload: body as object, headers: { authorization: `Bearer ${acme.token}` } });

const requestsOf = async (batchId: string) =>
  db().selectFrom('payment_requests').select(['id', 'state']).where('business_id', '=', acme.businessId).where('batch_id', '=', batchId).execute();

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'bulk-schedule@example.com');
  await insertPayer(db(), acme.businessId, { email: 'ana@later.example', displayName: 'Ana Later' });
  await insertPayer(db(), acme.businessId, { email: 'sam@later.example', displayName: 'Sam Later' });
}, 120_000);
afterAll(async () => t?.close());

describe('a scheduled batch', () => {
  it('waits until its time without making any request, then sends each row once', async () => {
    const b = await checkedBatch([`ana@later.example,10,S1,${inDays(20)},`, `sam@later.example,20,S2,${inDays(20)},`]);
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await submit(b.batchId, { mode: 'schedule', sendAt });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ state: 'Submitted', phase: 'validated', sendAt });

    // Before its time, a run (the queued one, or a resume) changes nothing.
    await sendBatch(ctx(), { businessId: acme.businessId, batchId: b.batchId });
    expect(await requestsOf(b.batchId)).toHaveLength(0);

    // Its time comes: the sweep finds it and it goes out as "send now" does.
    await db()
      .updateTable('batches')
      .set({ send_at: new Date(Date.now() - 60_000) })
      .where('id', '=', b.batchId)
      .execute();
    expect(await resumeBatches(db(), t.runtime.jobs)).toBeGreaterThanOrEqual(1);
    const done = await eventually(async () => {
      const now = (await get(t.app, `${base()}/${b.batchId}`, acme.token)).json().data as Batch;
      return now.phase === 'done' ? now : undefined;
    }, 30_000);
    expect(done).toMatchObject({ state: 'Processed', counts: { sent: 2, failed: 0 } });
    const made = await requestsOf(b.batchId);
    expect(made.map((r) => r.state)).toEqual(['Sent', 'Sent']);
    const timeline = await db()
      .selectFrom('payment_request_events')
      .select('detail')
      .where('request_id', '=', made[0]!.id)
      .where('event', '=', 'send')
      .executeTakeFirstOrThrow();
    expect(timeline.detail).toMatch(/^E-mailed to .+ \(scheduled for .+\)$/);
  });

  it('can be taken back to review before its time, and then nothing goes out', async () => {
    const b = await checkedBatch([`ana@later.example,30,U1,${inDays(20)},`]);
    expect((await submit(b.batchId, { mode: 'schedule', sendAt: new Date(Date.now() + 3_600_000).toISOString() })).statusCode).toBe(202);
    const back = await request(t.app, 'POST', `${base()}/${b.batchId}/unschedule`, acme.token, {});
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toMatchObject({ state: 'Draft', phase: 'validated', sendAt: null });
    await db()
      .updateTable('batches')
      .set({ send_at: new Date(Date.now() - 60_000) })
      .where('id', '=', b.batchId)
      .execute();
    await sendBatch(ctx(), { businessId: acme.businessId, batchId: b.batchId });
    expect(await requestsOf(b.batchId)).toHaveLength(0);
    // A second time is refused: it is not scheduled any more.
    expect(errorOf(await request(t.app, 'POST', `${base()}/${b.batchId}/unschedule`, acme.token, {})).code).toBe('CONFLICT');
  });

  it('is refused when rows would expire before the time, naming the first', async () => {
    const b = await checkedBatch([`ana@later.example,40,E1,${inDays(2)},${inDays(3)}`, `sam@later.example,50,E2,${inDays(2)},${inDays(30)}`]);
    const res = await submit(b.batchId, { mode: 'schedule', sendAt: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(/^One row expires before .+ \(first: line 2\)\. Send earlier, or give them a later expiry date\.$/);
    expect(errorOf(res).fields).toEqual({ sendAt: 'Some requests would expire before this time.' });
    expect(((await get(t.app, `${base()}/${b.batchId}`, acme.token)).json().data as Batch).state).toBe('Draft');
  });

  it('refuses a time in the past', async () => {
    const b = await checkedBatch([`ana@later.example,60,P1,${inDays(20)},`]);
    const res = await submit(b.batchId, { mode: 'schedule', sendAt: new Date(Date.now() - 60_000).toISOString() });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ sendAt: 'Choose a time in the future.' });
  });
});
