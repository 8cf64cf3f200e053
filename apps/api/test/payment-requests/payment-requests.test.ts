// PostgreSQL pass: a request's states and its ledger in one transaction.
import { sql } from 'kysely';
import { formatDateTime, formatDay } from '@tay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireRequests, sendReminders, sendScheduledRequests } from '../../src/domain/payment-requests/background';
import { todayIn } from '../../src/domain/payment-requests/request-record';
import { approvedBusiness, inDays, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { createBusiness, request } from '../support/businesses';
import { errorOf, get, registeredUser } from '../support/identity';
import { dayIn } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
let other: ApprovedBusiness;
let otherPayerId: string;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, t.runtime.database.db, 'owner@requests.example');
  payerId = await insertPayer(t.runtime.database.db, biz.businessId, { email: 'pat@payers.example', displayName: 'Pat Payer' });
  other = await approvedBusiness(t.app, t.runtime.database.db, 'owner@other.example');
  otherPayerId = await insertPayer(t.runtime.database.db, other.businessId, { email: 'zed@payers.example', displayName: 'Zed Other' });
});
afterAll(async () => t?.close());

const ctx = () => ({ db: t.runtime.database.db, mailer: t.runtime.mailer, authSecret: t.runtime.config.authSecret, publicUrl: t.runtime.config.publicUrl });

function body(over: Record<string, unknown> = {}) {
  return { payerId, amountCents: 12_500, memo: 'Spring term', reference: 'INV-7', dueDate: inDays(5), allowPartial: false, mode: 'draft', ...over };
}

