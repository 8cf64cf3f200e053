import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicConfig } from '@tay/contract';
import { newId } from '../../src/lib/ids';
import { errorOf } from '../support/identity';
import { CARDS, tokenize } from '../support/payments';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let webDir: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  // A stand-in for the built web app, so the page's public configuration can be read.
  webDir = mkdtempSync(path.join(tmpdir(), 'tay-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Tay</title></head><body></body></html>');
  t = await createTestApp({ WEB_DIST_DIR: webDir, PROCESSOR_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable', SANDBOX_SETTLEMENT_SECONDS: '3600' });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

function tokens(body: unknown, key: string | null = t.runtime.config.processor.publishableKey) {
  return t.app.inject({
    method: 'POST',
    url: '/sandbox-processor/v1/tokens',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    payload: JSON.stringify(body),
  });
}
const year = new Date().getUTCFullYear();
const card = (over: Record<string, unknown> = {}) => ({ card: { number: CARDS.visa, expMonth: 12, expYear: year + 2, cvc: '123', ...over } });

describe('keys', () => {
  it('are derived test keys by default, stable for one AUTH_SECRET, and given to the web app', async () => {
    const { publishableKey, secretKey, webhookSecret, webhookUrl } = t.runtime.config.processor;
    expect(publishableKey).toMatch(/^pk_test_[0-9a-f]{32}$/);
    expect(secretKey).toMatch(/^sk_test_[0-9a-f]{32}$/);
    expect(webhookSecret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(new Set([publishableKey.slice(8), secretKey.slice(8), webhookSecret.slice(6)]).size).toBe(3);
    expect(webhookUrl).toBe('http://127.0.0.1:9/unreachable');

    const page = await t.app.inject({ method: 'GET', url: '/' });
    const content = /<meta name="tay-config" content="([^"]+)"/.exec(page.body)?.[1];
    const config = PublicConfig.parse(JSON.parse(content!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')));
    expect(config).toMatchObject({ processorPublishableKey: publishableKey, processorElementsUrl: '/sandbox-processor/elements/card-field' });
    expect(page.body).not.toContain(secretKey);
  });

  it('tokens need the publishable key; charges can be read with the secret key only', async () => {
    expect((await tokens(card(), null)).statusCode).toBe(401);
    expect((await tokens(card(), 'pk_test_wrongwrongwrongwrongwrongwrong')).statusCode).toBe(401);
    expect((await tokens(card(), t.runtime.config.processor.secretKey)).statusCode).toBe(401);
    const token = (await tokens(card())).json().id;
    const charged = await t.runtime.processor.charge({
      token,
      amountCents: 1_000,
      idempotencyKey: newId('pay'),
      metadata: { businessId: 'b', paymentId: 'p', requestId: 'r' },
    });
    const url = `/sandbox-processor/v1/charges/${charged.chargeId}`;
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.runtime.config.processor.publishableKey}` } })).statusCode).toBe(
      401,
    );
    const read = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.runtime.config.processor.secretKey}` } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: charged.chargeId, status: 'succeeded', amountCents: 1_000, failureCode: null, instrument: 'Visa •••• 4242' });
  });
});

describe('POST /sandbox-processor/v1/tokens', () => {
  it('makes a token for a valid card and keeps no card number anywhere in the database', async () => {
    const res = await tokens(card({ number: '4242 4242 4242 4242' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: expect.stringMatching(/^tok_[0-9a-z]{26}$/), kind: 'card', label: 'Visa •••• 4242' });
    const stored = await db().selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ kind: 'card', brand: 'Visa', last4: '4242', behaviour: 'succeed', used_at: null });
    // Charge it too, so the charge, webhook and job tables have rows to scan.
    await t.runtime.processor.charge({
      token: res.json().id,
      amountCents: 500,
      idempotencyKey: newId('pay'),
      metadata: { businessId: 'b', paymentId: 'p', requestId: 'r' },
    });
    await tokens(card({ number: CARDS.mastercard }));

    const { rows: tables } = await sql<{ schema: string; name: string }>`
      SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`.execute(db());
    expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['sandbox_processor_tokens', 'sandbox_processor_charges', 'sandbox_processor_webhooks']));
    for (const table of tables) {
      const { rows } = await sql<{ row: string }>`SELECT row_to_json(x)::text AS row FROM ${sql.table(`${table.schema}.${table.name}`)} x`.execute(db());
      for (const { row } of rows) {
        const digits = row.replace(/[\s-]/g, '');
        expect(digits, `${table.schema}.${table.name}`).not.toContain(CARDS.visa);
        expect(digits, `${table.schema}.${table.name}`).not.toContain(CARDS.mastercard);
        expect(digits, `${table.schema}.${table.name}`).not.toContain('42424242');
      }
    }
  });

  it('checks the card like a processor: number (Luhn), expiry in the future, security code', async () => {
    const bad = await tokens(card({ number: '4242424242424241' }));
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Your card number is invalid.',
      fields: { 'card.number': 'Your card number is invalid.' },
    });
    const expired = await tokens(card({ expMonth: 1, expYear: year - 1 }));
    expect(errorOf(expired).fields).toEqual({ 'card.expYear': 'Your card has expired.' });
    expect(errorOf(await tokens(card({ cvc: '1' }))).fields).toEqual({ 'card.cvc': 'Your card’s security code is invalid.' });
    expect((await tokens({})).statusCode).toBe(400);
    expect((await tokens({ ...card(), bankAccount: { routingNumber: '222096656', accountNumber: '000123456789', accountHolderName: 'Pat' } })).statusCode).toBe(
      400,
    );
  });

  it('makes bank account tokens, checking the ABA routing checksum', async () => {
    const ok = await tokens({ bankAccount: { routingNumber: '222096656', accountNumber: '000123456789', accountHolderName: 'Pat Payer' } });
    expect(ok.json()).toMatchObject({ kind: 'bank_account', label: 'Tay Sandbox Bank •••• 6789' });
    const bad = await tokens({ bankAccount: { routingNumber: '222096657', accountNumber: '000123456789', accountHolderName: 'Pat Payer' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toEqual({ 'bankAccount.routingNumber': 'The routing number is invalid.' });
    const stored = await db().selectFrom('sandbox_processor_tokens').selectAll().where('id', '=', ok.json().id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ brand: 'Tay Sandbox Bank', last4: '6789', behaviour: 'settle_late' });
  });
});

