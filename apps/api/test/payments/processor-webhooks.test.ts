// PostgreSQL pass: webhooks racing the payer's own confirmation.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payRequest } from '../../src/domain/payments/pay-request';
import { reconcilePayment } from '../../src/domain/payments/reconcile-payment';
import { newId } from '../../src/lib/ids';
import type { PaymentProcessor, ProcessorEvent } from '../../src/processor/port';
import { signatureHeader } from '../../src/processor/signature';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, journalKinds, pay, paymentRow, requestRow, tokenize } from '../support/payments';
import { silentLogger } from '../support/silent-logger';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  // The sandbox's own deliveries go nowhere and its steps wait an hour: this file sends the
  // processor's events itself, signed or not, in the order it wants.
  t = await createTestApp({ PROCESSOR_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable', SANDBOX_SETTLEMENT_SECONDS: '3600', SANDBOX_AUTO_APPROVE: 'false' });
  biz = await approvedBusiness(t.app, db(), 'owner@webhooks.example');
  payerId = await insertPayer(db(), biz.businessId);
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const secret = () => t.runtime.config.processor.webhookSecret;

function deliver(body: string, signature: string | undefined) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/processor',
    headers: { 'content-type': 'application/json', ...(signature ? { 'tay-signature': signature } : {}) },
    payload: body,
  });
}

function send(event: ProcessorEvent, timestamp = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(event);
  return deliver(body, signatureHeader(secret(), body, timestamp));
}

/** A bank debit paid through the pay page: Pending, request Accepted, charge id known. */
async function pendingBankPayment(amountCents = 20_000) {
  const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents });
  const res = await pay(t.app, payToken, {
    method: 'bank_account',
    processorToken: await tokenize(t.app, t.runtime, { bankAccount: BANK.settles }),
    amountCents,
  });
  expect(res.statusCode, res.body).toBe(201);
  const payment = await paymentRow(db(), res.json().data.payment.paymentId);
  return { requestId, payment };
}

function eventFor(
  payment: { id: string; business_id: string; request_id: string; processor_charge_id: string | null; amount_cents: number },
  type: ProcessorEvent['type'],
  over: Partial<ProcessorEvent['data']> = {},
): ProcessorEvent {
  return {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      chargeId: payment.processor_charge_id!,
      amountCents: payment.amount_cents,
      metadata: { businessId: payment.business_id, paymentId: payment.id, requestId: payment.request_id },
      ...over,
    },
  };
}

