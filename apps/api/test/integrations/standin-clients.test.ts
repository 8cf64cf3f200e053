import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshBooksProvider } from '../../src/accounting/freshbooks/client';
import {
  ProviderAuthError,
  ProviderRateLimited,
  ProviderRecordError,
  type AccountingProvider,
  type Connection,
  type CustomerRecord,
  type InvoiceRecord,
  type ProviderSession,
  type RefundRecord,
  type RemoteRef,
} from '../../src/accounting/port';
import { createQuickBooksProvider } from '../../src/accounting/quickbooks/client';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The QuickBooks Online and FreshBooks clients against their built-in stand-ins, over real HTTP:
 * the consent page, code exchange, refresh, revoke, pushes read back from the records endpoint,
 * and each test switch seen as the port's error.
 */

let test: TestApp;
let base: string;
let quickbooks: AccountingProvider;
let freshbooks: AccountingProvider;

beforeAll(async () => {
  test = await createTestApp({}, { listen: true });
  base = test.runtime.config.publicUrl;
  quickbooks = createQuickBooksProvider(test.runtime.config.accounting.quickbooks!);
  freshbooks = createFreshBooksProvider(test.runtime.config.accounting.freshbooks!);
});
afterAll(() => test.close());

const signal = () => AbortSignal.timeout(10_000);
const callback = (provider: string) => `${base}/api/integrations/${provider}/callback`;

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Opens the consent page as a browser would, then submits its form: the 303's Location. */
async function consent(authorizationUrl: string, companyName: string, decision: 'connect' | 'cancel' = 'connect'): Promise<URL> {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<html lang="en">');
  expect(html).toMatch(/<label for="company_name">Company name<\/label>/);
  expect(html).toContain('value="Sandbox Company"');
  expect(html).toMatch(/>Connect<\/button>/);
  expect(html).toMatch(/>Cancel<\/button>/);
  expect(html).toContain("Tay's built-in stand-in");
  expect(html).not.toMatch(/<script/i);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(name!, value!.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
  form.set('company_name', companyName);
  form.set('decision', decision);
  const answer = await fetch(`${base}${action}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

async function connect(provider: AccountingProvider, companyName: string): Promise<Connection> {
  const { verifier, challenge } = pkce();
  const redirectUri = callback(provider.provider);
  const back = await consent(provider.authorizationUrl({ state: 'state-1', codeChallenge: challenge, redirectUri }), companyName);
  expect(back.searchParams.get('state')).toBe('state-1');
  return provider.exchangeCode({
    code: back.searchParams.get('code')!,
    codeVerifier: verifier,
    redirectUri,
    realmId: back.searchParams.get('realmId') ?? undefined,
    signal: signal(),
  });
}

async function records(provider: string, accountId: string, type: string): Promise<{ id: string; version: number; body: Record<string, unknown> }[]> {
  const answer = await fetch(`${base}/sandbox/${provider}/records?accountId=${accountId}&type=${type}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { records: { id: string; version: number; body: Record<string, unknown> }[] }).records;
}

async function switches(provider: string, body: Record<string, unknown>) {
  const answer = await fetch(`${base}/sandbox/${provider}/switches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

const customer = (displayName: string): CustomerRecord => ({
  localId: `payer-${displayName}`,
  displayName,
  firstName: 'Jane',
  lastName: 'Doe',
  companyName: 'Doe Studio',
  email: 'jane@example.com',
  phone: '+1 555 0100',
});

/** 1.5 × $12.33 = $18.50 (rounded) + 2 × $10.00, less $3.00, plus $2.71 tax: $38.21. */
const invoice = (customerRef: { remoteId: string; remoteVersion: string | null }): InvoiceRecord => ({
  localId: 'inv-1',
  number: 'INV-0012',
  customer: customerRef,
  issueDate: '2026-11-01',
  dueDate: '2026-11-15',
  memo: 'Thank you',
  lines: [
    { description: 'Lessons', quantityMilli: 1500, unitPriceCents: 1233, amountCents: 1850 },
    { description: 'Books', quantityMilli: 2000, unitPriceCents: 1000, amountCents: 2000 },
  ],
  discountCents: 300,
  taxCents: 271,
  totalCents: 3821,
});

/** $5.00 of the $38.21 payment back to its payer. */
const refund = (payment: RemoteRef, customerRef: RemoteRef): RefundRecord => ({
  localId: 'rfd-1',
  payment,
  customer: customerRef,
  amountCents: 500,
  date: '2026-11-05',
  transactionNumber: 'TRX-10012',
  reference: 'Refund of $5.00 on Invoice #12',
});

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The little of jsdom this file uses (jsdom has no types here, and the API's compiler has no DOM library). */
interface Jsdom {
  JSDOM: new (html: string, options: object) => { window: { eval(code: string): void; close(): void; document: unknown; axe?: Axe } };
  VirtualConsole: new () => object;
}
type Axe = { run: (context: unknown, options: object) => Promise<AxeResults> };
const { JSDOM, VirtualConsole } = require('jsdom') as Jsdom;

/** axe-core over a served page in jsdom (colour contrast needs a real browser: axe leaves it "incomplete" here). */
async function axeViolations(html: string): Promise<string[]> {
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true, virtualConsole: new VirtualConsole() });
  try {
    dom.window.eval(axeSource);
    const results = await dom.window.axe!.run(dom.window.document, { resultTypes: ['violations'] });
    return results.violations.map((v) => `${v.id}: ${v.help}`);
  } finally {
    dom.window.close();
  }
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('QuickBooks Online stand-in', () => {
  it('connects, refreshes, pushes, updates, and revokes', async () => {
    const connection = await connect(quickbooks, 'Acme Books');
    expect(connection.companyName).toBe('Acme Books');
    expect(connection.accountId).toMatch(/^\d+$/);
    expect(connection.refreshExpiresAt!.getTime() - Date.now()).toBeGreaterThan(99 * 24 * 3600 * 1000);

    // Reconnecting the same company name is the same realm.
    expect((await connect(quickbooks, ' acme books ')).accountId).toBe(connection.accountId);

    const refreshed = await quickbooks.refresh({ refreshToken: connection.refreshToken, signal: signal() });
    expect(refreshed.refreshToken).not.toBe(connection.refreshToken);
    // The refresh token rotated: the old one is spent.
    expect(await refusal(quickbooks.refresh({ refreshToken: connection.refreshToken, signal: signal() }))).toBeInstanceOf(ProviderAuthError);

    const session: ProviderSession = { accessToken: refreshed.accessToken, accountId: connection.accountId, signal: signal() };
    const payer = await quickbooks.pushCustomer(session, customer('Jane Doe'), null);
    expect(payer.remoteVersion).toBe('0');
    const sent = await quickbooks.pushInvoice(session, invoice(payer), null);
    const paid = await quickbooks.pushPayment(
      session,
      {
        localId: 'pay-1',
        invoice: sent,
        customer: payer,
        amountCents: 3821,
        date: '2026-11-03',
        method: 'card',
        reference: 'Payment of $38.21 on Invoice #12',
      },
      null,
    );

    // The same create again (its answer lost in a crash before the link was stored): QBO's `requestid` answers the first record.
    expect(await quickbooks.pushInvoice(session, invoice(payer), null)).toEqual(sent);
    expect(await records('quickbooks', connection.accountId, 'invoice')).toHaveLength(1);

    const [storedInvoice] = await records('quickbooks', connection.accountId, 'invoice');
    expect(storedInvoice!.body).toMatchObject({ Id: sent.remoteId, DocNumber: 'INV-0012', TxnDate: '2026-11-01', DueDate: '2026-11-15', TotalAmt: 38.21 });
    const [storedPayment] = await records('quickbooks', connection.accountId, 'payment');
    expect(storedPayment!.body).toMatchObject({ Id: paid.remoteId, TotalAmt: 38.21, Line: [{ LinkedTxn: [{ TxnId: sent.remoteId, TxnType: 'Invoice' }] }] });
    // QBO put the payment into Undeposited Funds; the refund receipt comes out of the same account, once.
    expect(storedPayment!.body.DepositToAccountRef).toEqual({ value: '4', name: 'Undeposited Funds' });
    const receipt = await quickbooks.pushRefund(session, refund(paid, payer), null);
    expect(await quickbooks.pushRefund(session, refund(paid, payer), null)).toEqual(receipt);
    const receipts = await records('quickbooks', connection.accountId, 'refund');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body).toMatchObject({
      Id: receipt.remoteId,
      CustomerRef: { value: payer.remoteId },
      DepositToAccountRef: { value: '4' },
      PaymentRefNum: 'TRX-10012',
      TotalAmt: 5,
      Balance: 0,
    });
    const noCustomer = await refusal(quickbooks.pushRefund(session, { ...refund(paid, { remoteId: '999', remoteVersion: null }), localId: 'rfd-2' }, null));
    expect(noCustomer).toBeInstanceOf(ProviderRecordError);
    expect(noCustomer.message).toContain('Customer 999 does not exist');
    const noPayment = await refusal(quickbooks.pushRefund(session, { ...refund({ remoteId: '998', remoteVersion: null }, payer), localId: 'rfd-3' }, null));
    expect(noPayment).toBeInstanceOf(ProviderRecordError);
    expect(noPayment.message).toContain('the payment this refund gives back was deleted in QuickBooks Online');

    // An update moves the SyncToken; one sent with a stale SyncToken is read afresh and retried once.
    const renamed = await quickbooks.pushCustomer(session, { ...customer('Jane Doe'), email: 'jane@doe.example' }, payer);
    expect(renamed).toEqual({ remoteId: payer.remoteId, remoteVersion: '1' });
    const stale = await quickbooks.pushCustomer(session, { ...customer('Jane Doe'), phone: null }, payer);
    expect(stale).toEqual({ remoteId: payer.remoteId, remoteVersion: '2' });
    const [storedCustomer] = await records('quickbooks', connection.accountId, 'customer');
    expect(storedCustomer).toMatchObject({ version: 2, body: { SyncToken: '2', PrimaryEmailAddr: { Address: 'jane@example.com' } } });

    // Another customer of the same DisplayName (6240): sent again as "Name (e-mail)"; taken too, QBO's own words.
    const other = await quickbooks.pushCustomer(session, { ...customer('jane doe'), localId: 'other' }, null);
    expect(other).toMatchObject({ remoteVersion: '0', displayName: 'jane doe (jane@example.com)' });
    const duplicate = await refusal(quickbooks.pushCustomer(session, { ...customer('jane doe'), localId: 'third' }, null));
    expect(duplicate).toBeInstanceOf(ProviderRecordError);
    expect(duplicate.message).toContain('Duplicate Name Exists Error');

    await quickbooks.revoke({ token: refreshed.refreshToken, signal: signal() });
    await quickbooks.revoke({ token: refreshed.refreshToken, signal: signal() });
    expect(await refusal(quickbooks.pushCustomer(session, customer('Someone Else'), null))).toBeInstanceOf(ProviderAuthError);
  });

  it('answers each switch as the port error', async () => {
    const connection = await connect(quickbooks, 'Switchy Inc');
    const session: ProviderSession = { accessToken: connection.accessToken, accountId: connection.accountId, signal: signal() };
    const accountId = connection.accountId;

    await switches('quickbooks', { accountId, rateLimit: { count: 1, retryAfterSeconds: 7 } });
    const limited = await refusal(quickbooks.pushCustomer(session, customer('Rate Limited'), null));
    expect(limited).toBeInstanceOf(ProviderRateLimited);
    expect((limited as ProviderRateLimited).retryAfterSeconds).toBe(7);
    await quickbooks.pushCustomer(session, customer('After The Limit'), null);

    await switches('quickbooks', { accountId, failRecord: { match: 'Bad Payer', message: 'The email address is not valid.' } });
    const failed = await refusal(quickbooks.pushCustomer(session, customer('Bad Payer'), null));
    expect(failed).toBeInstanceOf(ProviderRecordError);
    expect(failed.message).toContain('The email address is not valid.');
    await switches('quickbooks', { accountId, failRecord: null });

    await switches('quickbooks', { accountId, refuseTokens: true });
    expect(await refusal(quickbooks.pushCustomer(session, customer('Refused'), null))).toBeInstanceOf(ProviderAuthError);
    expect(await refusal(quickbooks.refresh({ refreshToken: connection.refreshToken, signal: signal() }))).toBeInstanceOf(ProviderAuthError);
    await switches('quickbooks', { accountId, refuseTokens: false });
    const resumed = await quickbooks.refresh({ refreshToken: connection.refreshToken, signal: signal() });
    await quickbooks.pushCustomer({ ...session, accessToken: resumed.accessToken }, customer('Back Again'), null);

    await switches('quickbooks', { accountId, expireCodes: true });
    const expired = await refusal(connect(quickbooks, 'Switchy Inc'));
    expect(expired).toBeInstanceOf(ProviderAuthError);
    expect(expired.message).not.toContain(connection.accessToken);
    await switches('quickbooks', { accountId, expireCodes: false });
  });

  it('refuses a reused code, a wrong redirect_uri, and sends Cancel back as access_denied', async () => {
    const redirectUri = callback('quickbooks');
    const back = await consent(quickbooks.authorizationUrl({ state: 's', codeChallenge: '', redirectUri }), 'Once Only');
    const exchange = (uri: string) =>
      quickbooks.exchangeCode({
        code: back.searchParams.get('code')!,
        codeVerifier: '',
        redirectUri: uri,
        realmId: back.searchParams.get('realmId')!,
        signal: signal(),
      });
    expect(await refusal(exchange(`${base}/elsewhere`))).toBeInstanceOf(ProviderAuthError);
    // Tried once (with the wrong redirect_uri): spent.
    expect(await refusal(exchange(redirectUri))).toBeInstanceOf(ProviderAuthError);

    const offSite = await fetch(quickbooks.authorizationUrl({ state: 's', codeChallenge: '', redirectUri: 'https://evil.example/callback' }), {
      redirect: 'manual',
    });
    expect(offSite.status).toBe(400);
    expect(offSite.headers.get('location')).toBeNull();
    expect(await offSite.text()).toContain('The redirect_uri must be an address on this server');

    const unknownClient = await fetch(
      `${base}/sandbox/quickbooks/connect/oauth2?client_id=someone&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}`,
    );
    expect(unknownClient.status).toBe(400);

    expect(await axeViolations(await (await fetch(quickbooks.authorizationUrl({ state: 's', codeChallenge: '', redirectUri }))).text())).toEqual([]);
    expect(await axeViolations(await (await fetch(`${base}/sandbox/quickbooks/connect/oauth2?client_id=someone`)).text())).toEqual([]);

    const cancelled = await consent(quickbooks.authorizationUrl({ state: 'st-2', codeChallenge: '', redirectUri }), 'Sandbox Company', 'cancel');
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.searchParams.get('state')).toBe('st-2');
    expect(cancelled.searchParams.get('code')).toBeNull();
  });
});

describe('FreshBooks stand-in', () => {
  it('connects with PKCE, pushes, updates and revokes', async () => {
    const connection = await connect(freshbooks, 'Fresh Co');
    expect(connection.companyName).toBe('Fresh Co');
    expect(connection.refreshExpiresAt).toBeNull();
    expect((await connect(freshbooks, 'FRESH CO')).accountId).toBe(connection.accountId);

    const refreshed = await freshbooks.refresh({ refreshToken: connection.refreshToken, signal: signal() });
    const session: ProviderSession = { accessToken: refreshed.accessToken, accountId: connection.accountId, signal: signal() };
    const client = await freshbooks.pushCustomer(session, customer('Jane Doe'), null);
    const sent = await freshbooks.pushInvoice(session, invoice(client), null);
    const paid = await freshbooks.pushPayment(
      session,
      {
        localId: 'pay-1',
        invoice: sent,
        customer: client,
        amountCents: 3821,
        date: '2026-11-03',
        method: 'bank_account',
        reference: 'Payment of $38.21 on Invoice #12',
      },
      null,
    );

    const [storedInvoice] = await records('freshbooks', connection.accountId, 'invoice');
    expect(storedInvoice!.body).toMatchObject({
      invoice_number: 'INV-0012',
      create_date: '2026-11-01',
      due_date: '2026-11-15',
      amount: { amount: '38.21', code: 'USD' },
    });
    const [storedPayment] = await records('freshbooks', connection.accountId, 'payment');
    expect(storedPayment!.body).toMatchObject({ invoiceid: Number(sent.remoteId), amount: { amount: '38.21', code: 'USD' }, type: 'ACH' });
    const note = await freshbooks.pushRefund(session, refund(paid, client), null);
    const [storedNote] = await records('freshbooks', connection.accountId, 'refund');
    expect(storedNote!.body).toMatchObject({
      creditid: Number(note.remoteId),
      clientid: Number(client.remoteId),
      create_date: '2026-11-05',
      amount: { amount: '5.00', code: 'USD' },
    });
    const noClient = await refusal(freshbooks.pushRefund(session, refund(paid, { remoteId: '999', remoteVersion: null }), null));
    expect(noClient).toBeInstanceOf(ProviderRecordError);
    expect(noClient.message).toBe('Client 999 does not exist.');

    await freshbooks.pushCustomer(session, { ...customer('Jane Doe'), email: 'jane@doe.example' }, client);
    const [storedClient] = await records('freshbooks', connection.accountId, 'customer');
    expect(storedClient).toMatchObject({ version: 1, body: { email: 'jane@doe.example' } });

    await switches('freshbooks', { accountId: connection.accountId, failRecord: { match: 'jane@doe.example', message: 'Email is already in use.' } });
    const failed = await refusal(freshbooks.pushCustomer(session, { ...customer('Jane Doe'), email: 'jane@doe.example' }, client));
    expect(failed).toBeInstanceOf(ProviderRecordError);
    expect(failed.message).toBe('Email is already in use.');
    await switches('freshbooks', { accountId: connection.accountId, failRecord: null, rateLimit: { count: 1, retryAfterSeconds: 0 } });
    expect(await refusal(freshbooks.pushCustomer(session, customer('Limited'), null))).toBeInstanceOf(ProviderRateLimited);

    await freshbooks.revoke({ token: refreshed.accessToken, signal: signal() });
    expect(await refusal(freshbooks.pushCustomer(session, customer('After Revoke'), null))).toBeInstanceOf(ProviderAuthError);
  });

  it('checks the PKCE verifier', async () => {
    const { challenge } = pkce();
    const redirectUri = callback('freshbooks');
    const back = await consent(freshbooks.authorizationUrl({ state: 'p', codeChallenge: challenge, redirectUri }), 'Pkce Ltd');
    const wrong = await refusal(
      freshbooks.exchangeCode({ code: back.searchParams.get('code')!, codeVerifier: pkce().verifier, redirectUri, realmId: undefined, signal: signal() }),
    );
    expect(wrong).toBeInstanceOf(ProviderAuthError);
  });

  it('answers 404 on the test endpoints of a stand-in that is not mounted', async () => {
    const other = await createTestApp({ FRESHBOOKS_CLIENT_ID: 'real-id', FRESHBOOKS_CLIENT_SECRET: 'real-secret' });
    try {
      const answer = await other.app.inject({ method: 'POST', url: '/sandbox/freshbooks/companies', payload: { name: 'X' } });
      expect(answer.statusCode).toBe(404);
      const mounted = await other.app.inject({ method: 'POST', url: '/sandbox/quickbooks/companies', payload: { name: 'X' } });
      expect(mounted.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