describe('charges', () => {
  const metadata = { businessId: 'biz_x', paymentId: 'pay_x', requestId: 'req_x' };

  it('one charge per idempotency key, even when called 20 times at once; the first answer comes back', async () => {
    const token = await tokenize(t.app, t.runtime, { card: CARDS.visa });
    const key = newId('pay');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.runtime.processor.charge({ token, amountCents: 2_000, idempotencyKey: key, metadata })),
    );
    expect(new Set(results.map((r) => r.chargeId)).size).toBe(1);
    expect(results.every((r) => r.status === 'succeeded')).toBe(true);
    expect(await db().selectFrom('sandbox_processor_charges').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(1);
    // The token is spent: describing it says so, and another key cannot charge it again.
    expect(await t.runtime.processor.describeToken(token)).toBeNull();
    const second = await t.runtime.processor.charge({ token, amountCents: 2_000, idempotencyKey: newId('pay'), metadata });
    expect(second).toMatchObject({ status: 'failed', chargeId: null, failureCode: 'invalid_token' });
  });

  it('declines the decline cards at once and starts bank debits pending', async () => {
    const declined = await t.runtime.processor.charge({
      token: await tokenize(t.app, t.runtime, { card: CARDS.declined }),
      amountCents: 100,
      idempotencyKey: newId('pay'),
      metadata,
    });
    expect(declined).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'Your card was declined.',
      instrument: { method: 'card', label: 'Visa •••• 0002' },
    });
    const poor = await t.runtime.processor.charge({
      token: await tokenize(t.app, t.runtime, { card: CARDS.insufficientFunds }),
      amountCents: 100,
      idempotencyKey: newId('pay'),
      metadata,
    });
    expect(poor).toMatchObject({ status: 'failed', failureCode: 'insufficient_funds' });
    const debit = await t.runtime.processor.charge({
      token: await tokenize(t.app, t.runtime, { bankAccount: '000123456789' }),
      amountCents: 100,
      idempotencyKey: newId('pay'),
      metadata,
    });
    expect(debit).toMatchObject({ status: 'pending', instrument: { method: 'bank_account', label: 'Tay Sandbox Bank •••• 6789' } });
    // Each event is recorded for delivery; undeliverable ones keep their attempts and last error.
    const hooks = await db().selectFrom('sandbox_processor_webhooks').select(['type', 'payload']).where('type', '=', 'charge.failed').execute();
    expect(hooks.map((h) => (h.payload as { data: { chargeId: string } }).data.chargeId)).toEqual(expect.arrayContaining([declined.chargeId, poor.chargeId]));
  });
});

describe('the hosted card field', () => {
  it('is a page with labelled inputs, no inline script, framable by our own origin only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sandbox-processor/elements/card-field?pk=pk_test_x' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).not.toBe('DENY');
    for (const [id, label] of [
      ['card-number', 'Card number'],
      ['card-expiry', 'Expiry (MM/YY)'],
      ['card-cvc', 'CVC'],
    ]) {
      expect(res.body).toContain(`<label for="${id}">${label}</label>`);
      expect(res.body).toContain(`id="${id}"`);
    }
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toContain('src="card-field.js"');
    expect(scripts[0]![2]!.trim()).toBe('');

    const js = await t.app.inject({ method: 'GET', url: '/sandbox-processor/elements/card-field.js' });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    for (const type of ['tay:ready', 'tay:change', 'tay:tokenize', 'tay:token', 'tay:error']) expect(js.body).toContain(`'${type}'`);
    expect(js.body).toContain('/sandbox-processor/v1/tokens');
    expect((await t.app.inject({ method: 'GET', url: '/sandbox-processor/elements/card-field.css' })).headers['content-type']).toMatch(/^text\/css/);

    // The rest of the app still refuses to be framed at all.
    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(api.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});