async function create(over: Record<string, unknown> = {}, as = biz) {
  const res = await request(t.app, 'POST', `/api/businesses/${as.businessId}/payment-requests`, as.token, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { transactionId: string; transactionState: string; referenceNumber: string; actions: string[] };
}

async function command(id: string, name: string, as = biz) {
  return request(t.app, 'POST', `/api/businesses/${as.businessId}/payment-requests/${id}/${name}`, as.token, {});
}

/** The link in the newest e-mail to the payer. */
async function latestLinkToken(to = 'pat@payers.example'): Promise<string> {
  const mail = (await get(t.app, `/api/dev/outbox?to=${to}`)).json() as { text: string }[];
  const token = mail[0]?.text.match(/\/pay\/([\w-]+)/)?.[1];
  if (!token) throw new Error('no pay link e-mailed');
  return token;
}

describe('creating requests to pay', () => {
  it('saves a draft: numbered, in the drafts list, not in the history', async () => {
    const draft = await create();
    expect(draft.transactionState).toBe('Draft');
    expect(draft.referenceNumber).toMatch(/^TRX-\d+$/);
    expect(draft.actions).toEqual(['Edit', 'Copy', 'Delete']);
    const drafts = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?view=draft`, biz.token)).json().data;
    expect(drafts.items.map((r: { transactionId: string }) => r.transactionId)).toContain(draft.transactionId);
    const history = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests`, biz.token)).json().data;
    expect(history.items.map((r: { transactionId: string }) => r.transactionId)).not.toContain(draft.transactionId);
  });

  it('sends now: the payer gets an e-mail whose link opens the hosted page', async () => {
    const sent = await create({ mode: 'send', amountCents: 4_200 });
    expect(sent.transactionState).toBe('Sent');
    const token = await latestLinkToken();
    const page = await get(t.app, `/api/public/pay/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ amountCents: 4_200, remainingCents: 4_200, status: 'payable', payerName: 'Pat Payer', memo: 'Spring term' });
    expect(page.json().data.businessName).toContain('Biz owner@requests.example');
  });

  it.each([
    [{ amountCents: 0 }, 'amountCents'],
    [{ amountCents: -5 }, 'amountCents'],
    [{ amountCents: 12.5 }, 'amountCents'],
    [{ amountCents: 1_000_000_001 }, 'amountCents'],
    [{ dueDate: '2020-01-01' }, 'dueDate'],
    [{ dueDate: 'tomorrow' }, 'dueDate'],
    [{ mode: 'schedule' }, 'sendAt'],
    [{ expiresOn: '2020-01-01' }, 'expiresOn'],
    [{ payerId: 'pyr_nope' }, 'payerId'],
  ])('refuses %j with an error on %s', async (over, field) => {
    const res = await request(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests`, biz.token, body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {})).toContain(field);
  });

  it("refuses another business's payer and a deactivated payer", async () => {
    const foreign = await request(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests`, biz.token, body({ payerId: otherPayerId }));
    expect(errorOf(foreign).fields).toEqual({ payerId: 'Choose one of your payers.' });
    const disabled = await insertPayer(t.runtime.database.db, biz.businessId, { status: 'Disabled' });
    const res = await request(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests`, biz.token, body({ payerId: disabled }));
    expect(errorOf(res).fields).toEqual({ payerId: 'This payer is deactivated; activate them first.' });
  });

  it('only an Approved business may create or send — the API refuses, not only the menu', async () => {
    const token = await registeredUser(t.app, 'unapproved@requests.example');
    await request(t.app, 'PATCH', '/api/user', token, { firstName: 'U', lastName: 'N', mobileNumber: '+14155552671' });
    const { businessId } = await createBusiness(t.app, token, { businessName: 'Not Yet', entityType: 'standard' });
    const pid = await insertPayer(t.runtime.database.db, businessId);
    const res = await request(t.app, 'POST', `/api/businesses/${businessId}/payment-requests`, token, body({ payerId: pid }));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe('Requests to pay can be created and sent once your business is approved.');
  });

  it('Idempotency-Key: the same key and body create one request; a different body is refused', async () => {
    const send = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/businesses/${biz.businessId}/payment-requests`,
        headers: { authorization: `Bearer ${biz.token}`, 'content-type': 'application/json', 'idempotency-key': 'create-abc-1' },
        payload: JSON.stringify(payload),
      });
    const first = await send(body({ amountCents: 777 }));
    const again = await send(body({ amountCents: 777 }));
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().data.transactionId).toBe(first.json().data.transactionId);
    const changed = await send(body({ amountCents: 778 }));
    expect(changed.statusCode).toBe(422);
    const count = await t.runtime.database.db
      .selectFrom('payment_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('business_id', '=', biz.businessId)
      .where('amount_cents', '=', 777)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});

describe('idempotency keys left behind', () => {
  it('a key whose request never finished is taken over once its lease runs out, not held for ever', async () => {
    const { db } = t.runtime.database;
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/businesses/${biz.businessId}/payment-requests`,
        headers: { authorization: `Bearer ${biz.token}`, 'content-type': 'application/json', 'idempotency-key': 'crashed-1' },
        payload: JSON.stringify(body({ amountCents: 4_321 })),
      });
    expect((await send()).statusCode).toBe(201);
    // As if the process had died while answering: the key is still in progress, its lease running.
    const stuck = db.updateTable('idempotency_keys').where('key', '=', 'crashed-1');
    await stuck.set({ state: 'in_progress', response_status: null, response_body: null, lease_expires_at: sql<Date>`now() + interval '30 seconds'` }).execute();
    expect((await send()).statusCode).toBe(409);
    // Nobody renews it: once it runs out, the next try takes the key over.
    await stuck.set({ lease_expires_at: sql<Date>`now() - interval '1 second'` }).execute();
    const res = await send();
    expect(res.statusCode, res.body).toBe(201);
    expect((await send()).json().data.transactionId).toBe(res.json().data.transactionId);
  });
});

