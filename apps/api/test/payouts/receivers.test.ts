import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receiver, ReceiverInput } from '@tay/contract';
import { bankAccountNumberBox } from '../../src/domain/businesses/add-bank-account';
import { receiverAccountContext } from '../../src/domain/receivers/account-context';
import { resealReceiverAccounts } from '../../src/domain/receivers/reseal-receivers';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { call, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { enablePayouts, insertPayoutRow, linkTokenOf, tablesHolding, payoutBusinesses } from '../support/payouts';
import { auditActionsNaming } from '../support/audit';

/**
 * Receivers (issue 20, ADR 035): the business adds them; each enters their own bank account on a
 * secure e-mailed link, and the business only ever sees the bank's name and the last 4 digits.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let off: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  ({ biz, other, off } = await payoutBusinesses(t.app, db(), 'receivers'));
});
afterAll(async () => t?.close());

const base = (b = biz) => `/api/businesses/${b.businessId}/receivers`;
const publicLink = (token: string) => `/api/public/receivers/bank-account/${token}`;
let seq = 0;

async function create(over: Partial<ReceiverInput> = {}, b = biz): Promise<Receiver> {
  seq++;
  const res = await call(t.app, 'POST', base(b), b.token, { firstName: 'Rita', lastName: `Receiver${seq}`, email: `rita${seq}@people.example`, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Receiver;
}

function postAccount(token: string, body: Record<string, unknown>, ip = '10.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: publicLink(token),
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

const goodAccount = {
  accountHolderName: 'Rita Receiver',
  routingNumber: '222096656',
  accountNumber: '000123456789',
  accountNumberConfirm: '000123456789',
  accountType: 'checking',
};

function auditActions(receiverId: string): Promise<string[]> {
  return auditActionsNaming(db(), biz.businessId, receiverId);
}

describe('access', () => {
  it('refuses every receiver endpoint with 403 PAYOUTS_NOT_ENABLED while payouts are off', async () => {
    const r = `${base(off)}/rcv_x`;
    const calls: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', base(off)],
      ['POST', base(off), { firstName: 'A', lastName: 'B', email: 'a@b.example' }],
      ['GET', `${base(off)}/export`],
      ['GET', r],
      ['PATCH', r, { firstName: 'A', lastName: 'B', email: 'a@b.example' }],
      ['DELETE', r],
      ['POST', `${r}/enable`],
      ['POST', `${r}/disable`],
      ['POST', `${r}/resend-link`],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(t.app, method, url, off.token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(res).code).toBe('PAYOUTS_NOT_ENABLED');
    }
  });

  it("answers another business's receiver as 404", async () => {
    const mine = await create();
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/disable'],
      ['POST', '/resend-link'],
    ] as const) {
      const res = await call(t.app, method, `${base(other)}/${mine.receiverId}${suffix}`, other.token);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const list = await call(t.app, 'GET', base(other), other.token);
    expect(list.json().data.items.map((r: Receiver) => r.receiverId)).not.toContain(mine.receiverId);
  });
});

describe('managing receivers', () => {
  it('names each invalid field (400)', async () => {
    const res = await call(t.app, 'POST', base(), biz.token, { firstName: '', lastName: 'X', email: 'not-an-email', mobile: '12' });
    expect(res.statusCode).toBe(400);
    const fields = errorOf(res).fields!;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['firstName', 'email', 'mobile']));
  });

  it('creates a receiver, e-mails the secure link, and writes the audit trail', async () => {
    const r = await create({ email: 'Ana.Lopez@People.example', mobile: '+14155550123', reference: 'EMP-1' });
    expect(r).toMatchObject({
      email: 'ana.lopez@people.example',
      mobile: '+14155550123',
      reference: 'EMP-1',
      verification: 'unverified',
      status: 'active',
      bank: null,
    });
    expect(r.linkSentAt).not.toBeNull();
    expect(r.actions).toEqual(['Edit', 'Disable', 'Transactions', 'Delete', 'Resend verification']);
    const mail = await outbox(t.app, 'ana.lopez@people.example');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain(`Biz ${biz.email}`);
    expect(mail[0]!.text).toMatch(/\/receiver\/bank-account\/[A-Za-z0-9_-]{43}/);
    const row = await db()
      .selectFrom('receivers')
      .select(['link_token_hash', 'link_expires_at', 'created_by'])
      .where('id', '=', r.receiverId)
      .executeTakeFirstOrThrow();
    expect(row.link_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.link_expires_at!.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await auditActions(r.receiverId)).toEqual(['receiver.created', 'receiver.link_sent']);
  });

  it('refuses a second receiver with the same e-mail (any case) or reference (409, field named)', async () => {
    await create({ email: 'dup@people.example', reference: 'REF-DUP' });
    const byEmail = await call(t.app, 'POST', base(), biz.token, { firstName: 'D', lastName: 'U', email: 'DUP@people.example' });
    expect(byEmail.statusCode).toBe(409);
    expect(errorOf(byEmail).fields).toEqual({ email: expect.stringMatching(/already have a receiver/) });
    const byRef = await call(t.app, 'POST', base(), biz.token, { firstName: 'D', lastName: 'U', email: 'dup2@people.example', reference: 'ref-dup' });
    expect(byRef.statusCode).toBe(409);
    expect(errorOf(byRef).fields).toHaveProperty('reference');
    // Another business may have the same person.
    await create({ email: 'dup@people.example' }, other);
  });

  it('edits, disables, enables; a new e-mail of an unverified receiver gets a new link and the old one stops working', async () => {
    const r = await create({ email: 'before@people.example' });
    const oldToken = linkTokenOf(await outbox(t.app, 'before@people.example'));
    const edited = await call(t.app, 'PATCH', `${base()}/${r.receiverId}`, biz.token, {
      firstName: 'Rita',
      lastName: 'Renamed',
      email: 'after@people.example',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ lastName: 'Renamed', email: 'after@people.example' });
    const newToken = linkTokenOf(await outbox(t.app, 'after@people.example'));
    expect((await t.app.inject({ method: 'GET', url: publicLink(oldToken) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: publicLink(newToken) })).statusCode).toBe(200);

    const disabled = await call(t.app, 'POST', `${base()}/${r.receiverId}/disable`, biz.token);
    expect(disabled.json().data).toMatchObject({ status: 'Disabled', actions: ['Edit', 'Enable', 'Transactions', 'Delete', 'Resend verification'] });
    expect((await call(t.app, 'POST', `${base()}/${r.receiverId}/disable`, biz.token)).statusCode).toBe(409);
    expect((await call(t.app, 'POST', `${base()}/${r.receiverId}/enable`, biz.token)).json().data.status).toBe('active');
    expect(await auditActions(r.receiverId)).toEqual([
      'receiver.created',
      'receiver.link_sent',
      'receiver.updated',
      'receiver.link_sent',
      'receiver.disabled',
      'receiver.enabled',
    ]);
  });

  it('lists with search, filters, sorting and paging, and exports CSV', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@list-receivers.example');
    await enablePayouts(db(), b.businessId);
    for (const [first, last, email, ref] of [
      ['Zoe', 'Adams', 'zoe@list.example', 'Z-1'],
      ['Amy', 'Brown', 'amy@list.example', null],
      ['Max', 'Cole', 'max@list.example', 'M-7'],
    ] as const) {
      await create({ firstName: first, lastName: last, email, reference: ref }, b);
    }
    const list = async (query: string) => (await call(t.app, 'GET', `${base(b)}?${query}`, b.token)).json().data;
    expect((await list('sortBy=name&sortDirection=asc')).items.map((r: Receiver) => r.firstName)).toEqual(['Amy', 'Max', 'Zoe']);
    expect((await list('search=m-7')).items.map((r: Receiver) => r.firstName)).toEqual(['Max']);
    expect((await list('search=BROWN')).total).toBe(1);
    expect((await list('verification=verified')).total).toBe(0);
    expect((await list('status=active')).total).toBe(3);
    const page = await list('pageSize=2&page=2&sortBy=email&sortDirection=asc');
    expect(page).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page.items.map((r: Receiver) => r.email)).toEqual(['zoe@list.example']);
    const bad = await call(t.app, 'GET', `${base(b)}?status=gone`, b.token);
    expect(bad.statusCode).toBe(400);

    const csv = await call(t.app, 'GET', `${base(b)}/export?sortBy=name&sortDirection=asc`, b.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^First name,Last name,E-mail/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['Amy', 'Max', 'Zoe']);
  });

  it('deletes a receiver no payout names; once a payout names one, Delete is refused (409)', async () => {
    const free = await create();
    expect((await call(t.app, 'DELETE', `${base()}/${free.receiverId}`, biz.token)).statusCode).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${free.receiverId}`, biz.token)).statusCode).toBe(404);

    const paid = await create();
    await insertPayoutRow(db(), biz.businessId, { receiverId: paid.receiverId, name: `${paid.firstName} ${paid.lastName}`, email: paid.email });
    const refused = await call(t.app, 'DELETE', `${base()}/${paid.receiverId}`, biz.token);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/Disable them instead/);
    expect((await call(t.app, 'GET', `${base()}/${paid.receiverId}`, biz.token)).json().data.actions).not.toContain('Delete');
  });
});

describe('the secure link', () => {
  it('shows the business and the first name, checks the details, seals the account and uses the link up', async () => {
    const r = await create({ firstName: 'Sam', email: 'sam@bank.example' });
    const token = linkTokenOf(await outbox(t.app, 'sam@bank.example'));
    const page = await t.app.inject({ method: 'GET', url: publicLink(token) });
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ businessName: `Biz ${biz.email}`, firstName: 'Sam', status: 'open', statusMessage: null, currentAccount: null });

    const lookup = await t.app.inject({ method: 'GET', url: `${publicLink(token)}/routing/222096656` });
    expect(lookup.json().data).toEqual({ routingNumber: '222096656', valid: true, bankName: 'Tay Sandbox Bank' });
    expect((await t.app.inject({ method: 'GET', url: `${publicLink(token)}/routing/123456789` })).json().data.valid).toBe(false);

    const mismatch = await postAccount(token, { ...goodAccount, accountNumberConfirm: '000123456780' });
    expect(mismatch.statusCode).toBe(400);
    expect(errorOf(mismatch).fields).toHaveProperty('accountNumberConfirm');
    const checksum = await postAccount(token, { ...goodAccount, routingNumber: '123456789' });
    expect(checksum.statusCode).toBe(400);
    expect(errorOf(checksum).fields).toHaveProperty('routingNumber');
    const short = await postAccount(token, { ...goodAccount, accountNumber: '12', accountNumberConfirm: '12' });
    expect(errorOf(short).fields).toHaveProperty('accountNumber');

    const set = await postAccount(token, goodAccount);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ bankName: 'Tay Sandbox Bank', last4: '6789' });
    // Used up.
    expect((await t.app.inject({ method: 'GET', url: publicLink(token) })).statusCode).toBe(404);
    expect((await postAccount(token, goodAccount)).statusCode).toBe(404);

    const seen = await call(t.app, 'GET', `${base()}/${r.receiverId}`, biz.token);
    expect(seen.json().data).toMatchObject({ verification: 'verified', bank: { bankName: 'Tay Sandbox Bank', last4: '6789', accountType: 'checking' } });
    const row = await db().selectFrom('receivers').selectAll().where('id', '=', r.receiverId).executeTakeFirstOrThrow();
    expect(row.account_number_encrypted).toBeTruthy();
    expect(row.account_number_encrypted).not.toContain('123456789');
    expect(row.bank_set_at).not.toBeNull();
    expect(row.link_token_hash).toBeNull();
    expect(await auditActions(r.receiverId)).toContain('receiver.bank_account_set');

    // The full number is in no business response, no export, and no table but sealed.
    for (const url of [base(), `${base()}/${r.receiverId}`, `${base()}/export`]) {
      expect((await call(t.app, 'GET', url, biz.token)).body).not.toContain('000123456789');
    }
    expect(await tablesHolding(db(), '000123456789')).toEqual([]);
  });

  it('Resend verification sends a new link and the old one stops working; a verified receiver keeps their account until they enter another', async () => {
    const r = await create({ email: 'again@bank.example' });
    const first = linkTokenOf(await outbox(t.app, 'again@bank.example'));
    expect((await postAccount(first, goodAccount)).statusCode).toBe(200);
    const resent = await call(t.app, 'POST', `${base()}/${r.receiverId}/resend-link`, biz.token);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ verification: 'verified', bank: { last4: '6789' } });
    const second = linkTokenOf(await outbox(t.app, 'again@bank.example'));
    expect(second).not.toBe(first);
    const page = await t.app.inject({ method: 'GET', url: publicLink(second) });
    expect(page.json().data.currentAccount).toEqual({ bankName: 'Tay Sandbox Bank', last4: '6789' });
    const third = await call(t.app, 'POST', `${base()}/${r.receiverId}/resend-link`, biz.token);
    expect(third.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: publicLink(second) })).statusCode).toBe(404);
    const latest = linkTokenOf(await outbox(t.app, 'again@bank.example'));
    expect(
      (await postAccount(latest, { ...goodAccount, routingNumber: '092870727', accountNumber: '55554444', accountNumberConfirm: '55554444' })).statusCode,
    ).toBe(200);
    expect((await call(t.app, 'GET', `${base()}/${r.receiverId}`, biz.token)).json().data.bank).toEqual({
      bankName: 'First Test Credit Union',
      last4: '4444',
      accountType: 'checking',
    });
  });

  it('an expired link answers 410 and an unknown one 404, each with a clear message', async () => {
    await create({ email: 'late@bank.example' });
    const token = linkTokenOf(await outbox(t.app, 'late@bank.example'));
    await db()
      .updateTable('receivers')
      .set({ link_expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'late@bank.example')
      .execute();
    const expired = await t.app.inject({ method: 'GET', url: publicLink(token) });
    expect(expired.statusCode).toBe(410);
    expect(errorOf(expired).message).toMatch(/expired.*send you a new one/);
    expect((await postAccount(token, goodAccount)).statusCode).toBe(410);
    const unknown = await t.app.inject({ method: 'GET', url: publicLink('x'.repeat(43)) });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toMatch(/new link/);
  });

  it('takes no bank details while the business cannot pay out', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@paused.example');
    await enablePayouts(db(), b.businessId);
    await create({ email: 'paused@bank.example' }, b);
    const token = linkTokenOf(await outbox(t.app, 'paused@bank.example'));
    await enablePayouts(db(), b.businessId, false);
    const page = await t.app.inject({ method: 'GET', url: publicLink(token) });
    expect(page.json().data).toMatchObject({ status: 'unavailable', statusMessage: expect.stringMatching(/cannot take bank details/) });
    const refused = await postAccount(token, goodAccount);
    expect(refused.statusCode).toBe(409);
  });

  it('limits the tries one device makes on a link (429)', async () => {
    await create({ email: 'busy@bank.example' });
    const token = linkTokenOf(await outbox(t.app, 'busy@bank.example'));
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await t.app.inject({ method: 'GET', url: publicLink(token), remoteAddress: '10.9.9.9' })).statusCode;
    expect(last).toBe(429);
    // Another device is not held up.
    expect((await t.app.inject({ method: 'GET', url: publicLink(token), remoteAddress: '10.9.9.8' })).statusCode).toBe(200);
  });

  it("reseal-secrets seals receivers' account numbers again under a new AUTH_SECRET", async () => {
    const r = await create({ email: 'rotate@bank.example' });
    expect((await postAccount(linkTokenOf(await outbox(t.app, 'rotate@bank.example')), goodAccount)).statusCode).toBe(200);
    const sealed = async () =>
      (await db().selectFrom('receivers').select('account_number_encrypted').where('id', '=', r.receiverId).executeTakeFirstOrThrow())
        .account_number_encrypted!;
    const before = await sealed();
    const context = receiverAccountContext(biz.businessId, r.receiverId);
    const current = t.runtime.config.authSecret;
    const next = 'n'.repeat(48);
    const outcome = await resealReceiverAccounts({ db: db(), secretBox: bankAccountNumberBox([next, current]) });
    expect(outcome.resealed).toBeGreaterThanOrEqual(1);
    expect(outcome.unreadable).toEqual([]);
    const after = await sealed();
    expect(after).not.toBe(before);
    expect(bankAccountNumberBox([next]).open(after, context)).toBe('000123456789');
    // Run again: nothing left to do.
    expect((await resealReceiverAccounts({ db: db(), secretBox: bankAccountNumberBox([next, current]) })).resealed).toBe(0);
  });
});
