import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationProvider, SyncLogEntry } from '@tay/contract';
import { integrationTokenBox, tokenContext } from '../../src/domain/integrations/deps';
import { invoicesApi } from '../invoices/invoice-api';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { connectThroughConsent, integrationOf, settled, standIn, syncNow } from '../support/integrations';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 35, point 16: QuickBooks wants each customer's name unique ("Duplicate Name Exists",
 * 6240). Two payers of one name are both pushed, the second as "Name (e-mail)", as is one whose
 * name a customer made in QuickBooks already has; and the sync log's failed rows can be retried
 * one at a time, or a payer linked to a customer already there.
 */
let t: TestApp;
let biz: ApprovedBusiness;
let realm: string;
const db = () => t.runtime.database.db;
const API = () => `/api/businesses/${biz.businessId}/integrations`;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@rivera-books.example');
  expect((await connectThroughConsent(t, biz, 'quickbooks', 'Rivera Books')).location.searchParams.get('connected')).toBe('1');
  realm = (await settled(t, biz, 'quickbooks')).accountId!;
});
afterAll(async () => t?.close());

/** The integration's access token, as the sync uses it. */
async function accessToken(provider: IntegrationProvider): Promise<string> {
  const row = await db()
    .selectFrom('integrations')
    .select('access_token_sealed')
    .where('business_id', '=', biz.businessId)
    .where('provider', '=', provider)
    .executeTakeFirstOrThrow();
  return integrationTokenBox([t.runtime.config.authSecret]).open(row.access_token_sealed!, tokenContext(biz.businessId, provider, 'access'));
}

/** A record the bookkeeper makes at the provider itself (not through Tay): the provider's answer. */
async function madeThere(provider: IntegrationProvider, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${t.runtime.config.publicUrl}/sandbox/${provider}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await accessToken(provider)}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** A customer made in QuickBooks itself: its Id. */
const madeInQuickBooks = async (displayName: string) =>
  ((await madeThere('quickbooks', `/v3/company/${realm}/customer?minorversion=75`, { DisplayName: displayName })) as { Customer: { Id: string } }).Customer.Id;

type Customer = { id: string; version: number; body: { Id: string; DisplayName: string; PrimaryEmailAddr?: { Address: string } } };
const customers = async () => (await standIn(t, 'quickbooks').records(realm, 'customer')) as unknown as Customer[];
const invoices = async () => (await standIn(t, 'quickbooks').records(realm, 'invoice')) as unknown as { body: { CustomerRef: { value: string } } }[];

async function log(provider: IntegrationProvider, query = ''): Promise<SyncLogEntry[]> {
  const res = await call(t.app, 'GET', `${API()}/${provider}/log?pageSize=100${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as SyncLogEntry[];
}

const retry = (provider: IntegrationProvider, type: string, id: string) => call(t.app, 'POST', `${API()}/${provider}/records/${type}/${id}/retry`, biz.token);
const link = (provider: IntegrationProvider, payerId: string, remoteId: string) =>
  t.app.inject({
    method: 'PUT',
    url: `${API()}/${provider}/payers/${payerId}/link`,
    headers: { authorization: `Bearer ${biz.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ remoteId }),
  });

