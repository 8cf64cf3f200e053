import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { errorOf, get } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;
const ctx = () => ({ db: db(), mailer: t.runtime.mailer, authSecret: t.runtime.config.authSecret, publicUrl: t.runtime.config.publicUrl });

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@editing.example');
  payerId = await insertPayer(db(), biz.businessId, { email: 'pat@editing.example', displayName: 'Pat Payer' });
});
afterAll(async () => t?.close());

const inHours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
const body = (over: Record<string, unknown> = {}) => ({
  payerId,
  amountCents: 12_500,
  memo: 'Spring term',
  reference: 'INV-7',
  dueDate: inDays(5),
  allowPartial: false,
  mode: 'draft',
  ...over,
});
const url = (id?: string) => `/api/businesses/${biz.businessId}/payment-requests${id ? `/${id}` : ''}`;

async function create(over: Record<string, unknown> = {}) {
  const res = await request(t.app, 'POST', url(), biz.token, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { transactionId: string; transactionState: string; sendAt: string | null };
}

function patch(id: string, payload: unknown, key?: string) {
  return t.app.inject({
    method: 'PATCH',
    url: url(id),
    headers: { authorization: `Bearer ${biz.token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    payload: JSON.stringify(payload),
  });
}

async function detail(id: string) {
  return (await get(t.app, url(id), biz.token)).json().data as {
    transactionState: string;
    sendAt: string | null;
    amountCents: number;
    memo: string;
    timeline: { event: string }[];
  };
}

async function mailsTo(email: string) {
  return ((await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json() as { subject: string }[]).length;
}

describe('editing a scheduled (Pending) request through PATCH', () => {
  it('mode schedule: new details and a new send time; it stays Pending and the edit is in the timeline', async () => {
    const scheduled = await create({ mode: 'schedule', sendAt: inHours(2) });
    expect(scheduled.transactionState).toBe('Pending');
    const later = inHours(30);
    const res = await patch(scheduled.transactionId, body({ mode: 'schedule', sendAt: later, amountCents: 15_000, memo: 'Spring term, revised' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ transactionState: 'Pending', amountCents: 15_000, memo: 'Spring term, revised', sendAt: later, sentAt: null });
    const d = await detail(scheduled.transactionId);
    expect(d.timeline.map((e) => e.event)).toEqual(['create', 'schedule', 'edit']);
    // The job goes by the new time: not at the old one, then at the new one.
    expect(await sendScheduledRequests(ctx(), new Date(Date.now() + 3 * 3600_000))).toBe(0);
    expect((await detail(scheduled.transactionId)).transactionState).toBe('Pending');
  });

  it('mode send: sent at once, e-mailed once, no longer scheduled, and the job does not send it again', async () => {
    const payer = await insertPayer(db(), biz.businessId, { email: 'now@editing.example', displayName: 'Nia Now' });
    const scheduled = await create({ payerId: payer, mode: 'schedule', sendAt: inHours(2) });
    const res = await patch(scheduled.transactionId, body({ payerId: payer, mode: 'send', amountCents: 9_900 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ transactionState: 'Sent', amountCents: 9_900, sendAt: null });
    expect(res.json().data.sentAt).not.toBeNull();
    expect(await mailsTo('now@editing.example')).toBe(1);
    expect((await detail(scheduled.transactionId)).timeline.map((e) => e.event)).toEqual(['create', 'schedule', 'edit', 'scheduledSend']);
    await sendScheduledRequests(ctx(), new Date(Date.now() + 3 * 3600_000));
    expect(await mailsTo('now@editing.example')).toBe(1);
  });

  it('refuses a send time in the past and a move back to draft, changing nothing', async () => {
    const scheduled = await create({ mode: 'schedule', sendAt: inHours(2) });
    const past = await patch(scheduled.transactionId, body({ mode: 'schedule', sendAt: inHours(-1), amountCents: 1 }));
    expect(past.statusCode).toBe(400);
    expect(errorOf(past).fields).toEqual({ sendAt: 'Choose a time in the future.' });
    const draft = await patch(scheduled.transactionId, body({ mode: 'draft', amountCents: 2 }));
    expect(draft.statusCode).toBe(400);
    expect(errorOf(draft).message).toBe('A scheduled request cannot go back to draft; cancel it instead.');
    const d = await detail(scheduled.transactionId);
    expect({ state: d.transactionState, amount: d.amountCents, sendAt: d.sendAt }).toEqual({ state: 'Pending', amount: 12_500, sendAt: scheduled.sendAt });
  });
});

describe('Idempotency-Key on PATCH (it may send or schedule)', () => {
  it('the same key and body get the stored answer: one send, one e-mail; a different body is 422', async () => {
    const payer = await insertPayer(db(), biz.businessId, { email: 'key@editing.example', displayName: 'Kim Key' });
    const { transactionId } = await create({ payerId: payer });
    const send = body({ payerId: payer, mode: 'send' });
    const first = await patch(transactionId, send, 'patch-send-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.transactionState).toBe('Sent');
    // The answer was lost; the browser retries with the same key.
    const retry = await patch(transactionId, send, 'patch-send-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await mailsTo('key@editing.example')).toBe(1);
    expect((await detail(transactionId)).timeline.map((e) => e.event)).toEqual(['create', 'edit', 'send']);

    const changed = await patch(transactionId, { ...send, amountCents: 1 }, 'patch-send-1');
    expect(changed.statusCode).toBe(422);
    expect(errorOf(changed).code).toBe('UNPROCESSABLE_ENTITY');
    // Without the key, the same PATCH is refused by the state machine: keys are what make retries safe.
    const again = await patch(transactionId, send);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('CONFLICT');
  });

  it('keys are one space per business: the same key on another request is refused (422) and changes nothing', async () => {
    const a = await create();
    const b = await create();
    expect((await patch(a.transactionId, body({ mode: 'schedule', sendAt: inHours(5) }), 'shared-key')).json().data.transactionState).toBe('Pending');
    const reused = await patch(b.transactionId, body({ mode: 'schedule', sendAt: inHours(5) }), 'shared-key');
    expect(reused.statusCode, reused.body).toBe(422);
    expect((await db().selectFrom('payment_requests').select('state').where('id', '=', b.transactionId).executeTakeFirstOrThrow()).state).toBe('Draft');
  });

  it('a refusal is stored with its key; once the cause is fixed, a new key sends it', async () => {
    const payer = await insertPayer(db(), biz.businessId, { email: 'off@editing.example', displayName: 'Oli Off' });
    const { transactionId } = await create({ payerId: payer });
    await db().updateTable('payers').set({ status: 'Disabled' }).where('id', '=', payer).execute();
    const send = body({ payerId: payer, mode: 'send' });
    const refused = await patch(transactionId, send, 'patch-refused-1');
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).fields).toEqual({ payerId: 'This payer is deactivated; activate them first.' });
    await db().updateTable('payers').set({ status: 'active' }).where('id', '=', payer).execute();
    // The old key replays the old answer (this is why the web app takes a new key after a 4xx)…
    expect((await patch(transactionId, send, 'patch-refused-1')).json()).toEqual(refused.json());
    // …and a new key is a new attempt.
    const sent = await patch(transactionId, send, 'patch-refused-2');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.transactionState).toBe('Sent');
  });

  it('the same key at the same time: one runs; the twins get 409 IDEMPOTENCY_KEY_IN_USE or the stored answer', async () => {
    const payer = await insertPayer(db(), biz.businessId, { email: 'twins@editing.example', displayName: 'Tia Twins' });
    const { transactionId } = await create({ payerId: payer, mode: 'schedule', sendAt: inHours(3) });
    const send = body({ payerId: payer, mode: 'send' });
    const responses = await Promise.all(Array.from({ length: 8 }, () => patch(transactionId, send, 'patch-twins')));
    const ok = responses.filter((r) => r.statusCode === 200);
    const conflicts = responses.filter((r) => r.statusCode === 409);
    expect(ok.length + conflicts.length).toBe(8);
    expect(conflicts.length).toBeGreaterThanOrEqual(1);
    for (const c of conflicts) {
      expect(errorOf(c).code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(errorOf(c).message).toMatch(/still being processed/);
    }
    for (const r of ok) expect(r.json()).toEqual(ok[0]!.json());
    expect(await mailsTo('twins@editing.example')).toBe(1);
    // Retried once the first has finished, the key answers with the stored success.
    const later = await patch(transactionId, send, 'patch-twins');
    expect(later.statusCode).toBe(200);
    expect(later.json().data.transactionState).toBe('Sent');
  });
});
