import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES, type SyncLogEntry } from '@tay/contract';
import { integrationTokenBox, tokenContext } from '../../src/domain/integrations/deps';
import { startConnect } from '../../src/domain/integrations/connect';
import { runSync, sweepIntegrations, type SyncJob } from '../../src/domain/integrations/sync';
import { accountingProviders } from '../../src/accounting/providers';
import type { IntegrationDeps } from '../../src/domain/integrations/deps';
import { listIntegrations } from '../../src/domain/integrations/view';
import { invoiceEmail, invoicesApi } from '../invoices/invoice-api';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { connectThroughConsent, consentRedirect, integrationOf, settled, standIn, syncNow } from '../support/integrations';
import { CARDS, pay, tokenize } from '../support/payments';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/**
 * Accounting integrations against the built-in stand-ins (issue 24, ADR 041): OAuth with a state
 * and PKCE, tokens sealed and refreshed, payers → customers, invoices → invoices, payments applied
 * to them, a second sync creating nothing twice, a record the provider refuses, a 429, a revoked
 * token, and tenant isolation.
 */
let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
const db = () => t.runtime.database.db;
/** Every body the API answered in this file: no token may appear in any of them. */
const bodies: string[] = [];

async function api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, token = biz.token, businessId = biz.businessId) {
  const res = await call(t.app, method, `/api/businesses/${businessId}/integrations${path}`, token);
  bodies.push(res.body);
  return res;
}

