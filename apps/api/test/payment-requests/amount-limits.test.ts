import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMOUNT_CONFIRMATION_REQUIRED } from '@tay/contract';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { newId } from '../../src/lib/ids';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { enablePayouts, fund, insertReceiver } from '../support/payouts';
import { call, requestsApi } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';
import { invoicesApi } from '../invoices/invoice-api';

/**
 * A typo moves real money (issue 35, point 6): a request to pay, an invoice or a payout above the
 * business's confirmation limit (default $10,000.00) goes out only with its amount repeated
 * (`confirmedAmountCents`), asked for with the amount in words; above the business's highest
 * amount it is refused, naming the limit.
 */

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;
const TEN_MILLION = 1_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  biz = await approvedBusiness(t.app, db(), 'owner@amount-limits.example');
  payerId = await insertPayer(db(), biz.businessId);
});
afterAll(async () => t?.close());

const requestCount = async () =>
  Number(
    (
      await db()
        .selectFrom('payment_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('business_id', '=', biz.businessId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a request to pay above the confirmation limit', () => {
  it('is refused unconfirmed (422, the amount in words, nothing saved), then sent with the amount repeated under the same key', async () => {
    const api = requestsApi(t.app, biz);
    const before = await requestCount();
    const key = { 'idempotency-key': newId('key') };
    const refused = await api.post(api.body(payerId, { amountCents: TEN_MILLION, mode: 'send' }), key);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorOf(refused).code).toBe(AMOUNT_CONFIRMATION_REQUIRED);
    expect(errorOf(refused).message).toBe(
      "$10,000,000.00 (ten million dollars) is above this business's confirmation limit of $10,000.00: confirm the amount to send a request to pay.",
    );
    expect(errorOf(refused).fields).toHaveProperty('confirmedAmountCents');
    expect(refused.headers['confirm-amount-cents']).toBe(String(TEN_MILLION));
    expect(await requestCount()).toBe(before);

    // Repeated wrong: asked again.
    const wrong = await api.post(api.body(payerId, { amountCents: TEN_MILLION, mode: 'send', confirmedAmountCents: 100_000_000 }), key);
    expect(errorOf(wrong).code).toBe(AMOUNT_CONFIRMATION_REQUIRED);
    const sent = await api.post(api.body(payerId, { amountCents: TEN_MILLION, mode: 'send', confirmedAmountCents: TEN_MILLION }), key);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.transactionState).toBe('Sent');
    expect(await requestCount()).toBe(before + 1);
  });

  it('at or under the limit, and as a draft, needs no confirmation; sending the draft does', async () => {
    const api = requestsApi(t.app, biz);
    expect((await api.post(api.body(payerId, { amountCents: 1_000_000, mode: 'send' }))).statusCode).toBe(201);
    const draft = await api.create(payerId, { amountCents: 2_500_000 });
    const refused = await api.command(draft.transactionId, 'send');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorOf(refused).message).toMatch(/^\$25,000\.00 \(twenty-five thousand dollars\) is above/);
    const sent = await call(t.app, 'POST', `${api.base}/${draft.transactionId}/send`, biz.token, { confirmedAmountCents: 2_500_000 });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.transactionState).toBe('Sent');
  });
});

