// PostgreSQL pass: concurrent payments of one request, one ledger check.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { CARDS, insertRequest, journalKinds, pay, requestRow, tokenize, chargesOf } from '../support/payments';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@concurrency.example');
  payerId = await insertPayer(db(), biz.businessId);
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

describe('money moves once', () => {
  it('50 concurrent payments of one request (different keys, different devices): one is taken, 49 are refused', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 25_000 });
    const tokens = [];
    for (let i = 0; i < 50; i++) tokens.push(await tokenize(t.app, t.runtime, { card: CARDS.visa }));
    const responses = await Promise.all(
      tokens.map((processorToken, i) =>
        pay(t.app, payToken, { method: 'card', processorToken, amountCents: 25_000 }, `concurrent-${i}`, `198.51.100.${i + 1}`),
      ),
    );

    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const refused of responses.filter((r) => r.statusCode === 409)) {
      expect(errorOf(refused).message).toMatch(/is being processed|paid in full/);
    }
    const winner = responses.find((r) => r.statusCode === 201)!.json().data;
    expect(winner).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 25_000, payment: { state: 'Processed' } });

    expect(await db().selectFrom('payments').select('id').where('request_id', '=', requestId).execute()).toHaveLength(1);
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
    expect(await journalKinds(db(), winner.payment.paymentId)).toEqual(['payment_captured']);
    // 49 tokens were never charged.
    const used = await db().selectFrom('sandbox_processor_tokens').select('id').where('id', 'in', tokens).where('used_at', 'is not', null).execute();
    expect(used).toHaveLength(1);

    await eventually(async () => (await requestRow(db(), requestId)).state === 'Paid', 20_000);
    const balances = (await request(t.app, 'GET', `/api/businesses/${biz.businessId}/balances`, biz.token)).json().data;
    // 25 000 − (725 + 30) once.
    expect(balances).toEqual({ pendingCents: 0, availableCents: 24_245, collectedCents: 25_000, feesCents: 755, payoutsInFlightCents: 0 });
  });
});

describe('Idempotency-Key', () => {
  it('the same key twice: the same response, one charge', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 1_000 });
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1_000 };
    const first = await pay(t.app, payToken, body, 'same-key');
    const second = await pay(t.app, payToken, body, 'same-key');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
  });

  it('the same key with another body: 422, nothing charged', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 1_000, allowPartial: true });
    const token = await tokenize(t.app, t.runtime, { card: CARDS.declined });
    const first = await pay(t.app, payToken, { method: 'card', processorToken: token, amountCents: 500 }, 'key-422');
    expect(first.json().data.payment.state).toBe('Rejected');
    const other = await pay(
      t.app,
      payToken,
      { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 600 },
      'key-422',
    );
    expect(other.statusCode).toBe(422);
    expect(errorOf(other).code).toBe('UNPROCESSABLE_ENTITY');
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
    // A refusal is a stored answer too: the same key and body get it again.
    expect((await pay(t.app, payToken, { method: 'card', processorToken: token, amountCents: 500 }, 'key-422')).json()).toEqual(first.json());
  });

  it('the same key at the same time: one runs, the twins get 409', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 1_000 });
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1_000 };
    const responses = await Promise.all(Array.from({ length: 8 }, () => pay(t.app, payToken, body, 'concurrent-same-key')));
    const fresh = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    const conflicts = responses.filter((r) => r.statusCode === 409);
    expect(fresh).toHaveLength(1);
    expect(conflicts.length).toBeGreaterThanOrEqual(1);
    for (const c of conflicts) expect(errorOf(c).message).toMatch(/still being processed/);
    for (const r of responses.filter((x) => x.statusCode === 201)) expect(r.json()).toEqual(fresh[0]!.json());
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
  });
});
