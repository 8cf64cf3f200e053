// PostgreSQL pass: invoice numbers taken under concurrent sends.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceEndpoints, type Invoice, type InvoiceListItem } from '@tay/contract';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import { setBusinessState } from '../../src/domain/businesses/set-business-state';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { errorOf, registeredUser } from '../support/identity';
import { dayIn, forceStateForTest, overHttp } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { invoiceBody, invoiceEmails, invoiceSnapshot, invoicesApi } from './invoice-api';

/**
 * Invoice numbers (per business, gapless under concurrent creates), Idempotency-Key on send and
 * resend, who may reach which invoice (tenancy, roles, the business's state), and the list with
 * its filters, search, sort, pages and CSV export.
 */

let t: TestApp;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  // A real HTTP server: the concurrent calls below arrive over sockets, as a client's would.
  t = await createTestApp({}, { listen: true });
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Over HTTP to the listening server. */
function http(method: Method, path: string, options: { token: string; key?: string; body?: unknown }) {
  return overHttp<{ data?: Invoice; errorDetails?: { code: string; message: string } }>(t.runtime.config.publicUrl, method, path, options);
}

async function requestsFor(invoiceId: string): Promise<string[]> {
  return (await db().selectFrom('payment_requests').select('id').where('source_kind', '=', 'invoice').where('source_id', '=', invoiceId).execute()).map(
    (r) => r.id,
  );
}

let serial = 0;
async function payerOf(biz: ApprovedBusiness, over: { displayName?: string; email?: string } = {}): Promise<string> {
  serial += 1;
  return insertPayer(db(), biz.businessId, {
    email: over.email ?? `payer${serial}@invoice-access.example`,
    displayName: over.displayName ?? `Payer ${serial}`,
  });
}

