import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationCallbackMessage, type IntegrationProvider, type SyncLogEntry } from '@tay/contract';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { connectThroughConsent, consentRedirect, integrationOf, settled } from '../support/integrations';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 35, point 5: an authorization code is bound to the Connect that asked for it. FreshBooks
 * takes PKCE; QuickBooks (Intuit documents no PKCE) is held to one company, one Tay business: a
 * callback whose company another business has connected connects nothing, and says what to do.
 * The attacker's own steps, against the stand-ins.
 */
let t: TestApp;
let a: ApprovedBusiness;
let b: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  a = await approvedBusiness(t.app, db(), 'owner@a-books.example');
  b = await approvedBusiness(t.app, db(), 'owner@b-books.example');
});
afterAll(async () => t?.close());

/** Connect pressed in a business's browser, and nothing more: its own state (in the consent page's address) and cookie. */
async function pressConnect(biz: ApprovedBusiness, provider: IntegrationProvider): Promise<{ state: string; cookie: string }> {
  const res = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/integrations/${provider}/connect`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return {
    state: new URL(res.json().data.url as string).searchParams.get('state')!,
    cookie: String(res.headers['set-cookie']).split(';')[0]!,
  };
}

/** Our callback, as a browser brings it back: where it sends the browser, `connected` or `error`. */
async function callback(provider: IntegrationProvider, query: Record<string, string>, cookie: string) {
  const url = new URL(`${t.runtime.config.publicUrl}/api/integrations/${provider}/callback`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location')!, 'http://x');
  return { connected: location.searchParams.get('connected'), error: location.searchParams.get('error') };
}

async function log(biz: ApprovedBusiness, provider: IntegrationProvider): Promise<SyncLogEntry[]> {
  const res = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/integrations/${provider}/log?pageSize=100`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as SyncLogEntry[];
}

describe('QuickBooks Online: one company, one Tay business', () => {
  let realm: string;

  it('a code from A’s consent, brought back with B’s own state and cookie, does not connect B to A’s company', async () => {
    // A is connected to its company, and may connect it again (a reconnect is not refused).
    expect((await connectThroughConsent(t, a, 'quickbooks', 'Books of A')).location.searchParams.get('connected')).toBe('1');
    realm = (await settled(t, a, 'quickbooks')).accountId!;
    expect((await connectThroughConsent(t, a, 'quickbooks', 'Books of A')).location.searchParams.get('connected')).toBe('1');
    await settled(t, a, 'quickbooks');

    // A's owner connects again; the code on its way back to A's browser is taken (a log, a Referer, an extension).
    const taken = await consentRedirect(t, a, 'quickbooks', 'Books of A');
    const code = taken.callback.searchParams.get('code')!;
    expect(taken.callback.searchParams.get('realmId')).toBe(realm);
    // B's owner presses Connect in their own browser, then brings A's code back with B's state and cookie.
    const mine = await pressConnect(b, 'quickbooks');
    expect(await callback('quickbooks', { code, state: mine.state, realmId: realm }, mine.cookie)).toEqual({ connected: null, error: 'company_in_use' });

    expect(await integrationOf(t, b, 'quickbooks')).toMatchObject({ state: 'not_connected', accountId: null, companyName: null });
    const [refused] = await log(b, 'quickbooks');
    expect(refused).toMatchObject({ direction: 'connection', outcome: 'failed' });
    expect(refused!.message).toContain('already connected to another Tay business');
    // A keeps its connection, and is told someone tried.
    expect(await integrationOf(t, a, 'quickbooks')).toMatchObject({ state: 'connected', accountId: realm, companyName: 'Books of A' });
    expect((await log(a, 'quickbooks'))[0]).toMatchObject({
      outcome: 'info',
      message: `Another Tay business tried to connect this QuickBooks Online company ${realm}; it was refused, and this connection is unchanged.`,
    });
  });

  it('a company another business has connected is refused at its consent, in words that say what to do; once disconnected there, it connects', async () => {
    const refused = await connectThroughConsent(t, b, 'quickbooks', 'books of a');
    expect(refused.location.searchParams.get('error')).toBe('company_in_use');
    expect(integrationCallbackMessage('company_in_use', 'quickbooks')).toBe(
      'This QuickBooks Online company is already connected to another Tay business, so it was not connected here. An owner of that business must disconnect it there first; then connect it here again, or choose another company.',
    );
    expect((await integrationOf(t, b, 'quickbooks')).state).toBe('not_connected');

    // Needing reconnecting, the company is still A's.
    await db()
      .updateTable('integrations')
      .set({ state: 'needs_reconnect' })
      .where('business_id', '=', a.businessId)
      .where('provider', '=', 'quickbooks')
      .execute();
    expect((await connectThroughConsent(t, b, 'quickbooks', 'Books of A')).location.searchParams.get('error')).toBe('company_in_use');

    // A disconnects it: now B may connect it, and A may not take it back.
    const gone = await call(t.app, 'DELETE', `/api/businesses/${a.businessId}/integrations/quickbooks`, a.token);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await connectThroughConsent(t, b, 'quickbooks', 'Books of A')).location.searchParams.get('connected')).toBe('1');
    expect(await settled(t, b, 'quickbooks')).toMatchObject({ state: 'connected', accountId: realm });
    expect((await connectThroughConsent(t, a, 'quickbooks', 'Books of A')).location.searchParams.get('error')).toBe('company_in_use');
    expect((await integrationOf(t, a, 'quickbooks')).state).toBe('not_connected');
  });

  it('two businesses coming back with one new company at once: one connects, the other is refused', async () => {
    const c = await approvedBusiness(t.app, db(), 'owner@c-books.example');
    const d = await approvedBusiness(t.app, db(), 'owner@d-books.example');
    const [forC, forD] = [await consentRedirect(t, c, 'quickbooks', 'Race Books'), await consentRedirect(t, d, 'quickbooks', 'Race Books')];
    const outcomes = await Promise.all([forC, forD].map((flow) => callback('quickbooks', Object.fromEntries(flow.callback.searchParams), flow.cookie)));
    expect(outcomes.map((o) => o.connected ?? o.error).sort()).toEqual(['1', 'company_in_use']);
    const states = [(await integrationOf(t, c, 'quickbooks')).state, (await integrationOf(t, d, 'quickbooks')).state];
    expect(states.sort()).toEqual(['connected', 'not_connected']);
    await Promise.all([settled(t, c, 'quickbooks'), settled(t, d, 'quickbooks')]);
  });
});

describe('FreshBooks: PKCE binds a code to the Connect that asked for it', () => {
  it('a code from A’s consent, brought back with B’s state and cookie, is refused even for an account nobody has connected', async () => {
    const taken = await consentRedirect(t, a, 'freshbooks', 'Fresh A');
    const mine = await pressConnect(b, 'freshbooks');
    const res = await callback('freshbooks', { code: taken.callback.searchParams.get('code')!, state: mine.state }, mine.cookie);
    expect(res).toEqual({ connected: null, error: 'code_rejected' });
    expect((await integrationOf(t, b, 'freshbooks')).state).toBe('not_connected');
    expect((await log(b, 'freshbooks'))[0]!.message).toContain('code_verifier');
  });
});