async function log(provider: 'quickbooks' | 'freshbooks', query = ''): Promise<SyncLogEntry[]> {
  const res = await api('GET', `/${provider}/log?pageSize=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as SyncLogEntry[];
}

/** The processor's return of a payment (an ACH return, a chargeback), as its webhook records it. */
async function returnPayment(requestId: string) {
  await db()
    .updateTable('payments')
    .set({ state: 'Returned', returned_at: new Date(), failure_reason: 'R01: insufficient funds' })
    .where('business_id', '=', biz.businessId)
    .where('request_id', '=', requestId)
    .execute();
}

/** A payer with a sent invoice that was paid by card: a customer, an invoice and a payment to push. */
async function paidInvoice(email: string, displayName: string) {
  const payerId = await insertPayer(db(), biz.businessId, { email, displayName });
  const invoice = await invoicesApi(t.app, biz).sent(payerId);
  const { token } = await invoiceEmail(db(), invoice.transactionId!);
  const paid = await pay(
    t.app,
    token,
    { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1000 },
    `pay-${invoice.invoiceId}`,
  );
  expect(paid.statusCode, paid.body).toBeLessThan(300);
  await eventually(async () => {
    const p = await db().selectFrom('payments').select('processed_at').where('request_id', '=', invoice.transactionId!).executeTakeFirst();
    return p?.processed_at ?? undefined;
  });
  return { payerId, invoice };
}

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@books.example');
  other = await approvedBusiness(t.app, db(), 'owner@other-books.example');
});
afterAll(async () => t?.close());

describe('QuickBooks Online through its stand-in', () => {
  let accountId: string;
  let first: Awaited<ReturnType<typeof paidInvoice>>;

  it('starts not connected, and connects through the consent page with a one-use state', async () => {
    expect((await integrationOf(t, biz, 'quickbooks')).state).toBe('not_connected');
    first = await paidInvoice('ada@customers.example', 'Ada Lovelace');
    const { location, callback, cookie } = await connectThroughConsent(t, biz, 'quickbooks', 'Books of Acme');
    expect(location.pathname).toBe('/business/setup/integrations');
    expect(Object.fromEntries(location.searchParams)).toEqual({ provider: 'quickbooks', connected: '1' });
    expect(callback.searchParams.get('realmId')).toBeTruthy();

    // The same state a second time is refused: it was used.
    const again = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(new URL(again.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_state');

    const connected = await settled(t, biz, 'quickbooks');
    expect(connected).toMatchObject({ state: 'connected', companyName: 'Books of Acme', connectedBy: expect.any(String) });
    accountId = connected.accountId!;
    expect(accountId).toBe(callback.searchParams.get('realmId'));
  });

  it('pushes the payer, the invoice and its payment on the first sync, each linked to its QuickBooks id', async () => {
    const done = await settled(t, biz, 'quickbooks');
    expect(done).toMatchObject({ lastSyncPushed: 3, lastSyncFailed: 0, recordsSynced: 3, errors: 0 });
    const qb = standIn(t, 'quickbooks');
    const customers = await qb.records(accountId, 'customer');
    const invoices = await qb.records(accountId, 'invoice');
    const payments = await qb.records(accountId, 'payment');
    expect(customers).toHaveLength(1);
    expect(JSON.stringify(customers[0])).toContain('Ada Lovelace');
    expect(invoices).toHaveLength(1);
    expect(JSON.stringify(invoices[0])).toContain(String(first.invoice.number));
    // QuickBooks' own total is our invoice's total, to the cent.
    const total =
      (invoices[0] as { TotalAmt?: number; body?: { TotalAmt?: number } }).TotalAmt ?? (invoices[0] as { body?: { TotalAmt?: number } }).body?.TotalAmt;
    if (total !== undefined) expect(Math.round(total * 100)).toBe(first.invoice.totalCents);
    expect(payments).toHaveLength(1);

    const entries = await log('quickbooks', '&outcome=created');
    expect(entries.map((e) => e.recordType).sort()).toEqual(['customer', 'invoice', 'payment']);
    expect(entries.find((e) => e.recordType === 'payment')!.recordLabel).toBe(`Payment of $10.00 on Invoice ${first.invoice.number}`);
    expect(entries.every((e) => e.remoteId)).toBe(true);
  });

  it('a second sync creates nothing twice; a changed payer is updated, not duplicated', async () => {
    const pushesBefore = (await log('quickbooks')).filter((e) => e.direction === 'push').length;
    const again = await syncNow(t, biz, 'quickbooks');
    expect(again).toMatchObject({ lastSyncPushed: 0, lastSyncFailed: 0, recordsSynced: 3 });
    expect((await log('quickbooks')).filter((e) => e.direction === 'push')).toHaveLength(pushesBefore);
    for (const type of ['customer', 'invoice', 'payment'] as const) expect(await standIn(t, 'quickbooks').records(accountId, type)).toHaveLength(1);

    await db().updateTable('payers').set({ display_name: 'Ada King', updated_at: new Date() }).where('id', '=', first.payerId).execute();
    const updated = await syncNow(t, biz, 'quickbooks');
    expect(updated).toMatchObject({ lastSyncPushed: 1, recordsSynced: 3 });
    const customers = await standIn(t, 'quickbooks').records(accountId, 'customer');
    expect(customers).toHaveLength(1);
    expect(JSON.stringify(customers[0])).toContain('Ada King');
    expect((await log('quickbooks', '&outcome=updated'))[0]).toMatchObject({ recordType: 'customer', recordLabel: 'Ada King' });
  });

  it('a change nobody synced by hand reaches QuickBooks with the five-minute sweep', async () => {
    await db().updateTable('payers').set({ display_name: 'Ada Byron', updated_at: new Date() }).where('id', '=', first.payerId).execute();
    expect(await sweepIntegrations({ db: db(), jobs: t.runtime.jobs })).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      const customers = await standIn(t, 'quickbooks').records(accountId, 'customer');
      return JSON.stringify(customers).includes('Ada Byron') || undefined;
    });
    expect(await standIn(t, 'quickbooks').records(accountId, 'customer')).toHaveLength(1);
    await settled(t, biz, 'quickbooks');
  });

  it('a record QuickBooks refuses is logged with its own words, and the others still go', async () => {
    await standIn(t, 'quickbooks').switches({
      accountId,
      failRecord: { match: 'Refused Person', message: 'Business Validation Error: a made-up rule refused this customer' },
    });
    await insertPayer(db(), biz.businessId, { email: 'refused@customers.example', displayName: 'Refused Person' });
    await insertPayer(db(), biz.businessId, { email: 'fine@customers.example', displayName: 'Fine Person' });
    const run = await syncNow(t, biz, 'quickbooks');
    expect(run).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 1, errors: 1 });
    const [failed] = await log('quickbooks', '&outcome=failed&recordType=customer');
    expect(failed).toMatchObject({ recordLabel: 'Refused Person', outcome: 'failed' });
    expect(failed!.message).toContain('a made-up rule refused this customer');
    expect((await standIn(t, 'quickbooks').records(accountId, 'customer')).map((c) => JSON.stringify(c)).join()).toContain('Fine Person');

    // Fixed at the provider: Sync now tries the failed one again.
    await standIn(t, 'quickbooks').switches({ accountId, failRecord: null });
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 0, errors: 0 });
  });

  it('Sync now retries each earlier failure once, however many runs it takes: a record refused again is not retried by its follow-on runs', async () => {
    await standIn(t, 'quickbooks').switches({ accountId, failRecord: { match: 'Loop Refused', message: 'Business Validation Error: refused every time' } });
    for (const n of [1, 2, 3]) await insertPayer(db(), biz.businessId, { email: `loop${n}@customers.example`, displayName: `Loop Refused ${n}` });
    await syncNow(t, biz, 'quickbooks'); // three failures on record
    const sent: SyncJob[] = [];
    const deps = {
      db: db(),
      providers: accountingProviders(t.runtime.config.accounting),
      box: integrationTokenBox([t.runtime.config.authSecret]),
      publicUrl: t.runtime.config.publicUrl,
      jobs: { send: async (_name: string, data: unknown) => (sent.push(data as SyncJob), null) },
    } as unknown as IntegrationDeps;
    // Two records per run: the first run retries two of the three, which fail again.
    await runSync(deps, { businessId: biz.businessId, provider: 'quickbooks', manual: true }, { recordsPerRun: 2 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.retryFailedBefore).toBeDefined();
    // Its follow-on retries the third only, and ends: the two that failed in this sync are not picked up again.
    await runSync(deps, sent[0]!, { recordsPerRun: 2 });
    expect(sent).toHaveLength(1);
    const done = await integrationOf(t, biz, 'quickbooks');
    expect(done).toMatchObject({ syncState: 'idle', lastSyncFailed: 3 });
    // Fixed at the provider, they all go on the next Sync now.
    await standIn(t, 'quickbooks').switches({ accountId, failRecord: null });
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 3, lastSyncFailed: 0, errors: 0 });
  });

  it('backs off when QuickBooks answers 429 and resumes by itself after Retry-After', async () => {
    await standIn(t, 'quickbooks').switches({ accountId, rateLimit: { count: 1, retryAfterSeconds: 1 } });
    await insertPayer(db(), biz.businessId, { email: 'later@customers.example', displayName: 'Later Person' });
    await api('POST', '/quickbooks/sync');
    const waited = await eventually(async () => {
      const entries = await log('quickbooks', '');
      return entries.find((e) => e.recordLabel === 'Rate limit') ?? undefined;
    });
    expect(waited.message).toContain('429');
    const done = await settled(t, biz, 'quickbooks');
    expect(done.problem).toBeNull();
    expect((await log('quickbooks', '&outcome=created&recordType=customer'))[0]!.recordLabel).toBe('Later Person');
  });

  it('a refused token turns it to "needs reconnecting"; reconnecting the same company keeps every link', async () => {
    await standIn(t, 'quickbooks').switches({ accountId, refuseTokens: true });
    // The access token is near its end, so the run refreshes first, and the refresh is refused.
    await db()
      .updateTable('integrations')
      .set({ access_expires_at: new Date(Date.now() + 60_000) })
      .where('business_id', '=', biz.businessId)
      .execute();
    await api('POST', '/quickbooks/sync');
    const broken = await eventually(async () => {
      const i = await integrationOf(t, biz, 'quickbooks');
      return i.state === 'needs_reconnect' ? i : undefined;
    });
    expect(broken.problem).toBe(INTEGRATION_MESSAGES.tokenRefused);
    expect((await api('POST', '/quickbooks/sync')).statusCode).toBe(409);

    await standIn(t, 'quickbooks').switches({ accountId, refuseTokens: false });
    const customersBefore = (await standIn(t, 'quickbooks').records(accountId, 'customer')).length;
    await connectThroughConsent(t, biz, 'quickbooks', 'Books of Acme');
    const back = await settled(t, biz, 'quickbooks');
    expect(back).toMatchObject({ state: 'connected', accountId, lastSyncFailed: 0 });
    expect(await standIn(t, 'quickbooks').records(accountId, 'customer')).toHaveLength(customersBefore);
    expect(await standIn(t, 'quickbooks').records(accountId, 'invoice')).toHaveLength(1);
    expect(await standIn(t, 'quickbooks').records(accountId, 'payment')).toHaveLength(1);
  });

  it('refreshes an access token before it expires, and keeps tokens sealed and out of every answer', async () => {
    const row = await db()
      .selectFrom('integrations')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .executeTakeFirstOrThrow();
    const box = integrationTokenBox([t.runtime.config.authSecret]);
    const oldAccess = box.open(row.access_token_sealed!, tokenContext(biz.businessId, 'quickbooks', 'access'));
    await db()
      .updateTable('integrations')
      .set({ access_expires_at: new Date(Date.now() + 60_000) })
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .execute();
    await syncNow(t, biz, 'quickbooks');
    const after = await db()
      .selectFrom('integrations')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .executeTakeFirstOrThrow();
    const newAccess = box.open(after.access_token_sealed!, tokenContext(biz.businessId, 'quickbooks', 'access'));
    expect(newAccess).not.toBe(oldAccess);
    expect(after.access_expires_at!.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    expect(after.access_token_sealed).not.toContain(newAccess);
    expect((await log('quickbooks')).some((e) => e.recordLabel === 'Access token' && e.message === 'Refreshed before it expired.')).toBe(true);

    const refresh = box.open(after.refresh_token_sealed!, tokenContext(biz.businessId, 'quickbooks', 'refresh'));
    const csv = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/integrations/quickbooks/log.csv`, biz.token);
    bodies.push(csv.body);
    for (const body of bodies) {
      for (const secret of [oldAccess, newAccess, refresh]) expect(body).not.toContain(secret);
    }
  });

  it('a payment returned after its push is taken back at QuickBooks, once', async () => {
    const [payment] = await standIn(t, 'quickbooks').records(accountId, 'payment');
    expect(payment).toBeDefined();
    await returnPayment(first.invoice.transactionId!);
    const run = await syncNow(t, biz, 'quickbooks');
    expect(run).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 0 });
    expect(await standIn(t, 'quickbooks').records(accountId, 'payment')).toHaveLength(0);
    const [voided] = await log('quickbooks', '&outcome=voided');
    expect(voided).toMatchObject({ recordType: 'payment', recordLabel: `Payment of $10.00 on Invoice ${first.invoice.number}` });
    expect(voided!.message).toContain('R01');
    // Once: the next sync has nothing to take back.
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 0 });
    expect(await log('quickbooks', '&outcome=voided')).toHaveLength(1);
  });

  it('an invoice withdrawn after its push is voided at QuickBooks; one withdrawn before is never pushed', async () => {
    const invoices = invoicesApi(t.app, biz);
    const payerId = await insertPayer(db(), biz.businessId, { email: 'withdrawn@customers.example', displayName: 'Wanda Withdrawn' });
    const pushed = await invoices.sent(payerId);
    await syncNow(t, biz, 'quickbooks');
    const before = await standIn(t, 'quickbooks').records(accountId, 'invoice');
    expect(before).toHaveLength(2);

    expect((await invoices.command(pushed.invoiceId, 'withdraw')).statusCode).toBe(200);
    const never = await invoices.sent(payerId);
    expect((await invoices.command(never.invoiceId, 'withdraw')).statusCode).toBe(200);
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncFailed: 0 });

    const after = await standIn(t, 'quickbooks').records(accountId, 'invoice');
    expect(after).toHaveLength(2);
    const voided = after.find((r) => JSON.stringify(r).includes(pushed.number))!;
    expect(JSON.stringify(voided)).toContain('"TotalAmt":0');
    expect(JSON.stringify(voided)).toContain('Voided');
    expect(JSON.stringify(after)).not.toContain(never.number);
    const [entry] = await log('quickbooks', '&outcome=voided&recordType=invoice');
    expect(entry).toMatchObject({ recordLabel: `Invoice ${pushed.number}` });
    expect(entry!.message).toContain('Withdrawn in Tay');
  });

  it('a consent link forwarded to someone else connects nothing: the callback must come back to the browser that pressed Connect', async () => {
    // The owner presses Connect, and the consent link reaches another person, who approves their own company.
    const forwarded = await consentRedirect(t, biz, 'quickbooks', 'Someone Else’s Books');
    const elsewhere = await fetch(forwarded.callback, { redirect: 'manual' });
    expect(new URL(elsewhere.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_state');
    // A cookie of another Connect does not do either.
    const mine = await consentRedirect(t, biz, 'quickbooks', 'Someone Else’s Books');
    const wrongCookie = await fetch(mine.callback, { redirect: 'manual', headers: { cookie: forwarded.cookie } });
    expect(new URL(wrongCookie.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_state');
    expect((await integrationOf(t, biz, 'quickbooks')).companyName).toBe('Books of Acme');
  });

  it('refuses a state it did not make, a cancelled consent, and an expired code', async () => {
    const forged = await fetch(`${t.runtime.config.publicUrl}/api/integrations/quickbooks/callback?code=abc&state=not-ours&realmId=1`, { redirect: 'manual' });
    expect(forged.status).toBe(303);
    expect(new URL(forged.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_state');

    const cancelled = await connectThroughConsent(t, biz, 'quickbooks', 'Books of Acme', 'Cancel');
    expect(cancelled.location.searchParams.get('error')).toBe('denied');

    await standIn(t, 'quickbooks').switches({ accountId, expireCodes: true });
    const expired = await connectThroughConsent(t, biz, 'quickbooks', 'Books of Acme');
    expect(expired.location.searchParams.get('error')).toBe('code_rejected');
    // The provider's own words are in the sync log.
    expect((await log('quickbooks', '&outcome=failed'))[0]!.message).toContain(INTEGRATION_MESSAGES.codeRejected);
    await standIn(t, 'quickbooks').switches({ accountId, expireCodes: false });
    // A refused reconnect leaves the working connection as it was.
    expect((await integrationOf(t, biz, 'quickbooks')).state).toBe('connected');
  });

  it('keeps other businesses and other roles out', async () => {
    // Another business's owner, on our business: 404 on every endpoint.
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/quickbooks/connect'],
      ['POST', '/quickbooks/sync'],
      ['DELETE', '/quickbooks'],
      ['GET', '/quickbooks/log'],
      ['GET', '/quickbooks/log.csv'],
    ] as const) {
      expect((await api(method, path, other.token)).statusCode, `${method} ${path}`).toBe(404);
    }
    // Their own list knows nothing of ours.
    const theirs = await api('GET', '', other.token, other.businessId);
    expect(theirs.json().data.every((i: { state: string }) => i.state === 'not_connected')).toBe(true);
    expect((await api('GET', '/quickbooks/log', other.token, other.businessId)).json().data.total).toBe(0);

    // A state made for another business cannot connect ours: the state alone says whose it is.
    const theirs2 = await consentRedirect(t, other, 'quickbooks', 'Their Books');
    const landed = await fetch(theirs2.callback, { redirect: 'manual', headers: { cookie: theirs2.cookie } });
    expect(new URL(landed.headers.get('location')!, 'http://x').searchParams.get('connected')).toBe('1');
    expect((await integrationOf(t, biz, 'quickbooks')).companyName).toBe('Books of Acme');
    expect((await integrationOf(t, other, 'quickbooks')).companyName).toBe('Their Books');
  });

  it('disconnects: revokes and forgets the tokens, keeps the log', async () => {
    const res = await api('DELETE', '/quickbooks');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'not_connected', companyName: null, recordsSynced: 0 });
    const row = await db()
      .selectFrom('integrations')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .executeTakeFirstOrThrow();
    expect(row.access_token_sealed).toBeNull();
    expect(row.refresh_token_sealed).toBeNull();
    const entries = await log('quickbooks');
    expect(entries[0]!.recordLabel).toBe('Disconnect from QuickBooks Online');
    expect(entries[0]!.message).toContain('revoked');
    expect(entries.filter((e) => e.outcome === 'created').length).toBeGreaterThanOrEqual(3);
    expect((await api('POST', '/quickbooks/sync')).statusCode).toBe(409);
    // Who connected and who disconnected, in the business's audit trail.
    const audit = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/audit?pageSize=100`, biz.token);
    const audited = (audit.json().data.items as { action: string; actor: string; summary: string }[]).filter((e) => e.action.startsWith('integration.'));
    expect(audited[0]).toMatchObject({
      action: 'integration.disconnected',
      actor: biz.email,
      summary: expect.stringMatching(/^Disconnected QuickBooks Online/),
    });
    expect(audited.some((e) => e.action === 'integration.connected' && e.actor === biz.email && e.summary.startsWith('Connected QuickBooks Online ('))).toBe(
      true,
    );
  });
});

describe('a provider this server does not offer', () => {
  it('is listed as not available, and Connect answers 503 saying so (production without its credentials)', async () => {
    const deps = {
      db: db(),
      providers: { quickbooks: null, freshbooks: null },
      box: integrationTokenBox([t.runtime.config.authSecret]),
      publicUrl: t.runtime.config.publicUrl,
      jobs: t.runtime.jobs,
    };
    expect((await listIntegrations(deps, other.businessId)).map((i) => [i.provider, i.available])).toEqual([
      ['quickbooks', false],
      ['freshbooks', false],
    ]);
    await expect(startConnect(deps, { businessId: other.businessId, provider: 'freshbooks', userId: 'usr_x' })).rejects.toMatchObject({
      statusCode: 503,
      message: 'FreshBooks is not available on this server yet. Contact Tay support.',
    });
    // Here, with the stand-ins, both are offered.
    expect((await integrationOf(t, other, 'freshbooks')).available).toBe(true);
  });
});

describe('FreshBooks through its stand-in', () => {
  it('connects with PKCE and pushes clients, invoices and payments', async () => {
    const { location, callback } = await connectThroughConsent(t, biz, 'freshbooks', 'Acme on FreshBooks');
    expect(location.searchParams.get('connected')).toBe('1');
    expect(callback.searchParams.get('realmId')).toBeNull();
    const done = await settled(t, biz, 'freshbooks');
    expect(done).toMatchObject({ state: 'connected', companyName: 'Acme on FreshBooks', lastSyncFailed: 0, errors: 0 });
    const fb = standIn(t, 'freshbooks');
    const payers = await db().selectFrom('payers').select('id').where('business_id', '=', biz.businessId).execute();
    expect(await fb.records(done.accountId!, 'customer')).toHaveLength(payers.length);
    expect(await fb.records(done.accountId!, 'invoice')).toHaveLength(1);
    // The one payment so far was returned before FreshBooks was connected: it is never pushed.
    expect(await fb.records(done.accountId!, 'payment')).toHaveLength(0);
    expect(await syncNow(t, biz, 'freshbooks')).toMatchObject({ lastSyncPushed: 0 });
    expect(await fb.records(done.accountId!, 'customer')).toHaveLength(payers.length);

    // A new paid invoice goes with its payment; returned, the payment is marked deleted there (FreshBooks' vis_state 1).
    const second = await paidInvoice('grace@customers.example', 'Grace Hopper');
    expect(await syncNow(t, biz, 'freshbooks')).toMatchObject({ lastSyncPushed: 3, lastSyncFailed: 0 });
    const [pushed] = await fb.records(done.accountId!, 'payment');
    expect(pushed).toBeDefined();
    await returnPayment(second.invoice.transactionId!);
    expect(await syncNow(t, biz, 'freshbooks')).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 0 });
    const [voided] = await fb.records(done.accountId!, 'payment');
    expect(JSON.stringify(voided)).toContain('"vis_state":1');
    expect((await log('freshbooks', '&outcome=voided'))[0]!.recordLabel).toBe(`Payment of $10.00 on Invoice ${second.invoice.number}`);
  });
});