describe('an invoice and a payout above the confirmation limit', () => {
  it('an invoice is sent only with its total repeated', async () => {
    const invoices = invoicesApi(t.app, biz);
    const draft = await invoices.create(payerId, { items: [{ description: 'Roof', quantity: 1, unitPriceCents: 4_000_000, taxRate: 0 }] });
    const refused = await invoices.send(draft.invoiceId);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorOf(refused).message).toMatch(/^\$40,000\.00 \(forty thousand dollars\) is above .* to send invoice INV-\d+\.$/);
    expect((await invoices.detail(draft.invoiceId)).invoiceState).toBe('Draft');
    const sent = await invoices.send(draft.invoiceId, { confirmedAmountCents: 4_000_000 });
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it('a payout is submitted only with its amount repeated, and nothing leaves the balance before', async () => {
    await enablePayouts(db(), biz.businessId);
    await fund(db(), biz.businessId, 10_000_000);
    const receiverId = await insertReceiver(t.runtime, biz.businessId);
    const base = `/api/businesses/${biz.businessId}/payouts`;
    const refused = await call(t.app, 'POST', base, biz.token, { receiverId, amountCents: 5_000_000, submit: true });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorOf(refused).code).toBe(AMOUNT_CONFIRMATION_REQUIRED);
    expect((await getBalances(db(), biz.businessId)).availableCents).toBe(10_000_000);
    const draft = await call(t.app, 'POST', base, biz.token, { receiverId, amountCents: 5_000_000 });
    expect(draft.statusCode, draft.body).toBe(201);
    const submitRefused = await call(t.app, 'POST', `${base}/${draft.json().data.payoutId}/submit`, biz.token);
    expect(errorOf(submitRefused).code).toBe(AMOUNT_CONFIRMATION_REQUIRED);
    const submitted = await call(t.app, 'POST', `${base}/${draft.json().data.payoutId}/submit`, biz.token, { confirmedAmountCents: 5_000_000 });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.state).toBe('Approved');
  });
});

describe("the business's highest amount", () => {
  it('refuses a request, an invoice and a payout above it (400), naming the limit; the limits are the configuration’s', async () => {
    const b = await approvedBusiness(t.app, db(), 'owner@amount-ceiling.example');
    const current = (await call(t.app, 'GET', `/api/businesses/${b.businessId}`, b.token)).json().data;
    expect(current.config).toMatchObject({ confirmAboveCents: 1_000_000, amountCeilingCents: TEN_MILLION });
    const config = { ...current.config, confirmAboveCents: 200_000, amountCeilingCents: 500_000 };
    delete config.timeZoneChosen;
    const saved = await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/update`, b.token, { config });
    expect(saved.statusCode, saved.body).toBe(200);

    const payer = await insertPayer(db(), b.businessId);
    const api = requestsApi(t.app, b);
    const over = await api.post(api.body(payer, { amountCents: 600_000, mode: 'draft' }));
    expect(over.statusCode).toBe(400);
    expect(errorOf(over).fields).toEqual({
      amountCents:
        "$6,000.00 is above this business's highest amount for a request to pay, $5,000.00. An owner or admin can change it under Setup → Configuration.",
    });
    // Between the two limits: a confirmation, asked at the business's own limit.
    const between = await api.post(api.body(payer, { amountCents: 300_000, mode: 'send' }));
    expect(errorOf(between).message).toMatch(/above this business's confirmation limit of \$2,000\.00/);

    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const payout = await call(t.app, 'POST', `/api/businesses/${b.businessId}/payouts`, b.token, { receiverId, amountCents: 500_001 });
    expect(payout.statusCode).toBe(400);
    expect(errorOf(payout).fields?.amountCents).toMatch(/highest amount for a payout, \$5,000\.00/);

    const invoices = invoicesApi(t.app, b);
    const draft = await invoices.create(payer, { items: [{ description: 'Big', quantity: 1, unitPriceCents: 700_000, taxRate: 0 }] });
    const send = await invoices.send(draft.invoiceId, { confirmedAmountCents: 700_000 });
    expect(send.statusCode).toBe(400);
    expect(errorOf(send).fields?.items).toMatch(/highest amount for invoice INV-\d+, \$5,000\.00/);

    const inverted = await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/update`, b.token, {
      config: { ...config, confirmAboveCents: 600_000 },
    });
    expect(inverted.statusCode).toBe(400);
    expect(errorOf(inverted).fields).toEqual({ 'config.confirmAboveCents': 'Set the confirmation limit at or below the highest amount, $5,000.00.' });
  });
});