async function processorEventCount() {
  return Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM processor_events`.execute(db())).rows[0]!.n);
}

describe('signature verification', () => {
  it('refuses a bad signature, a missing one, and timestamps more than 300 s away — applying nothing', async () => {
    const { payment } = await pendingBankPayment();
    const event = eventFor(payment, 'charge.succeeded');
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const before = await processorEventCount();

    // A minute past the tolerance either way: a busy host can take seconds between signing and
    // checking (the exact boundary is tested in `src/processor/signature.test.ts`).
    const cases = [
      ['tampered body', deliver(body.replace('"amountCents":20000', '"amountCents":1'), signatureHeader(secret(), body, now)), /does not match/],
      ['another secret', deliver(body, signatureHeader(`${secret()}x`, body, now)), /does not match/],
      ['missing header', deliver(body, undefined), /missing/],
      ['malformed header', deliver(body, 'sha256=abc'), /malformed/],
      ['stale', deliver(body, signatureHeader(secret(), body, now - 360)), /tolerance/],
      ['future', deliver(body, signatureHeader(secret(), body, now + 360)), /tolerance/],
    ] as const;
    for (const [name, pending, message] of cases) {
      const res = await pending;
      expect(res.statusCode, name).toBe(400);
      expect(res.json().status, name).toBe('Error');
      expect(errorOf(res).message, name).toMatch(message);
    }
    expect(await processorEventCount()).toBe(before);
    expect((await paymentRow(db(), payment.id)).state).toBe('Pending');
    expect(await journalKinds(db(), payment.id)).toEqual([]);

    // The same event, signed properly and just inside the tolerance, is applied.
    const ok = await send(event, now - 290);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ received: true, outcome: 'applied' });
    expect((await paymentRow(db(), payment.id)).state).toBe('Processed');
  });

  it('refuses a signed body that is not a processor event', async () => {
    const body = JSON.stringify({ hello: 'world' });
    const res = await deliver(body, signatureHeader(secret(), body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('The webhook body is not a processor event.');
  });
});

describe('applying events', () => {
  it('succeeded → settled → returned, each replay changing nothing and posting nothing twice', async () => {
    const { requestId, payment } = await pendingBankPayment(20_000);
    const succeeded = eventFor(payment, 'charge.succeeded');
    expect((await send(succeeded)).json().outcome).toBe('applied');
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Accepted', amount_paid_cents: 20_000 });

    // Replays: the very same delivery, and the same event id signed again later.
    expect((await send(succeeded)).json()).toEqual({ received: true, outcome: 'duplicate' });
    expect((await send(succeeded, Math.floor(Date.now() / 1000) + 5)).json().outcome).toBe('duplicate');
    // Another event id with the same news changes nothing either.
    expect((await send(eventFor(payment, 'charge.succeeded'))).json().outcome).toBe('unchanged');
    expect(await journalKinds(db(), payment.id)).toEqual(['payment_captured']);
    expect((await requestRow(db(), requestId)).amount_paid_cents).toBe(20_000);

    const settled = eventFor(payment, 'charge.settled');
    expect((await send(settled)).json().outcome).toBe('applied');
    expect((await send(settled)).json().outcome).toBe('duplicate');
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Paid', amount_paid_cents: 20_000 });

    const returned = eventFor(payment, 'charge.returned', { failureCode: 'R01', failureMessage: 'The bank returned the payment: insufficient funds (R01).' });
    expect((await send(returned)).json().outcome).toBe('applied');
    expect((await send(returned)).json().outcome).toBe('duplicate');
    expect((await send(eventFor(payment, 'charge.returned'))).json().outcome).toBe('unchanged');
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Error', amount_paid_cents: 0, paid_at: null });
    expect(await paymentRow(db(), payment.id)).toMatchObject({ state: 'Returned', failure_reason: 'The bank returned the payment: insufficient funds (R01).' });
    expect(await journalKinds(db(), payment.id)).toEqual(['payment_captured', 'payment_settled', 'payment_returned']);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM journal_entries e JOIN journal_transactions t ON t.id = e.transaction_id WHERE t.payment_id = ${payment.id}`.execute(db());
    // capture: clearing, pending, fees · settlement: pending, available · return: available, fees, clearing
    expect(rows[0]!.n).toBe(8);
  });

  it('a settlement that arrives before the success applies both; the late success then changes nothing', async () => {
    const { requestId, payment } = await pendingBankPayment(5_000);
    expect((await send(eventFor(payment, 'charge.settled'))).json().outcome).toBe('applied');
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Paid', amount_paid_cents: 5_000 });
    expect(await journalKinds(db(), payment.id)).toEqual(['payment_captured', 'payment_settled']);
    expect((await send(eventFor(payment, 'charge.succeeded'))).json().outcome).toBe('unchanged');
  });

  it('a failure before settlement rejects the payment; a failure after capture is ignored', async () => {
    const { requestId, payment } = await pendingBankPayment(3_000);
    const failed = eventFor(payment, 'charge.failed', { failureCode: 'insufficient_funds', failureMessage: 'The bank account has insufficient funds.' });
    expect((await send(failed)).json().outcome).toBe('applied');
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Error', amount_paid_cents: 0 });
    expect(await paymentRow(db(), payment.id)).toMatchObject({ state: 'Rejected', failure_reason: 'The bank account has insufficient funds.' });
    expect((await send(eventFor(payment, 'charge.succeeded'))).json().outcome).toBe('unchanged');
    expect(await journalKinds(db(), payment.id)).toEqual([]);
  });

  it('a return while another payment is in flight keeps the request Accepted; a return of the only payment leaves PartiallyPaid → Error', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 10_000, allowPartial: true });
    const payBank = async (amountCents: number) => {
      const res = await pay(t.app, payToken, {
        method: 'bank_account',
        processorToken: await tokenize(t.app, t.runtime, { bankAccount: BANK.returned }),
        amountCents,
      });
      expect(res.statusCode, res.body).toBe(201);
      return paymentRow(db(), res.json().data.payment.paymentId);
    };
    const first = await payBank(4_000);
    await send(eventFor(first, 'charge.succeeded'));
    await send(eventFor(first, 'charge.settled'));
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'PartiallyPaid', amount_paid_cents: 4_000 });

    const second = await payBank(6_000);
    expect((await requestRow(db(), requestId)).state).toBe('Accepted');
    await send(eventFor(first, 'charge.returned', { failureMessage: 'The bank returned the payment: insufficient funds (R01).' }));
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Accepted', amount_paid_cents: 0 });

    await send(eventFor(second, 'charge.succeeded'));
    await send(eventFor(second, 'charge.settled'));
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'PartiallyPaid', amount_paid_cents: 6_000 });
    await send(eventFor(second, 'charge.returned', { failureMessage: 'The bank returned the payment: insufficient funds (R01).' }));
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Error', amount_paid_cents: 0 });

    const moves = (
      await sql<{ event: string; from_state: string; to_state: string }>`
      SELECT event, from_state, to_state FROM payment_request_events WHERE request_id = ${requestId} AND to_state IS NOT NULL ORDER BY id`.execute(db())
    ).rows;
    expect(moves.map((m) => `${m.event}:${m.from_state}>${m.to_state}`)).toEqual([
      'payerPays:Sent>Accepted',
      'paymentSettles:Accepted>PartiallyPaid',
      'payerPays:PartiallyPaid>Accepted',
      'paymentReturned:Accepted>Accepted',
      'paymentSettles:Accepted>PartiallyPaid',
      'paymentReturned:PartiallyPaid>Error',
    ]);
    expect(await journalKinds(db(), first.id)).toEqual(['payment_captured', 'payment_settled', 'payment_returned']);
  });

  it('events for an unknown payment or another charge are recorded and ignored', async () => {
    const { payment } = await pendingBankPayment(1_000);
    expect((await send(eventFor({ ...payment, id: 'pay_nope' }, 'charge.succeeded'))).json().outcome).toBe('unknown-payment');
    expect((await send(eventFor({ ...payment, processor_charge_id: 'ch_other' }, 'charge.succeeded'))).json().outcome).toBe('unknown-payment');
    expect((await paymentRow(db(), payment.id)).state).toBe('Pending');
  });
});

