import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { requestsApi, type RequestView } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
const db = () => t.runtime.database.db;
let a: ApprovedBusiness;
let b: ApprovedBusiness;
let aPayer: string;
let bPayer: string;
/** Each business's requests, one in each state a command could act on. */
let mine: Record<'draft' | 'pending' | 'sent', RequestView>;
let theirs: Record<'draft' | 'pending' | 'sent', RequestView>;

async function requestsOf(biz: ApprovedBusiness, payerId: string) {
  const api = requestsApi(t.app, biz);
  return {
    draft: await api.create(payerId),
    pending: await api.create(payerId, { mode: 'schedule', sendAt: new Date(Date.now() + 86_400_000).toISOString() }),
    sent: await api.create(payerId, { mode: 'send' }),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await approvedBusiness(t.app, db(), 'owner@tenant-a.example');
  b = await approvedBusiness(t.app, db(), 'owner@tenant-b.example');
  aPayer = await insertPayer(db(), a.businessId, { email: 'payer@tenant-a.example' });
  bPayer = await insertPayer(db(), b.businessId, { email: 'payer@tenant-b.example' });
  mine = await requestsOf(a, aPayer);
  theirs = await requestsOf(b, bPayer);
});
afterAll(async () => t?.close());

/** Everything a request call could change, across both businesses: rows, timelines, mail, keys, counters. */
async function everything(): Promise<string> {
  const { rows } = await sql<{ print: string }>`SELECT concat_ws('|',
      (SELECT md5(coalesce(string_agg(row_to_json(r)::text, ',' ORDER BY r.business_id, r.id), '')) FROM payment_requests r),
      (SELECT count(*) FROM payment_request_events),
      (SELECT count(*) FROM mail_outbox),
      (SELECT count(*) FROM idempotency_keys),
      (SELECT md5(coalesce(string_agg(row_to_json(c)::text, ',' ORDER BY c.business_id, c.name), '')) FROM business_counters c)) AS print`.execute(db());
  return rows[0]!.print;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Call {
  name: string;
  method: Method;
  url: string;
  body?: unknown;
}

/** Every /api/businesses/:id/payment-requests* endpoint and the balances, as a member of `as` calls them. */
function calls(businessId: string, requests: Record<'draft' | 'pending' | 'sent', { transactionId: string }>, payerId: string): Call[] {
  const base = `/api/businesses/${businessId}/payment-requests`;
  const edit = requestsApi(t.app, { businessId, token: '' }).body(payerId, { amountCents: 1 });
  return [
    { name: 'list', method: 'GET', url: base },
    { name: 'list drafts', method: 'GET', url: `${base}?view=draft` },
    { name: 'export.csv', method: 'GET', url: `${base}/export.csv` },
    { name: 'summary', method: 'GET', url: `${base}/summary` },
    { name: 'create', method: 'POST', url: base, body: { ...edit, mode: 'send' } },
    { name: 'balances', method: 'GET', url: `/api/businesses/${businessId}/balances` },
    ...requestCalls(base, requests, edit),
  ];
}

function requestCalls(base: string, requests: Record<'draft' | 'pending' | 'sent', { transactionId: string }>, edit: Record<string, unknown>): Call[] {
  const { draft, pending, sent } = requests;
  return [
    { name: 'get', method: 'GET', url: `${base}/${sent.transactionId}` },
    { name: 'patch draft', method: 'PATCH', url: `${base}/${draft.transactionId}`, body: { ...edit, mode: 'send' } },
    { name: 'patch pending', method: 'PATCH', url: `${base}/${pending.transactionId}`, body: { ...edit, mode: 'send' } },
    { name: 'delete', method: 'DELETE', url: `${base}/${draft.transactionId}` },
    { name: 'send', method: 'POST', url: `${base}/${draft.transactionId}/send` },
    { name: 'resend', method: 'POST', url: `${base}/${sent.transactionId}/resend` },
    { name: 'withdraw', method: 'POST', url: `${base}/${sent.transactionId}/withdraw` },
    { name: 'cancel', method: 'POST', url: `${base}/${pending.transactionId}/cancel` },
  ];
}

async function expectNotFound(call: Call, token: string) {
  const before = await everything();
  const res = await t.app.inject({
    method: call.method,
    url: call.url,
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': `tenancy-${call.name.replaceAll(' ', '-')}-${Math.random()}`,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
  });
  expect(res.statusCode, `${call.name} ${call.method} ${call.url}: ${res.body}`).toBe(404);
  expect(errorOf(res).code, call.name).toBe('NOT_FOUND');
  expect(res.body, call.name).not.toContain('tenant-b');
  expect(await everything(), `${call.name} changed something`).toBe(before);
}

describe("a member of business A reaching for business B's payments", () => {
  it("with B's business id (and B's own request ids): 404 everywhere, nothing changes", async () => {
    for (const call of calls(b.businessId, theirs, bPayer)) await expectNotFound(call, a.token);
  });

  it("with A's business id and B's request ids: 404, nothing changes", async () => {
    const edit = requestsApi(t.app, a).body(aPayer, { amountCents: 1 });
    for (const call of requestCalls(`/api/businesses/${a.businessId}/payment-requests`, theirs, edit)) await expectNotFound(call, a.token);
  });

  it("with B's business id and A's own request ids: 404, nothing changes", async () => {
    const edit = requestsApi(t.app, b).body(bPayer, { amountCents: 1 });
    for (const call of requestCalls(`/api/businesses/${b.businessId}/payment-requests`, mine, edit)) await expectNotFound(call, a.token);
  });

  it("creating under A with B's payer is refused as an unknown payer, nothing changes", async () => {
    const before = await everything();
    const res = await requestsApi(t.app, a).post(requestsApi(t.app, a).body(bPayer, { mode: 'send' }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ payerId: 'Choose one of your payers.' });
    expect(await everything()).toBe(before);
  });

  it('the same calls by each owner on their own business succeed (the 404s above are not a broken route)', async () => {
    const api = requestsApi(t.app, b);
    const ok = async (call: Call) => {
      const res = await t.app.inject({
        method: call.method,
        url: call.url,
        headers: { authorization: `Bearer ${b.token}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
      });
      expect(res.statusCode, `${call.name}: ${res.body}`).toBeLessThan(300);
    };
    // Each command on a fresh request, so one call does not spoil the next.
    for (const call of calls(b.businessId, theirs, bPayer).filter(
      (c) => !['patch draft', 'patch pending', 'delete', 'send', 'withdraw', 'cancel', 'resend'].includes(c.name),
    ))
      await ok(call);
    for (const name of ['patch draft', 'patch pending', 'delete', 'send', 'resend', 'withdraw', 'cancel']) {
      const fresh = await requestsOf(b, bPayer);
      const call = requestCalls(api.base, fresh, api.body(bPayer, { amountCents: 1 })).find((c) => c.name === name)!;
      await ok(call);
    }
  });
});
