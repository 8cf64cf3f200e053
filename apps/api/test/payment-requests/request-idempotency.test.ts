// PostgreSQL pass: idempotency keys claimed under concurrent retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { outbox, requestsApi, snapshot, type Command, overHttp } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let api: ReturnType<typeof requestsApi>;
const db = () => t.runtime.database.db;
let serial = 0;

beforeAll(async () => {
  // A real HTTP server: the concurrent calls below arrive over sockets, as a client's would.
  t = await createTestApp({}, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@idempotency.example');
  api = requestsApi(t.app, biz);
});
afterAll(async () => t?.close());

async function newPayer(): Promise<{ id: string; email: string }> {
  serial += 1;
  const email = `payer${serial}@idempotency.example`;
  return { id: await insertPayer(db(), biz.businessId, { email }), email };
}

/** Over HTTP to the listening server. */
function http(method: 'POST', path: string, { key, body, token = biz.token }: { key?: string; body?: unknown; token?: string } = {}) {
  return overHttp<{ data?: { transactionId: string; transactionState: string }; errorDetails?: { code: string; message: string } }>(
    t.runtime.config.publicUrl,
    method,
    path,
    { token, key, body },
  );
}

async function events(requestId: string, event: string): Promise<number> {
  const rows = await db().selectFrom('payment_request_events').select('id').where('request_id', '=', requestId).where('event', '=', event).execute();
  return rows.length;
}

/** Sends the same call `n` times at once; every answer is the one stored result or a 409 naming the twin still running. */
async function atOnce(n: number, call: () => ReturnType<typeof http>, okStatus: number) {
  const answers = await Promise.all(Array.from({ length: n }, call));
  const ok = answers.filter((a) => a.status === okStatus);
  const busy = answers.filter((a) => a.status === 409);
  expect(ok.length + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(n);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  for (const a of ok) expect(a.json).toEqual(ok[0]!.json);
  for (const a of busy)
    expect(a.json.errorDetails).toEqual({
      code: 'IDEMPOTENCY_KEY_IN_USE',
      message: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
    });
  return ok[0]!.json;
}

describe.each(['send', 'resend'] as const satisfies readonly Command[])('Idempotency-Key on %s', (command) => {
  /** A request ready for the command: a draft to send, a sent one to resend. */
  async function ready() {
    const payer = await newPayer();
    const { transactionId } = await api.create(payer.id, { mode: command === 'send' ? 'draft' : 'send' });
    return { id: transactionId, email: payer.email, path: `${api.base}/${transactionId}/${command}`, mailBefore: (await outbox(t.app, payer.email)).length };
  }

  it('the same key again: the same response, one e-mail, one transition', async () => {
    const r = await ready();
    const first = await http('POST', r.path, { key: `${command}-again-1` });
    const again = await http('POST', r.path, { key: `${command}-again-1` });
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(first.json.data!.transactionState).toBe(command === 'send' ? 'Sent' : 'Resent');
    expect((await outbox(t.app, r.email)).length - r.mailBefore).toBe(1);
    expect(await events(r.id, command)).toBe(1);
    // Without the key the same call is a new command, refused or done by the state machine.
    const fresh = await http('POST', r.path);
    expect(fresh.status).toBe(command === 'send' ? 409 : 200);
  });

  it('the same key at the same time: one runs, the twins get its answer or 409; one e-mail, one transition', async () => {
    const r = await ready();
    const answer = await atOnce(8, () => http('POST', r.path, { key: `${command}-together-1` }), 200);
    expect(answer.data!.transactionState).toBe(command === 'send' ? 'Sent' : 'Resent');
    expect((await outbox(t.app, r.email)).length - r.mailBefore).toBe(1);
    expect(await events(r.id, command)).toBe(1);
  });

  it('different keys at the same time: the row lock lets one through; one e-mail per success', async () => {
    const r = await ready();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => http('POST', r.path, { key: `${command}-apart-${i}` })));
    const ok = answers.filter((a) => a.status === 200).length;
    // Send is allowed once (Draft → Sent); resend is allowed again and again (Resent → Resent).
    if (command === 'send') expect(ok).toBe(1);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await outbox(t.app, r.email)).length - r.mailBefore).toBe(ok);
    expect(await events(r.id, command)).toBe(ok);
  });

  it("someone outside the business using a key on its request leaves nothing behind: the owner's call with that key runs", async () => {
    const r = await ready();
    const outsider = await approvedBusiness(t.app, db(), `outsider-${command}@idempotency.example`);
    expect((await http('POST', r.path, { key: `${command}-shared-1`, token: outsider.token })).status).toBe(404);
    const mine = await http('POST', r.path, { key: `${command}-shared-1` });
    expect(mine.status).toBe(200);
    expect(mine.json.data!.transactionState).toBe(command === 'send' ? 'Sent' : 'Resent');
  });

  it('the same key on another request, or for another command, is refused with 422 and changes nothing', async () => {
    const r = await ready();
    const key = `${command}-reused-1`;
    expect((await http('POST', r.path, { key })).status).toBe(200);

    const other = await ready();
    const before = await snapshot(db(), other.id);
    const elsewhere = await http('POST', other.path, { key });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.errorDetails).toEqual({
      code: 'UNPROCESSABLE_ENTITY',
      message: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    });
    expect(await snapshot(db(), other.id)).toEqual(before);
    expect((await outbox(t.app, other.email)).length).toBe(other.mailBefore);

    // The other command on the first request: Resend after Send (or Send after Resend) is another intent.
    const otherCommand = command === 'send' ? 'resend' : 'send';
    const mine = await snapshot(db(), r.id);
    const again = await http('POST', `${api.base}/${r.id}/${otherCommand}`, { key });
    expect(again.status).toBe(422);
    expect(await snapshot(db(), r.id)).toEqual(mine);
    // The key still answers what it did.
    expect((await http('POST', r.path, { key })).json.data!.transactionState).toBe(command === 'send' ? 'Sent' : 'Resent');
  });

  it("someone outside the business replaying the owner's key gets 404, not the stored answer", async () => {
    const r = await ready();
    const key = `${command}-replayed-1`;
    expect((await http('POST', r.path, { key })).status).toBe(200);
    const outsider = await approvedBusiness(t.app, db(), `replayer-${command}@idempotency.example`);
    const theirs = await http('POST', r.path, { key, token: outsider.token });
    expect(theirs.status).toBe(404);
    expect(theirs.json.data).toBeUndefined();
  });
});