describe('the ledger is append-only and balanced', () => {
  it('refuses UPDATE and DELETE of entries and transactions, and an unbalanced transaction', async () => {
    const { payment } = await pendingBankPayment(2_500);
    await send(eventFor(payment, 'charge.succeeded'));
    const entry = await db().selectFrom('journal_entries').selectAll().limit(1).executeTakeFirstOrThrow();
    // The app's role may not (ADR 022); database-role.test.ts shows the owner's triggers refusing too.
    await expect(db().updateTable('journal_entries').set({ amount_cents: 1 }).where('id', '=', entry.id).execute()).rejects.toThrow(/permission denied/);
    await expect(db().deleteFrom('journal_entries').where('id', '=', entry.id).execute()).rejects.toThrow(/permission denied/);
    await expect(db().updateTable('journal_transactions').set({ description: 'x' }).where('id', '=', entry.transaction_id).execute()).rejects.toThrow(
      /permission denied/,
    );
    await expect(db().deleteFrom('journal_transactions').where('id', '=', entry.transaction_id).execute()).rejects.toThrow(/permission denied/);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('journal_transactions')
            .values({ id: 'jtx_unbalanced', business_id: biz.businessId, kind: 'payment_settled', payment_id: 'pay_unbalanced', description: 'x' })
            .execute();
          await trx.insertInto('journal_entries').values({ transaction_id: 'jtx_unbalanced', account_id: entry.account_id, amount_cents: 5 }).execute();
        }),
    ).rejects.toThrow(/not balanced/);
  });
});

describe('a process that dies mid-payment', () => {
  /** The real sandbox, optionally made to fail before or after the charge reaches it. */
  function flaky(when: 'before' | 'after'): PaymentProcessor {
    const real = t.runtime.processor;
    return {
      publishableKey: real.publishableKey,
      elementsUrl: real.elementsUrl,
      describeToken: (token) => real.describeToken(token),
      async charge(request) {
        if (when === 'after') await real.charge(request);
        throw new Error(`connection lost ${when} the charge`);
      },
      sendPayout: (request) => real.sendPayout(request),
      refund: (request) => real.refund(request),
      submitDisputeEvidence: (request) => real.submitDisputeEvidence(request),
      acceptDispute: (request) => real.acceptDispute(request),
    };
  }

  const deps = (processor: PaymentProcessor) => ({
    db: db(),
    processor,
    mailer: t.runtime.mailer,
    jobs: t.runtime.jobs,
    fees: t.runtime.config.fees,
    log: silentLogger,
  });

  it.each(['before', 'after'] as const)(
    'lost %s the charge: 503, the payment waits Pending, and the reconciliation job finishes it with one charge',
    async (when) => {
      const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 4_200 });
      const request = await requestRow(db(), requestId);
      const processorToken = await tokenize(t.app, t.runtime, { card: CARDS.visa });
      // Whether the processor charged is unknown: the caller is told so, not that the payment is pending.
      await expect(payRequest({ ...deps(flaky(when)), request, body: { method: 'card', processorToken, amountCents: 4_200 } })).rejects.toMatchObject({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
      });
      const { id: paymentId } = await db().selectFrom('payments').select('id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
      expect(await paymentRow(db(), paymentId)).toMatchObject({ state: 'Pending', processor_charge_id: null });
      expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Accepted' });

      // The job that will look again a minute later was queued with the payment.
      const { rows: jobs } = await sql<{ data: { paymentId: string }; start_after: Date; created_on: Date }>`
      SELECT data, start_after, created_on FROM pgboss.job WHERE name = 'payments.reconcile' AND data->>'paymentId' = ${paymentId}`.execute(db());
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.start_after.getTime() - jobs[0]!.created_on.getTime()).toBeGreaterThanOrEqual(55_000);

      expect(await reconcilePayment(deps(t.runtime.processor), { businessId: biz.businessId, paymentId, processorToken })).toBe('applied');
      expect(await paymentRow(db(), paymentId)).toMatchObject({ state: 'Processed', processor_charge_id: expect.stringMatching(/^ch_/) });
      expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Accepted', amount_paid_cents: 4_200 });
      expect(await db().selectFrom('sandbox_processor_charges').select('id').where('idempotency_key', '=', paymentId).execute()).toHaveLength(1);
      expect(await journalKinds(db(), paymentId)).toEqual(['payment_captured']);
      // Running again (a retried job) does nothing.
      expect(await reconcilePayment(deps(t.runtime.processor), { businessId: biz.businessId, paymentId, processorToken })).toBe('already-final');
      expect(payToken).toBeTruthy();
    },
  );
});