describe('invoice numbers', () => {
  it('20 creates at once get INV-0001…INV-0020, each exactly once, no gaps', async () => {
    const biz = await approvedBusiness(t.app, db(), 'owner@numbers-concurrent.example');
    const payerId = await payerOf(biz);
    const base = `/api/businesses/${biz.businessId}/invoices`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => http('POST', base, { token: biz.token, body: invoiceBody(payerId) })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const numbers = answers.map((a) => a.json.data!.number).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
    const stored = await db().selectFrom('invoices').select('number').where('business_id', '=', biz.businessId).orderBy('number').execute();
    expect(stored.map((r) => r.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // The next one carries on from there.
    expect((await invoicesApi(t.app, biz).create(payerId)).number).toBe('INV-0021');
  });

  it('are per business: another business starts at INV-0001, and each goes on with its own', async () => {
    const first = await approvedBusiness(t.app, db(), 'owner@numbers-first.example');
    const second = await approvedBusiness(t.app, db(), 'owner@numbers-second.example');
    const a = invoicesApi(t.app, first);
    const b = invoicesApi(t.app, second);
    const aPayer = await payerOf(first);
    const bPayer = await payerOf(second);
    expect((await a.create(aPayer)).number).toBe('INV-0001');
    expect((await a.create(aPayer)).number).toBe('INV-0002');
    expect((await b.create(bPayer)).number).toBe('INV-0001');
    expect((await a.create(aPayer)).number).toBe('INV-0003');
    expect((await b.create(bPayer)).number).toBe('INV-0002');
  });
});

describe('Idempotency-Key on send and resend', () => {
  let biz: ApprovedBusiness;
  let api: ReturnType<typeof invoicesApi>;
  beforeAll(async () => {
    biz = await approvedBusiness(t.app, db(), 'owner@invoice-idempotency.example');
    api = invoicesApi(t.app, biz);
  });
  const sendPath = (id: string) => `${api.base}/${id}/send`;

  it('the same key twice: sent once (one request, one e-mail), the same answer both times', async () => {
    const draft = await api.create(await payerOf(biz));
    const first = await http('POST', sendPath(draft.invoiceId), { token: biz.token, key: 'send-twice-1', body: {} });
    const again = await http('POST', sendPath(draft.invoiceId), { token: biz.token, key: 'send-twice-1', body: {} });
    expect(first.status, first.text).toBe(200);
    expect(first.json.data!.invoiceState).toBe('Sent');
    expect(again).toEqual(first);
    const requests = await requestsFor(draft.invoiceId);
    expect(requests).toEqual([first.json.data!.transactionId]);
    expect(await invoiceEmails(db(), requests[0]!)).toHaveLength(1);
    // Without the key it is a new command, which the state machine refuses.
    const fresh = await http('POST', sendPath(draft.invoiceId), { token: biz.token, body: {} });
    expect(fresh.status).toBe(409);
    expect(fresh.json.errorDetails).toEqual({ code: 'CONFLICT', message: `Invoice ${draft.number} is Sent, so it cannot be sent.` });
  });

  it('the same key at the same time: one send; each twin gets its answer or 409 (key in use)', async () => {
    const draft = await api.create(await payerOf(biz));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => http('POST', sendPath(draft.invoiceId), { token: biz.token, key: 'send-together-1', body: {} })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(6);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of ok) expect(a.json).toEqual(ok[0]!.json);
    for (const a of busy) expect(a.json.errorDetails!.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const requests = await requestsFor(draft.invoiceId);
    expect(requests).toHaveLength(1);
    expect(await invoiceEmails(db(), requests[0]!)).toHaveLength(1);
  });

  it('the same key on another invoice, or for another command, is 422 and changes nothing', async () => {
    const draft = await api.create(await payerOf(biz));
    expect((await http('POST', sendPath(draft.invoiceId), { token: biz.token, key: 'send-reused-1', body: {} })).status).toBe(200);

    const other = await api.create(await payerOf(biz));
    const before = await invoiceSnapshot(db(), other.invoiceId);
    const elsewhere = await http('POST', sendPath(other.invoiceId), { token: biz.token, key: 'send-reused-1', body: {} });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.errorDetails).toEqual({
      code: 'UNPROCESSABLE_ENTITY',
      message: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    });
    expect(await invoiceSnapshot(db(), other.invoiceId)).toEqual(before);
    expect(before.row!.state).toBe('Draft');

    // Resend with the key that sent it: another intent.
    const mine = await invoiceSnapshot(db(), draft.invoiceId);
    const resend = await http('POST', `${api.base}/${draft.invoiceId}/resend`, { token: biz.token, key: 'send-reused-1' });
    expect(resend.status).toBe(422);
    expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(mine);

    // Nor on the invoice's own request: requests and invoices share one space of send keys.
    const [requestId] = await requestsFor(draft.invoiceId);
    const viaRequest = await http('POST', `/api/businesses/${biz.businessId}/payment-requests/${requestId}/resend`, { token: biz.token, key: 'send-reused-1' });
    expect(viaRequest.status).toBe(422);
    expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(mine);
  });

  it('resend with the same key twice resends once', async () => {
    const sent = await api.sent(await payerOf(biz));
    const path = `${api.base}/${sent.invoiceId}/resend`;
    const first = await http('POST', path, { token: biz.token, key: 'resend-twice-1' });
    const again = await http('POST', path, { token: biz.token, key: 'resend-twice-1' });
    expect(first.status, first.text).toBe(200);
    expect(first.json.data!.invoiceState).toBe('Resent');
    expect(again).toEqual(first);
    expect(await invoiceEmails(db(), sent.transactionId!)).toHaveLength(2);
  });

  it('two sends at once without a key: exactly one goes, the other is 409; one request, one e-mail', async () => {
    const draft = await api.create(await payerOf(biz));
    const answers = await Promise.all([0, 1].map(() => http('POST', sendPath(draft.invoiceId), { token: biz.token, body: {} })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.json.errorDetails).toEqual({ code: 'CONFLICT', message: `Invoice ${draft.number} is Sent, so it cannot be sent.` });
    const requests = await requestsFor(draft.invoiceId);
    expect(requests).toHaveLength(1);
    expect(await invoiceEmails(db(), requests[0]!)).toHaveLength(1);
  });
});

describe('who reaches an invoice', () => {
  let a: ApprovedBusiness;
  let b: ApprovedBusiness;
  let aPayer: string;
  let bPayer: string;
  /** A's invoices, one in each state a command could act on. */
  let mine: Record<'draft' | 'scheduled' | 'sent', Invoice>;
  let theirs: Invoice;

  async function invoicesOf(biz: ApprovedBusiness, payerId: string) {
    const api = invoicesApi(t.app, biz);
    const scheduled = await api.create(payerId);
    const res = await api.send(scheduled.invoiceId, { sendAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    return { draft: await api.create(payerId), scheduled: res.json().data as Invoice, sent: await api.sent(payerId) };
  }

  beforeAll(async () => {
    a = await approvedBusiness(t.app, db(), 'owner@invoice-tenant-a.example');
    b = await approvedBusiness(t.app, db(), 'owner@invoice-tenant-b.example');
    aPayer = await payerOf(a, { email: 'payer@invoice-tenant-a.example' });
    bPayer = await payerOf(b, { email: 'payer@invoice-tenant-b.example' });
    mine = await invoicesOf(a, aPayer);
    theirs = await invoicesApi(t.app, b).create(bPayer);
  });

  type Name = keyof typeof invoiceEndpoints;
  interface Call {
    name: Name;
    method: Method;
    url: string;
    body?: unknown;
  }

  /** Every invoice endpoint of the contract, under `businessId`, on A's invoices (each command where it would act), with `payerId` in bodies. */
  function calls(businessId: string, invoices: Record<'draft' | 'scheduled' | 'sent', Pick<Invoice, 'invoiceId'>>, payerId: string): Call[] {
    const target: Record<Name, 'draft' | 'scheduled' | 'sent' | null> = {
      list: null,
      exportCsv: null,
      summary: null,
      create: null,
      get: 'sent',
      update: 'draft',
      send: 'draft',
      resend: 'sent',
      withdraw: 'sent',
      cancel: 'scheduled',
      deleteDraft: 'draft',
      pdf: 'sent',
    };
    return (Object.keys(invoiceEndpoints) as Name[]).map((name) => {
      const endpoint = invoiceEndpoints[name];
      const which = target[name];
      const url = endpoint.path.replace(':id', businessId).replace(':invoiceId', which ? invoices[which].invoiceId : '');
      const body = name === 'create' || name === 'update' ? invoiceBody(payerId) : name === 'send' ? {} : undefined;
      return { name, method: endpoint.method as Method, url, ...(body === undefined ? {} : { body }) };
    });
  }

  function perform(call: Call, token: string) {
    return t.app.inject({
      method: call.method,
      url: call.url,
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': `access-${call.name}-${Math.random()}`,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
  }

  /** Everything an invoice call could change, across all businesses: invoices, timelines, requests, mail, keys, counters. */
  async function everything(): Promise<string> {
    const { rows } = await sql<{ print: string }>`SELECT concat_ws('|',
        (SELECT md5(coalesce(string_agg(row_to_json(i)::text, ',' ORDER BY i.business_id, i.id), '')) FROM invoices i),
        (SELECT count(*) FROM invoice_events),
        (SELECT md5(coalesce(string_agg(row_to_json(r)::text, ',' ORDER BY r.business_id, r.id), '')) FROM payment_requests r),
        (SELECT count(*) FROM payment_request_events),
        (SELECT count(*) FROM mail_outbox),
        (SELECT count(*) FROM idempotency_keys),
        (SELECT md5(coalesce(string_agg(row_to_json(c)::text, ',' ORDER BY c.business_id, c.name), '')) FROM business_counters c)) AS print`.execute(db());
    return rows[0]!.print;
  }

  async function expectRefused(call: Call, token: string, status: 403 | 404, code: string) {
    const before = await everything();
    const res = await perform(call, token);
    expect(res.statusCode, `${call.name} ${call.method} ${call.url}: ${res.body}`).toBe(status);
    expect(errorOf(res).code, call.name).toBe(code);
    expect(res.body, call.name).not.toContain('invoice-tenant-a');
    expect(await everything(), `${call.name} changed something`).toBe(before);
    return res;
  }

  it('the calls below cover every invoice endpoint of the contract', () => {
    expect(
      calls(a.businessId, mine, aPayer)
        .map((c) => c.name)
        .sort(),
    ).toEqual(Object.keys(invoiceEndpoints).sort());
  });

  it("another business's owner under their own business id, with A's invoice ids: 404 everywhere, nothing changes", async () => {
    const onAnInvoice = calls(b.businessId, mine, bPayer).filter((c) => invoiceEndpoints[c.name].path.includes(':invoiceId'));
    expect(onAnInvoice.map((c) => c.name).sort()).toEqual(['cancel', 'deleteDraft', 'get', 'pdf', 'resend', 'send', 'update', 'withdraw']);
    for (const call of onAnInvoice) await expectRefused(call, b.token, 404, 'NOT_FOUND');
  });

  it("another business's own list, export and summary never show A's invoices", async () => {
    const bApi = invoicesApi(t.app, b);
    const list = await bApi.get('?pageSize=100');
    expect(list.statusCode).toBe(200);
    expect((list.json().data.items as InvoiceListItem[]).map((i) => i.invoiceId)).toEqual([theirs.invoiceId]);
    const csv = await bApi.get('/export');
    expect(csv.statusCode).toBe(200);
    for (const invoice of Object.values(mine)) expect(csv.body).not.toContain(invoice.payerEmail);
    expect(
      csv.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(2);
    const summary = await bApi.get('/summary');
    expect(summary.json().data).toEqual({
      outstandingCount: 0,
      outstandingCents: 0,
      overdueCount: 0,
      overdueCents: 0,
      paidThisMonthCount: 0,
      paidThisMonthCents: 0,
      draftCount: 1,
    });
  });

  it("another business creating an invoice with A's payer is refused as an unknown payer; nothing changes", async () => {
    const before = await everything();
    const res = await invoicesApi(t.app, b).post(invoiceBody(aPayer));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields).toEqual({ payerId: 'Choose one of your payers.' });
    expect(await everything()).toBe(before);
  });

  it("another business's owner under A's business id: 404 everywhere, nothing changes", async () => {
    for (const call of calls(a.businessId, mine, aPayer)) await expectRefused(call, b.token, 404, 'NOT_FOUND');
  });

  it('a signed-in person of no business: 404 everywhere under A, nothing changes', async () => {
    const nobody = await registeredUser(t.app, 'nobody@invoice-access.example');
    for (const call of calls(a.businessId, mine, aPayer)) await expectRefused(call, nobody, 404, 'NOT_FOUND');
  });

  it('a viewer of A reads (list, export, summary, one, its PDF) but changes nothing (403)', async () => {
    const email = 'viewer@invoice-access.example';
    const token = await registeredUser(t.app, email);
    const { id: userId } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db().insertInto('business_members').values({ business_id: a.businessId, user_id: userId, role: 'viewer' }).execute();
    const reads: Name[] = ['list', 'exportCsv', 'summary', 'get', 'pdf'];
    for (const call of calls(a.businessId, mine, aPayer)) {
      if (reads.includes(call.name)) {
        const res = await perform(call, token);
        expect(res.statusCode, `${call.name}: ${res.body.slice(0, 300)}`).toBe(200);
      } else {
        const res = await expectRefused(call, token, 403, 'FORBIDDEN');
        expect(errorOf(res).message).toBe('Your role in this business is view only: you can read and export, not change.');
      }
    }
    const list = await perform(
      calls(a.businessId, mine, aPayer).find((c) => c.name === 'list')!,
      token,
    );
    expect((list.json().data.items as InvoiceListItem[]).map((i) => i.invoiceId).sort()).toEqual(
      Object.values(mine)
        .map((i) => i.invoiceId)
        .sort(),
    );
  });

  it("the same calls by A's owner succeed (the refusals above are not a broken route)", async () => {
    for (const call of calls(a.businessId, mine, aPayer)) {
      // Each command on fresh invoices, so one call does not spoil the next.
      const fresh = call.method === 'GET' ? mine : await invoicesOf(a, aPayer);
      const again = calls(a.businessId, fresh, aPayer).find((c) => c.name === call.name)!;
      const res = await perform(again, a.token);
      expect(res.statusCode, `${call.name}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    }
  });
});

describe('the business must be approved', () => {
  it('a Pending business cannot create invoices (403 BUSINESS_NOT_APPROVED); it can read its empty list', async () => {
    const token = await registeredUser(t.app, 'owner@invoice-pending.example');
    const { businessId } = await createBusiness(t.app, token, { businessName: 'Pending Invoices Co', entityType: 'standard' });
    await completeSetup(t.app, token, businessId);
    expect((await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token, {})).statusCode).toBe(200);
    const payerId = await insertPayer(db(), businessId, { email: 'payer@invoice-pending.example' });
    const api = invoicesApi(t.app, { businessId, token });
    const res = await api.post(invoiceBody(payerId));
    expect(res.statusCode, res.body).toBe(403);
    expect(errorOf(res)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message: 'Invoices can be created and sent once your business is approved.' });
    expect(await db().selectFrom('invoices').select('id').where('business_id', '=', businessId).execute()).toEqual([]);
    const list = await api.get('');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.total).toBe(0);
  });

  it('a Disabled business cannot create or send; its draft stays a draft', async () => {
    const biz = await approvedBusiness(t.app, db(), 'owner@invoice-disabled.example');
    const api = invoicesApi(t.app, biz);
    const payerId = await payerOf(biz);
    const draft = await api.create(payerId);
    await setBusinessState({ db: db(), businessId: biz.businessId, to: 'Disabled', reason: 'Review', actor: OPERATIONS_ACTOR });
    const message = 'This business is disabled, so it cannot send invoices. Contact Tay support.';
    const created = await api.post(invoiceBody(payerId));
    expect(created.statusCode).toBe(403);
    expect(errorOf(created)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message });
    const before = await invoiceSnapshot(db(), draft.invoiceId);
    const sent = await api.send(draft.invoiceId);
    expect(sent.statusCode).toBe(403);
    expect(errorOf(sent)).toEqual({ code: 'BUSINESS_NOT_APPROVED', message });
    expect(await invoiceSnapshot(db(), draft.invoiceId)).toEqual(before);
  });
});

describe('the list', () => {
  let biz: ApprovedBusiness;
  let api: ReturnType<typeof invoicesApi>;
  const payers: Record<'alice' | 'bob' | 'carol' | 'dan' | 'formula', string> = { alice: '', bob: '', carol: '', dan: '', formula: '' };
  const FORMULA = '=HYPERLINK("http://evil")';

  /** INV-0001…INV-0006: each filter, search and sort below picks them out differently. */
  beforeAll(async () => {
    biz = await approvedBusiness(t.app, db(), 'owner@invoice-list.example');
    api = invoicesApi(t.app, biz);
    payers.alice = await payerOf(biz, { displayName: 'Alice Adams', email: 'alice@invoice-list.example' });
    payers.bob = await payerOf(biz, { displayName: 'Bob Brown', email: 'bob@invoice-list.example' });
    payers.carol = await payerOf(biz, { displayName: 'Carol Clark', email: 'carol@invoice-list.example' });
    payers.dan = await payerOf(biz, { displayName: 'Dan Dunn', email: 'dan@invoice-list.example' });
    payers.formula = await payerOf(biz, { displayName: FORMULA, email: 'formula@invoice-list.example' });
    const one = (cents: number, issued: number) => ({
      issueDate: dayIn(issued),
      items: [{ description: 'Work', quantity: 1, unitPriceCents: cents, taxRate: 0 }],
    });
    await api.create(payers.alice, one(10_000, -20)); // INV-0001 Draft
    await api.sent(payers.bob, one(25_000, -15)); // INV-0002 Sent
    const overdue = await api.sent(payers.carol, one(5_000, -10)); // INV-0003 Sent, made overdue below
    const paid = await api.sent(payers.alice, one(40_000, -5)); // INV-0004 Paid
    await api.create(payers.dan, one(7_500, 0)); // INV-0005 Draft
    await api.create(payers.formula, one(1_000, 0)); // INV-0006 Draft
    await db()
      .updateTable('invoices')
      .set({ due_date: dayIn(-2) })
      .where('id', '=', overdue.invoiceId)
      .execute();
    await forceStateForTest(db(), paid.transactionId!, 'Paid');
  });

  async function listed(query: string): Promise<{ numbers: string[]; items: InvoiceListItem[]; total: number; page: number; pageSize: number }> {
    const res = await api.get(`?${query}`);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    const data = res.json().data as { items: InvoiceListItem[]; total: number; page: number; pageSize: number };
    return { ...data, numbers: data.items.map((i) => i.number) };
  }
  const numbers = async (query: string) => (await listed(`sortBy=number&sortDirection=asc&pageSize=100&${query}`)).numbers;
  const inv = (...ns: number[]) => ns.map((n) => `INV-000${n}`);

  it('is all six, newest number first, by default', async () => {
    const { numbers: all, total } = await listed('');
    expect(all).toEqual(inv(6, 5, 4, 3, 2, 1));
    expect(total).toBe(6);
  });

  it('filters by status, with Overdue for the open ones past due', async () => {
    expect(await numbers('status=Draft')).toEqual(inv(1, 5, 6));
    expect(await numbers('status=Sent')).toEqual(inv(2, 3));
    expect(await numbers('status=Paid')).toEqual(inv(4));
    expect(await numbers('status=Overdue')).toEqual(inv(3));
    expect(await numbers('status=Draft,Overdue')).toEqual(inv(1, 3, 5, 6));
    const { items } = await listed('pageSize=100');
    expect(items.filter((i) => i.overdue).map((i) => i.number)).toEqual(inv(3));
  });

  it('filters by payer, issue dates (inclusive) and total', async () => {
    expect(await numbers(`payerId=${payers.alice}`)).toEqual(inv(1, 4));
    expect(await numbers(`from=${dayIn(-15)}&to=${dayIn(-5)}`)).toEqual(inv(2, 3, 4));
    expect(await numbers(`from=${dayIn(-4)}`)).toEqual(inv(5, 6));
    expect(await numbers(`minAmountCents=5000&maxAmountCents=25000`)).toEqual(inv(1, 2, 3, 5));
    expect(await numbers(`payerId=${payers.alice}&status=Paid`)).toEqual(inv(4));
  });

  it('searches by number (INV-0003, 3) and by the start of the payer’s name', async () => {
    expect(await numbers('search=INV-0003')).toEqual(inv(3));
    expect(await numbers('search=3')).toEqual(inv(3));
    expect(await numbers('search=inv-3')).toEqual(inv(3));
    expect(await numbers('search=ali')).toEqual(inv(1, 4));
    expect(await numbers('search=Bob%20Br')).toEqual(inv(2));
    expect(await numbers('search=Zed')).toEqual([]);
  });

  it('sorts by total, both ways', async () => {
    expect((await listed('sortBy=total&sortDirection=asc&pageSize=100')).numbers).toEqual(inv(6, 3, 5, 1, 2, 4));
    expect((await listed('sortBy=total&sortDirection=desc&pageSize=100')).numbers).toEqual(inv(4, 2, 1, 5, 3, 6));
  });

  it('pages, with the total of the whole query', async () => {
    expect(await listed('sortBy=number&sortDirection=asc&pageSize=2&page=2')).toMatchObject({ numbers: inv(3, 4), total: 6, page: 2, pageSize: 2 });
    expect(await listed('sortBy=number&sortDirection=asc&pageSize=2&page=4')).toMatchObject({ numbers: [], total: 6 });
    expect(await listed('status=Draft&sortBy=number&sortDirection=asc&pageSize=2&page=2')).toMatchObject({ numbers: inv(6), total: 3 });
  });

  it('refuses an unknown status with 400 naming the field, in the list and the export', async () => {
    for (const path of ['?status=Overdue,Bogus', '/export?status=Bogus']) {
      const res = await api.get(path);
      expect(res.statusCode, path).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
      expect(Object.keys(errorOf(res).fields ?? {}), path).toEqual(['status']);
    }
  });

  it('the landing’s summary adds up the same invoices', async () => {
    const res = await api.get('/summary');
    expect(res.json().data).toEqual({
      outstandingCount: 2,
      outstandingCents: 30_000,
      overdueCount: 1,
      overdueCents: 5_000,
      paidThisMonthCount: 1,
      paidThisMonthCents: 40_000,
      draftCount: 3,
    });
  });

  async function exported(query: string): Promise<string[]> {
    const res = await api.get(`/export?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    return res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
  }

  it('exports as CSV the same rows as the list, in its order, for each query', async () => {
    const queries = [
      '',
      'status=Draft',
      'status=Overdue',
      `payerId=${payers.alice}`,
      `from=${dayIn(-15)}&to=${dayIn(-5)}`,
      'minAmountCents=5000&maxAmountCents=25000',
      'search=ali',
      'search=3',
      'sortBy=total&sortDirection=asc',
      'sortBy=total&sortDirection=desc',
    ];
    for (const query of queries) {
      const lines = await exported(query);
      expect(lines[0], query).toMatch(/^Number,Status,Overdue,Payer,/);
      expect(
        lines.slice(1).map((l) => l.split(',')[0]),
        query,
      ).toEqual((await listed(`pageSize=100&${query}`)).numbers);
    }
    const overdue = (await exported('status=Overdue'))[1]!;
    expect(overdue).toMatch(/^INV-0003,Sent,Yes,Carol Clark,/);
  });

  it('neutralises a payer name that a spreadsheet would run as a formula', async () => {
    const lines = await exported(`payerId=${payers.formula}`);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).not.toMatch(/(^|,)"?=HYPERLINK/);
    // The list itself shows the name as it is.
    expect((await listed(`payerId=${payers.formula}`)).items[0]!.payerName).toBe(FORMULA);
  });
});