describe('the request state machine through the API', () => {
  it('Draft → Sent → Resent (a new link; the old one stops working) → Withdrawn (the page says so)', async () => {
    const { transactionId } = await create({ amountCents: 3_000 });
    const sent = await command(transactionId, 'send');
    expect(sent.json().data.transactionState).toBe('Sent');
    const firstLink = await latestLinkToken();
    await new Promise((r) => setTimeout(r, 5));
    const resent = await command(transactionId, 'resend');
    expect(resent.json().data.transactionState).toBe('Resent');
    const secondLink = await latestLinkToken();
    expect(secondLink).not.toBe(firstLink);
    expect((await get(t.app, `/api/public/pay/${firstLink}`)).statusCode).toBe(404);

    const withdrawn = await command(transactionId, 'withdraw');
    expect(withdrawn.json().data.transactionState).toBe('Withdrawn');
    const page = (await get(t.app, `/api/public/pay/${secondLink}`)).json().data;
    expect(page.status).toBe('withdrawn');
    expect(page.statusMessage).toMatch(/withdrew this request/);
  });

  it('refuses every move the state machine does not allow, with a sentence', async () => {
    const { transactionId: draft } = await create();
    for (const name of ['resend', 'withdraw', 'cancel']) {
      const res = await command(draft, name);
      expect(res.statusCode, name).toBe(409);
      expect(errorOf(res).message).toBe(`A request that is Draft cannot be ${name === 'resend' ? 'resent' : name === 'withdraw' ? 'withdrawn' : 'cancelled'}.`);
    }
    const { transactionId: sent } = await create({ mode: 'send' });
    expect((await command(sent, 'send')).statusCode).toBe(409);
    expect((await command(sent, 'cancel')).statusCode).toBe(409);
    const edit = await request(t.app, 'PATCH', `/api/businesses/${biz.businessId}/payment-requests/${sent}`, biz.token, body());
    expect(edit.statusCode).toBe(409);
    expect(errorOf(edit).message).toBe('A request that is Sent cannot be edited. Copy it to make a new one.');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/businesses/${biz.businessId}/payment-requests/${sent}`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(del.statusCode).toBe(409);
    expect((await command(sent, 'withdraw')).statusCode).toBe(200);
    expect((await command(sent, 'resend')).statusCode).toBe(409);
    expect((await command(sent, 'withdraw')).statusCode).toBe(409);
  });

  it('edits and deletes drafts', async () => {
    const { transactionId } = await create();
    const edited = await request(
      t.app,
      'PATCH',
      `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`,
      biz.token,
      body({ amountCents: 9_999, memo: 'Changed' }),
    );
    expect(edited.json().data).toMatchObject({ amountCents: 9_999, memo: 'Changed', transactionState: 'Draft' });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(del.statusCode).toBe(204);
    expect((await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).statusCode).toBe(404);
  });

  it('schedules: Pending until its time, then sent by the job; a scheduled request can be cancelled', async () => {
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await create({ mode: 'schedule', sendAt, amountCents: 1_234 });
    expect(scheduled.transactionState).toBe('Pending');
    expect(scheduled.actions).toEqual(['Edit', 'Cancel', 'Copy']);
    expect(await sendScheduledRequests(ctx(), new Date())).toBe(0);
    expect(await sendScheduledRequests(ctx(), new Date(Date.now() + 2 * 3600_000))).toBeGreaterThanOrEqual(1);
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${scheduled.transactionId}`, biz.token)).json().data;
    expect(detail.transactionState).toBe('Sent');
    expect(detail.timeline.map((e: { event: string }) => e.event)).toEqual(['create', 'schedule', 'scheduledSend']);
    expect(detail.timeline[2].actor).toBe('System');
    // Dates in the timeline read as the spec writes them, in the business's time zone.
    expect(detail.timeline[1].detail).toBe(`To be sent ${formatDateTime(sendAt, 'America/New_York')} (America/New_York)`);
    expect(detail.timeline[1].detail).toMatch(/^To be sent [A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2} \(America\/New_York\)$/);

    const another = await create({ mode: 'schedule', sendAt });
    expect((await command(another.transactionId, 'cancel')).json().data.transactionState).toBe('Cancelled');
  });

  it("may be scheduled up to the end of its expiry day in the business's time zone, not UTC's, and not after", async () => {
    const dueDate = dayIn(1);
    const expiresOn = dayIn(2);
    const nextDay = dayIn(3);
    // 20:00 at UTC-5 is 20:00 or 21:00 in New York, still the expiry day there; in UTC it is the next day.
    const evening = await request(
      t.app,
      'POST',
      `/api/businesses/${biz.businessId}/payment-requests`,
      biz.token,
      body({ mode: 'schedule', dueDate, expiresOn, sendAt: `${expiresOn}T20:00:00-05:00` }),
    );
    expect(evening.statusCode, evening.body).toBe(201);
    expect(evening.json().data.transactionState).toBe('Pending');
    const late = await request(
      t.app,
      'POST',
      `/api/businesses/${biz.businessId}/payment-requests`,
      biz.token,
      body({ mode: 'schedule', dueDate, expiresOn, sendAt: `${nextDay}T12:00:00-05:00` }),
    );
    expect(late.statusCode).toBe(400);
    expect(errorOf(late)).toMatchObject({ message: 'It would expire before it is sent.', fields: { sendAt: 'Send it before it expires.' } });
  });

  it('expires open requests past their expiry date; the page says so; a resend makes it payable again', async () => {
    const { transactionId } = await create({ mode: 'send' });
    const token = await latestLinkToken();
    await t.runtime.database.db
      .updateTable('payment_requests')
      .set({ due_date: inDays(-10), expires_on: inDays(-3) })
      .where('id', '=', transactionId)
      .execute();
    expect((await get(t.app, `/api/public/pay/${token}`)).json().data.status).toBe('expired');
    expect(await expireRequests(ctx())).toBeGreaterThanOrEqual(1);
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).json().data;
    expect(detail.transactionState).toBe('Expired');
    expect(detail.actions).toEqual(['Resend', 'Copy']);
    const resent = (await command(transactionId, 'resend')).json().data;
    expect(resent.transactionState).toBe('Resent');
    expect(resent.expiresOn >= inDays(0)).toBe(true);
    const resentEvent = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).json().data.timeline.at(-1);
    expect(resentEvent.detail).toBe(`E-mailed to pat@payers.example; now payable until ${formatDay(resent.expiresOn)}`);
    expect((await get(t.app, `/api/public/pay/${await latestLinkToken()}`)).json().data.status).toBe('payable');
  });

  it('reminds on the business schedule, once per step, with the link already sent', async () => {
    const email = 'remind@payers.example';
    const pid = await insertPayer(t.runtime.database.db, biz.businessId, { email, displayName: 'Rita Remind' });
    const { transactionId } = await create({ payerId: pid, mode: 'send' });
    const link = await latestLinkToken(email);
    // Due today in the business's time zone: the 0-day step of the default schedule (-3, 0, 3).
    await t.runtime.database.db
      .updateTable('payment_requests')
      .set({ due_date: todayIn('America/New_York'), expires_on: inDays(30) })
      .where('id', '=', transactionId)
      .execute();
    expect(await sendReminders(ctx())).toBeGreaterThanOrEqual(1);
    const mail = (await get(t.app, `/api/dev/outbox?to=${email}`)).json() as { subject: string; text: string }[];
    expect(mail[0]!.subject).toMatch(/^Reminder: \$125\.00 due to /);
    expect(mail[0]!.text).toContain(`/pay/${link}`);
    const before = mail.length;
    await sendReminders(ctx());
    expect((await get(t.app, `/api/dev/outbox?to=${email}`)).json()).toHaveLength(before);
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).json().data;
    expect(detail.timeline.at(-1)).toMatchObject({ event: 'reminder', actor: 'System', detail: `Reminder e-mailed to ${email} on the due date` });
  });

  it('the payer declines with a reason: Rejected, recorded in the timeline', async () => {
    const { transactionId } = await create({ mode: 'send' });
    const token = await latestLinkToken();
    const empty = await request(t.app, 'POST', `/api/public/pay/${token}/decline`, undefined, { reason: ' ' });
    expect(errorOf(empty).fields).toEqual({ reason: 'Tell the business why you decline.' });
    const declined = await request(t.app, 'POST', `/api/public/pay/${token}/decline`, undefined, { reason: 'Already paid by cheque' });
    expect(declined.json().data.status).toBe('declined');
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).json().data;
    expect(detail.transactionState).toBe('Rejected');
    expect(detail.timeline.at(-1)).toMatchObject({ event: 'payerDeclines', actor: 'Payer (pat@payers.example)', detail: 'Already paid by cheque' });
    expect((await request(t.app, 'POST', `/api/public/pay/${token}/decline`, undefined, { reason: 'again' })).statusCode).toBe(409);
  });

  it('an unknown or malformed link is 404 with a sentence for the payer', async () => {
    for (const token of ['x'.repeat(43), 'short', 'a%20b%20c%20d%20e%20f%20g%20h%20i%20j']) {
      const res = await get(t.app, `/api/public/pay/${token}`);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toMatch(/payment link is not valid any more/);
    }
  });
});