describe('two payers named Ana Rivera, in QuickBooks Online', () => {
  let second: string;

  it('pushes both, and the invoice of one: the taken name goes as “Name (e-mail)”, not as “0 pushed, 3 failed”', async () => {
    // The bookkeeper's own Ana Rivera, made in QuickBooks before.
    const theirs = await madeInQuickBooks('Ana Rivera');
    await insertPayer(db(), biz.businessId, { displayName: 'Ana Rivera', email: 'ana@x.example' });
    second = await insertPayer(db(), biz.businessId, { displayName: 'Ana Rivera', email: 'ana.rivera@y.example' });
    await invoicesApi(t.app, biz).sent(second);

    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 3, lastSyncFailed: 0, errors: 0 });
    const names = (await customers()).map((c) => c.body.DisplayName);
    expect(names).toEqual(['Ana Rivera', 'Ana Rivera (ana@x.example)', 'Ana Rivera (ana.rivera@y.example)']);
    // The invoice is the second Ana's, at her own customer.
    const secondCustomer = (await customers()).find((c) => c.body.DisplayName === 'Ana Rivera (ana.rivera@y.example)')!;
    expect((await invoices()).map((i) => i.body.CustomerRef.value)).toEqual([secondCustomer.id]);
    expect(secondCustomer.id).not.toBe(theirs);

    const created = await log('quickbooks', '&recordType=customer&outcome=created');
    expect(created.map((e) => [e.recordLabel, e.message])).toEqual([
      [
        'Ana Rivera',
        'Named “Ana Rivera (ana.rivera@y.example)” in QuickBooks Online, where each customer’s name must be unique: “Ana Rivera” is another customer’s.',
      ],
      ['Ana Rivera', 'Named “Ana Rivera (ana@x.example)” in QuickBooks Online, where each customer’s name must be unique: “Ana Rivera” is another customer’s.'],
    ]);

    // Nothing twice; an edit updates under the same unique name.
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 0, lastSyncFailed: 0 });
    await db().updateTable('payers').set({ mobile_number: '+14155550100', updated_at: new Date() }).where('id', '=', second).execute();
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 0 });
    expect((await customers()).map((c) => c.body.DisplayName)).toEqual(names);
  });

  it('Retry pushes one failed record now: refused again in QuickBooks’ words, then created once fixed, then nothing to push', async () => {
    await standIn(t, 'quickbooks').switches({ accountId: realm, failRecord: { match: 'Refused Rivera', message: 'A made-up rule refused this customer' } });
    const refused = await insertPayer(db(), biz.businessId, { displayName: 'Refused Rivera', email: 'refused@x.example' });
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncFailed: 1, errors: 1 });
    const [failed] = await log('quickbooks', '&outcome=failed');
    expect(failed).toMatchObject({ recordType: 'customer', recordId: refused, recordLabel: 'Refused Rivera' });

    const again = await retry('quickbooks', 'customer', refused);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ recordId: refused, outcome: 'failed' });
    expect(again.json().data.message).toContain('A made-up rule refused this customer');

    await standIn(t, 'quickbooks').switches({ accountId: realm, failRecord: null });
    const fixed = await retry('quickbooks', 'customer', refused);
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data).toMatchObject({ recordId: refused, recordLabel: 'Refused Rivera', outcome: 'created', remoteId: expect.any(String) });
    expect(await integrationOf(t, biz, 'quickbooks')).toMatchObject({ errors: 0, syncState: 'idle' });
    expect((await customers()).some((c) => c.body.DisplayName === 'Refused Rivera')).toBe(true);

    const nothing = await retry('quickbooks', 'customer', refused);
    expect(nothing.json().data).toMatchObject({ outcome: 'info', message: 'Retried: already up to date in QuickBooks Online, nothing to push.' });
    expect((await retry('quickbooks', 'customer', 'pyr_nobody')).statusCode).toBe(404);

    // Not beside a run: one push at a time.
    await db()
      .updateTable('integrations')
      .set({ sync_state: 'running', sync_lease_until: new Date(Date.now() + 60_000) })
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .execute();
    const busy = await retry('quickbooks', 'customer', refused);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().errorDetails.message).toBe('A sync with QuickBooks Online is running now: try again when it has finished.');
    await db()
      .updateTable('integrations')
      .set({ sync_state: 'idle', sync_lease_until: null })
      .where('business_id', '=', biz.businessId)
      .where('provider', '=', 'quickbooks')
      .execute();
  });

  it('Link to an existing record: a payer whose names are both taken is linked to the customer already there, which the next sync updates', async () => {
    const bookkeepers = await madeInQuickBooks('Bo Diaz');
    await madeInQuickBooks('Bo Diaz (bo@x.example)');
    const bo = await insertPayer(db(), biz.businessId, { displayName: 'Bo Diaz', email: 'bo@x.example' });
    const invoice = await invoicesApi(t.app, biz).sent(bo);
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncFailed: 2, errors: 2 });
    const [refused] = await log('quickbooks', '&outcome=failed&recordType=customer');
    expect(refused!.recordId).toBe(bo);
    expect(refused!.message).toContain('Duplicate Name Exists Error');
    expect(refused!.message).toContain('Tay sent “Bo Diaz”, then “Bo Diaz (bo@x.example)”: both are taken.');
    const before = (await customers()).length;

    const unknown = await link('quickbooks', bo, '999999');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errorDetails.message).toMatch(/^QuickBooks Online has no customer 999999\./);
    const firstAna = (await customers()).find((c) => c.body.DisplayName === 'Ana Rivera (ana@x.example)')!;
    const taken = await link('quickbooks', bo, firstAna.id);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errorDetails.message).toContain('is already linked to the payer Ana Rivera');
    expect((await link('quickbooks', bo, 'not-digits')).statusCode).toBe(400);

    const linked = await link('quickbooks', bo, bookkeepers);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data).toMatchObject({ recordType: 'customer', recordId: bo, remoteId: bookkeepers, outcome: 'info' });
    expect(linked.json().data.message).toContain(`to the existing QuickBooks Online customer ${bookkeepers} (“Bo Diaz”)`);

    // The run it queued updates that customer (no new one), and the invoice waiting for it goes to it.
    expect(await settled(t, biz, 'quickbooks')).toMatchObject({ errors: 0 });
    const after = await customers();
    expect(after).toHaveLength(before);
    expect(after.find((c) => c.id === bookkeepers)).toMatchObject({
      version: 1,
      body: { DisplayName: 'Bo Diaz', PrimaryEmailAddr: { Address: 'bo@x.example' } },
    });
    expect((await invoices()).at(-1)!.body.CustomerRef.value).toBe(bookkeepers);
    expect((await log('quickbooks', '&recordType=invoice&outcome=created'))[0]!.recordId).toBe(invoice.invoiceId);
  });
});

describe('the sync log’s actions with FreshBooks', () => {
  it('links a payer to a client already in FreshBooks by its number', async () => {
    expect((await connectThroughConsent(t, biz, 'freshbooks', 'Rivera on FreshBooks')).location.searchParams.get('connected')).toBe('1');
    const account = (await settled(t, biz, 'freshbooks')).accountId!;
    const made = (await madeThere('freshbooks', `/accounting/account/${account}/users/clients`, {
      client: { fname: 'Cy', lname: 'Vale', email: 'cy@x.example' },
    })) as { response: { result: { client: { id: number } } } };
    const clientId = String(made.response.result.client.id);
    const count = (await standIn(t, 'freshbooks').records(account, 'customer')).length;
    const payer = await insertPayer(db(), biz.businessId, { displayName: 'Cy Vale', email: 'cy@x.example' });

    expect((await link('freshbooks', payer, '424242')).statusCode).toBe(422);
    const linked = await link('freshbooks', payer, clientId);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data.message).toContain(`to the existing FreshBooks client ${clientId} (“Cy Vale”)`);
    await settled(t, biz, 'freshbooks');
    const clients = await standIn(t, 'freshbooks').records(account, 'customer');
    expect(clients).toHaveLength(count);
    expect(clients.find((c) => String(c.id) === clientId)).toMatchObject({ version: 1 });
  });
});