describe('Idempotency-Key on create, truly concurrent', () => {
  it('the same key and body at the same time: one request, one e-mail; every twin gets its answer or 409', async () => {
    const payer = await newPayer();
    const body = api.body(payer.id, { mode: 'send', amountCents: 31_337 });
    const answer = await atOnce(8, () => http('POST', api.base, { key: 'create-together-1', body }), 201);
    const made = await db().selectFrom('payment_requests').select('id').where('business_id', '=', biz.businessId).where('payer_id', '=', payer.id).execute();
    expect(made.map((r) => r.id)).toEqual([answer.data!.transactionId]);
    expect(await outbox(t.app, payer.email)).toHaveLength(1);
    // Afterwards: the stored answer, and another body with that key is refused.
    expect((await http('POST', api.base, { key: 'create-together-1', body })).json).toEqual(answer);
    const other = await http('POST', api.base, { key: 'create-together-1', body: { ...body, amountCents: 31_338 } });
    expect(other.status).toBe(422);
    expect(other.json.errorDetails!.code).toBe('UNPROCESSABLE_ENTITY');
  });

  it("someone outside the business replaying the owner's key and body gets 404, not the stored request", async () => {
    const payer = await newPayer();
    const body = api.body(payer.id, { mode: 'draft' });
    expect((await http('POST', api.base, { key: 'create-replayed-1', body })).status).toBe(201);
    const outsider = await approvedBusiness(t.app, db(), 'replayer-create@idempotency.example');
    const theirs = await http('POST', api.base, { key: 'create-replayed-1', body, token: outsider.token });
    expect(theirs.status).toBe(404);
    expect(theirs.json.data).toBeUndefined();
  });
});