describe('lists, search, export, tenant isolation', () => {
  it('filters by status, payer, amount and date; searches by payer name, e-mail or TRX number; sorts; pages', async () => {
    const pid = await insertPayer(t.runtime.database.db, biz.businessId, { email: 'quinn@list.example', displayName: 'Quinn Lister' });
    const made = [];
    for (const amount of [1_000, 2_000, 3_000]) made.push(await create({ payerId: pid, amountCents: amount, mode: 'send' }));
    const base = `/api/businesses/${biz.businessId}/payment-requests`;
    const q = async (query: string) => (await get(t.app, `${base}?${query}`, biz.token)).json().data;

    const byPayer = await q(`payerId=${pid}&sortBy=amount&sortDirection=asc`);
    expect(byPayer.items.map((r: { amountCents: number }) => r.amountCents)).toEqual([1_000, 2_000, 3_000]);
    expect(byPayer.total).toBe(3);

    expect((await q(`payerId=${pid}&minAmountCents=1500&maxAmountCents=2500`)).total).toBe(1);
    expect((await q(`search=quinn`)).total).toBe(3);
    expect((await q(`search=QUINN@LIST`)).total).toBe(3);
    expect((await q(`search=${made[1]!.referenceNumber}`)).items[0].transactionId).toBe(made[1]!.transactionId);
    expect((await q(`payerId=${pid}&status=Sent,Resent`)).total).toBe(3);
    expect((await q(`payerId=${pid}&status=Paid`)).total).toBe(0);
    expect((await q(`payerId=${pid}&from=${inDays(-1)}&to=${inDays(1)}`)).total).toBe(3);
    expect((await q(`payerId=${pid}&from=${inDays(2)}`)).total).toBe(0);

    const page2 = await q(`payerId=${pid}&pageSize=2&page=2&sortBy=amount&sortDirection=asc`);
    expect(page2).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page2.items.map((r: { amountCents: number }) => r.amountCents)).toEqual([3_000]);

    const bad = await get(t.app, `${base}?status=Nope`, biz.token);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields?.status).toMatch(/^Use any of: Draft, Pending/);
  });

  it('exports the same query as CSV, safe against formulas', async () => {
    const pid = await insertPayer(t.runtime.database.db, biz.businessId, { email: 'csv@list.example', displayName: '=HYPERLINK("http://evil")' });
    await create({ payerId: pid, amountCents: 5_050, memo: '+SUM(A1)', mode: 'send' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/businesses/${biz.businessId}/payment-requests/export.csv?payerId=${pid}`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Reference,Invoice,Status,Payer,Payer e-mail,Amount (USD),Paid (USD),Memo,Your reference,Due date,Expires,Created (America/New_York),Sent (America/New_York),QR code',
    );
    expect(lines).toHaveLength(2);
    // Times in the business's time zone (New York), whatever the server's.
    const sent = (await t.runtime.database.db.selectFrom('payment_requests').select('sent_at').where('payer_id', '=', pid).executeTakeFirstOrThrow()).sent_at!;
    const inNewYork = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      month: 'short',
      day: '2-digit',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(sent);
    const part = (type: string) => inNewYork.find((p) => p.type === type)!.value;
    expect(lines[1]).toContain(`${part('month')} ${part('day')}, ${part('year')} ${Number(part('hour'))}:${part('minute')}`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toContain("'+SUM(A1)");
    expect(lines[1]).toContain('50.50');
  });

  it("another business's ids are 404 everywhere, and so are unknown ids", async () => {
    const mine = await create({ mode: 'send' });
    const theirs = await create({ payerId: otherPayerId, mode: 'send' }, other);
    const base = (b: ApprovedBusiness) => `/api/businesses/${b.businessId}/payment-requests`;
    // Their business id with my token.
    for (const url of [base(other), `${base(other)}/${theirs.transactionId}`, `${base(other)}/summary`, `${base(other)}/export.csv`]) {
      expect((await get(t.app, url, biz.token)).statusCode, url).toBe(404);
    }
    // Their request id under my business.
    expect((await get(t.app, `${base(biz)}/${theirs.transactionId}`, biz.token)).statusCode).toBe(404);
    for (const name of ['send', 'resend', 'withdraw', 'cancel']) {
      expect((await command(theirs.transactionId, name)).statusCode, name).toBe(404);
      expect((await request(t.app, 'POST', `${base(other)}/${mine.transactionId}/${name}`, biz.token, {})).statusCode).toBe(404);
    }
    expect((await request(t.app, 'PATCH', `${base(biz)}/${theirs.transactionId}`, biz.token, body())).statusCode).toBe(404);
    expect((await request(t.app, 'POST', base(other), biz.token, body())).statusCode).toBe(404);
    expect((await get(t.app, `${base(biz)}/req_unknown`, biz.token)).statusCode).toBe(404);
    // Without a session: 401.
    expect((await get(t.app, base(biz))).statusCode).toBe(401);
  });

  it('shows who did what in the timeline, and the landing figures', async () => {
    const { transactionId } = await create({ mode: 'send', amountCents: 2_500 });
    const detail = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/${transactionId}`, biz.token)).json().data;
    expect(detail.timeline.map((e: { event: string; actor: string; toState: string }) => [e.event, e.actor, e.toState])).toEqual([
      ['create', biz.email, 'Draft'],
      ['send', biz.email, 'Sent'],
    ]);
    expect(detail.payLink).toMatch(/\/pay\/[\w-]{43}$/);
    const summary = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests/summary`, biz.token)).json().data;
    expect(summary.openCount).toBeGreaterThan(0);
    expect(summary.openCents).toBeGreaterThanOrEqual(2_500);
    expect(summary.draftCount).toBeGreaterThan(0);
  });
});

describe('the per-state counts behind exact totals', () => {
  it('always equal the rows, after creates, moves and deletes', async () => {
    const { db } = t.runtime.database;
    const { transactionId } = await create();
    await command(transactionId, 'send');
    const { transactionId: draft } = await create();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/businesses/${biz.businessId}/payment-requests/${draft}`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    const counted = await db
      .selectFrom('payment_requests')
      .select([
        'business_id',
        'state',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.sum<number>('amount_cents').as('amount_cents'),
        (eb) => eb.fn.sum<number>('amount_paid_cents').as('amount_paid_cents'),
      ])
      .groupBy(['business_id', 'state'])
      .execute();
    const kept = await db.selectFrom('payment_request_counts').selectAll().where('n', '>', 0).execute();
    const norm = (
      rows: {
        business_id: string;
        state: string;
        n: number | string | bigint;
        amount_cents: number | string | bigint;
        amount_paid_cents: number | string | bigint;
      }[],
    ) => rows.map((r) => `${r.business_id}:${r.state}:${Number(r.n)}:${Number(r.amount_cents)}:${Number(r.amount_paid_cents)}`).sort();
    expect(norm(kept)).toEqual(norm(counted));
    const history = (await get(t.app, `/api/businesses/${biz.businessId}/payment-requests?pageSize=1`, biz.token)).json().data;
    const real = counted.filter((r) => r.business_id === biz.businessId && r.state !== 'Draft').reduce((s, r) => s + Number(r.n), 0);
    expect(history.total).toBe(real);
  });
});

describe('deep pages', () => {
  const amounts = (page: { items: { amountCents: number }[] }) => page.items.map((r) => r.amountCents);
  const desc = (from: number, n: number) => Array.from({ length: n }, (_, i) => from - i);

  async function deepBusiness(email: string, rows: number) {
    const { db } = t.runtime.database;
    const deep = await approvedBusiness(t.app, db, email);
    const pid = await insertPayer(db, deep.businessId, { email: `payer-${email}`, displayName: 'Deep Payer' });
    // g is the amount in cents and the age order: row g was created g minutes after the first.
    await sql`INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, created_at)
      SELECT ${deep.businessId}, 'req_' || ${deep.businessId} || '_' || lpad(g::text, 5, '0'), 50000 + g, ${pid}, 'Deep Payer', ${`payer-${email}`}, g, current_date, current_date + 30,
             CASE WHEN g % 10 = 0 THEN 'Paid' ELSE 'Sent' END, timestamptz '2026-01-01' + make_interval(mins => g)
      FROM generate_series(1, ${rows}) g`.execute(db);
    const list = async (query: string) => {
      const res = await get(t.app, `/api/businesses/${deep.businessId}/payment-requests?pageSize=25&${query}`, deep.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: { transactionId: string; amountCents: number }[]; total: number; page: number };
    };
    return { ...deep, list };
  }

  it('read far down the list by number return the right rows in order, from the front, the middle and the back', async () => {
    const deep = await deepBusiness('deep@requests.example', 4600);
    // Newest first: page p holds g = 4600 - 25(p-1) downwards.
    const front = await deep.list('page=2');
    expect(front.total).toBe(4600);
    expect(amounts(front)).toEqual(desc(4575, 25));
    // Past the direct walk, in the front half: the deferred join.
    expect(amounts(await deep.list('page=90'))).toEqual(desc(4600 - 25 * 89, 25));
    // The back half is walked from the other end.
    expect(amounts(await deep.list('page=180'))).toEqual(desc(4600 - 25 * 179, 25));
    expect(amounts(await deep.list('page=184'))).toEqual(desc(25, 25));
    expect((await deep.list('page=185')).items).toEqual([]);
    const asc = await deep.list('page=100&sortBy=amount&sortDirection=asc');
    expect(amounts(asc)).toEqual(Array.from({ length: 25 }, (_, i) => 2476 + i));
    // A short last page: 4,140 Sent rows; page 166 holds the last 15.
    const sent = await deep.list('status=Sent&page=166');
    expect(sent.total).toBe(4140);
    expect(sent.items).toHaveLength(15);
  });

  it('keyset paging (after / before a row) gives exactly the pages that numbers give, and falls back when its row is gone', async () => {
    const deep = await deepBusiness('keyset@requests.example', 1000);
    const other = await deepBusiness('keyset-other@requests.example', 30);
    for (const order of ['', '&sortBy=amount&sortDirection=asc', '&status=Paid', '&sortBy=state&sortDirection=asc']) {
      let previous = await deep.list(`page=1${order}`);
      for (let p = 2; p <= 4; p++) {
        const byNumber = await deep.list(`page=${p}${order}`);
        const byKey = await deep.list(`page=${p}&after=${previous.items.at(-1)!.transactionId}${order}`);
        expect(byKey.items, `page ${p}${order}`).toEqual(byNumber.items);
        expect(byKey.page).toBe(p);
        const back = await deep.list(`page=${p - 1}&before=${byNumber.items[0]!.transactionId}${order}`);
        expect(back.items, `back to page ${p - 1}${order}`).toEqual(previous.items);
        previous = byNumber;
      }
    }
    // Another business's row as the anchor tells nothing: the page comes by its number.
    const page3 = await deep.list('page=3');
    const foreign = (await other.list('page=1')).items[0]!.transactionId;
    expect((await deep.list(`page=3&after=${foreign}`)).items).toEqual(page3.items);
    // A deleted anchor: the same.
    const page2 = await deep.list('page=2');
    const anchor = page2.items.at(-1)!.transactionId;
    await sql`DELETE FROM payment_requests WHERE id = ${anchor}`.execute(t.runtime.database.db);
    const after = await deep.list(`page=3&after=${anchor}`);
    expect(after.items).toEqual((await deep.list('page=3')).items);
    // Both at once is a mistake the client is told about.
    const both = await get(t.app, `/api/businesses/${deep.businessId}/payment-requests?page=2&after=${anchor}&before=${anchor}`, deep.token);
    expect(both.statusCode).toBe(400);
    expect(both.json().errorDetails.fields.before).toMatch(/either/);
  });
});
