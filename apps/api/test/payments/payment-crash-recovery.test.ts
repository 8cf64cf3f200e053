// PostgreSQL pass: a payment's crash between the processor and the ledger.
import type { FastifyInstance } from 'fastify';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { reconcilePayment } from '../../src/domain/payments/reconcile-payment';
import { LEASE_SECONDS } from '../../src/lib/idempotency';
import { advanceCharge } from '../../src/processor/sandbox/sandbox-processor';
import { deliverWebhook } from '../../src/processor/sandbox/deliver-webhook';
import type { PaymentProcessor } from '../../src/processor/port';
import { approvedBusiness, insertPayer } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, journalKinds, pay, requestRow, timeline, tokenize, chargesOf } from '../support/payments';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { Death, type StatementMatch } from '../support/death';

/**
 * A payment interrupted by a crash: the process running `POST /api/public/pay/:token/payments`
 * dies at each step of the payment, and the payer's page retries the same attempt (same
 * Idempotency-Key, same body, same single-use card token) against the server that runs next.
 *
 * The process that dies is a second app over the same database and job queue ("process A"),
 * with a processor in front of the real sandbox that stops A at the chosen step. Dying means what
 * `kill -9` means for the database: the statement at the crash point and everything A would do
 * after it (answering, letting go of the key, renewing its lease) never reaches the database; an
 * open transaction is rolled back. `t.app` is the server after the restart. The sandbox processor
 * is the outside world: it keeps what it did, and its webhooks arrive when the test delivers them.
 */

let t: TestApp;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  // The processor's webhooks are delivered by the tests (late, or never) and nothing settles on its own.
  t = await createTestApp(
    { PROCESSOR_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable', SANDBOX_SETTLEMENT_SECONDS: '3600', SANDBOX_AUTO_APPROVE: 'false' },
    { listen: true },
  );
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

let serial = 0;
/** A business of the test's own, so its balances are exactly what the test did. */
async function payable(amountCents: number) {
  serial += 1;
  const biz = await approvedBusiness(t.app, db(), `owner${serial}@crash.example`);
  const payerId = await insertPayer(db(), biz.businessId, { email: `payer${serial}@crash.example` });
  const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents });
  return { businessId: biz.businessId, requestId, payToken };
}

/** Where process A dies. */
const CRASH_POINTS = [
  'before the payment is written',
  'before the processor is called',
  'after the processor charged',
  'after the payment is recorded',
] as const;
type CrashPoint = (typeof CRASH_POINTS)[number];

/** The statement that stores the key's answer: `UPDATE idempotency_keys SET state = …`. */
const storesTheAnswer: StatementMatch = (node) => {
  if (node.kind !== 'UpdateQueryNode' || !node.table || !node.updates) return false;
  const table = JSON.stringify(node.table);
  return table.includes('"idempotency_keys"') && node.updates.some((u) => JSON.stringify(u.column).includes('"state"'));
};

/** The real sandbox, with A's death (or a stall, or a lost answer) at the chosen step of the call. */
function processorOf(around: {
  beforeDescribe?: () => Promise<void>;
  beforeCharge?: () => Promise<void>;
  afterCharge?: () => Promise<void>;
}): PaymentProcessor {
  const real = t.runtime.processor;
  return {
    publishableKey: real.publishableKey,
    elementsUrl: real.elementsUrl,
    async describeToken(token) {
      await around.beforeDescribe?.();
      return real.describeToken(token);
    },
    async charge(request) {
      await around.beforeCharge?.();
      const result = await real.charge(request);
      await around.afterCharge?.();
      return result;
    },
    sendPayout: (request) => real.sendPayout(request),
    refund: (request) => real.refund(request),
    submitDisputeEvidence: (request) => real.submitDisputeEvidence(request),
    acceptDispute: (request) => real.acceptDispute(request),
  };
}

/** Another server process over the same database, queue and processor. */
async function otherProcess(processor: PaymentProcessor, plugin?: KyselyPlugin): Promise<FastifyInstance> {
  const database = plugin ? { ...t.runtime.database, db: t.runtime.database.db.withPlugin(plugin) } : t.runtime.database;
  const app = await buildApp({ ...t.runtime, database, processor }, { logger: false });
  await app.ready();
  return app;
}

/** Process A pays with the key and is killed at `point`; its caller never hears back. */
async function payAndCrash(point: CrashPoint, payToken: string, body: Record<string, unknown>, key: string) {
  const death = new Death(point === 'after the payment is recorded' ? storesTheAnswer : undefined);
  const kill = (at: CrashPoint) => async () => {
    if (point !== at) return;
    death.dead = true;
    throw new Error(`killed ${point}`);
  };
  const a = await otherProcess(
    processorOf({
      beforeDescribe: kill('before the payment is written'),
      beforeCharge: kill('before the processor is called'),
      afterCharge: kill('after the processor charged'),
    }),
    death,
  );
  try {
    const lost = await pay(a, payToken, body, key);
    // A connection that dropped, to the payer's page; here the killed process's last gasp.
    expect(lost.statusCode).toBe(500);
    expect(death.dead).toBe(true);
  } finally {
    await a.close();
  }
}

/**
 * Forty seconds pass for the key: longer than a lease, which the dead (or stalled) process no
 * longer renews, and far less than the two minutes a key in progress used to be held for.
 */
async function leaseRunsOut(requestId: string, key: string) {
  const expired = await db()
    .updateTable('idempotency_keys')
    .set({ created_at: sql<Date>`created_at - interval '40 seconds'`, lease_expires_at: sql<Date>`lease_expires_at - interval '40 seconds'` })
    .where('scope', '=', `pay:${requestId}`)
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .executeTakeFirst();
  expect(Number(expired.numUpdatedRows)).toBe(1);
}

async function keyRow(requestId: string, key: string) {
  return db().selectFrom('idempotency_keys').selectAll().where('scope', '=', `pay:${requestId}`).where('key', '=', key).executeTakeFirst();
}

async function paymentsOf(requestId: string) {
  return db().selectFrom('payments').selectAll().where('request_id', '=', requestId).execute();
}

/** The processor catches up: its webhooks so far are delivered, the charge settles, and that is delivered too. */
async function processorCatchesUp(chargeId: string) {
  const deliverAll = async () => {
    const hooks = await db()
      .selectFrom('sandbox_processor_webhooks')
      .select('id')
      .where('delivered_at', 'is', null)
      .where(sql<boolean>`payload->'data'->>'chargeId' = ${chargeId}`)
      .orderBy('created_at')
      .execute();
    for (const hook of hooks) {
      await deliverWebhook({
        db: db(),
        url: `${t.runtime.config.publicUrl}/api/webhooks/processor`,
        secret: t.runtime.config.processor.webhookSecret,
        webhookId: hook.id,
      });
    }
  };
  await deliverAll();
  const sandbox = { db: db(), jobs: t.runtime.jobs, settlementSeconds: 3600 };
  const charge = await db().selectFrom('sandbox_processor_charges').select('status').where('id', '=', chargeId).executeTakeFirstOrThrow();
  if (charge.status === 'pending') await advanceCharge(sandbox, { chargeId, to: 'succeeded' });
  await advanceCharge(sandbox, { chargeId, to: 'settled' });
  await deliverAll();
}

const reconcileDeps = () => ({ db: db(), processor: t.runtime.processor, mailer: t.runtime.mailer });

describe('a payment interrupted by a crash: the retry after the restart answers with what happened', () => {
  it.each(CRASH_POINTS)('killed %s: one payment, one charge, the ledger balanced, the request Paid, and the key answers with the payment', async (point) => {
    const { businessId, requestId, payToken } = await payable(5_000);
    const processorToken = await tokenize(t.app, t.runtime, { card: CARDS.visa });
    const body = { method: 'card', processorToken, amountCents: 5_000 };
    const key = `crash-${point.replaceAll(' ', '-')}`;
    await payAndCrash(point, payToken, body, key);

    // What the crash left behind: the key in progress, and the payment as far as A got with it.
    const left = await keyRow(requestId, key);
    expect(left).toMatchObject({ state: 'in_progress', response_body: null });
    const written = await paymentsOf(requestId);
    const charged = await chargesOf(db(), requestId);
    if (point === 'before the payment is written') {
      expect(written).toEqual([]);
      expect(left!.recovery_point).toBeNull();
      // Nothing was charged: the request is payable again.
      expect((await t.app.inject({ method: 'GET', url: `/api/public/pay/${payToken}` })).json().data.status).toBe('payable');
    } else {
      expect(written).toHaveLength(1);
      expect(left!.recovery_point).toBe(written[0]!.id);
      expect(written[0]!.state).toBe(point === 'after the payment is recorded' ? 'Processed' : 'Pending');
      expect(charged).toHaveLength(point === 'before the processor is called' ? 0 : 1);
    }

    // The restarted server, at once: a payment already recorded is answered; otherwise the dead
    // run's lease still holds the key, and the page is told to retry the same attempt.
    const atOnce = await pay(t.app, payToken, body, key);
    if (point === 'after the payment is recorded') {
      expect(atOnce.statusCode, atOnce.body).toBe(201);
      expect(atOnce.json().data.payment).toMatchObject({ paymentId: written[0]!.id, state: 'Processed' });
    } else {
      expect(atOnce.statusCode, atOnce.body).toBe(409);
      expect(errorOf(atOnce).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }

    await leaseRunsOut(requestId, key);
    const retry = await pay(t.app, payToken, body, key);
    expect(retry.statusCode, retry.body).toBe(201);
    // The answer a first attempt that went well gives: the card payment, captured.
    expect(retry.json()).toEqual({
      status: 'Success',
      data: {
        payment: {
          paymentId: expect.stringMatching(/^pay_/),
          method: 'card',
          instrument: 'Visa •••• 4242',
          amountCents: 5_000,
          feeCents: 175,
          state: 'Processed',
          failureReason: null,
          createdAt: expect.any(String),
          settledAt: null,
          refundedCents: 0,
        },
        transactionState: 'Accepted',
        amountCents: 5_000,
        amountPaidCents: 5_000,
        remainingCents: 0,
      },
    });
    // Before the payment existed the retry is the first run; after, it answers for A's payment.
    expect(retry.headers['idempotent-replayed']).toBe(point === 'before the payment is written' ? undefined : 'true');
    const [payment, ...others] = await paymentsOf(requestId);
    expect(others).toEqual([]);
    expect(retry.json().data.payment.paymentId).toBe(payment!.id);
    if (written.length > 0) expect(payment!.id).toBe(written[0]!.id);
    const charges = await chargesOf(db(), requestId);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.status).toBe('succeeded');
    expect(await journalKinds(db(), payment!.id)).toEqual(['payment_captured']);
    expect((await timeline(db(), requestId)).filter((e) => e.event === 'payerPays' || e.event === 'paymentProcessed').map((e) => e.event)).toEqual([
      'payerPays',
      'paymentProcessed',
    ]);

    // The key now keeps that answer.
    expect(await keyRow(requestId, key)).toMatchObject({ state: 'completed', response_status: 201 });
    const replay = await pay(t.app, payToken, body, key);
    expect(replay.json()).toEqual(retry.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');

    // The processor's late webhooks and the reconciliation job a minute later change nothing more.
    await processorCatchesUp(charges[0]!.id);
    expect(await reconcilePayment(reconcileDeps(), { businessId, paymentId: payment!.id, processorToken })).toBe('already-final');
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Paid', amount_paid_cents: 5_000 });
    expect(await journalKinds(db(), payment!.id)).toEqual(['payment_captured', 'payment_settled']);
    // 5 000 − (145 + 30), once.
    expect(await getBalances(db(), businessId)).toMatchObject({ pendingCents: 0, availableCents: 4_825 });
  });

  it('killed after the processor charged, and the card webhook arrived during the restart: the retry answers at once, without waiting out the lease', async () => {
    const { requestId, payToken } = await payable(2_500);
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.mastercard }), amountCents: 2_500 };
    await payAndCrash('after the processor charged', payToken, body, 'crash-webhook-first');
    const [charge] = await chargesOf(db(), requestId);
    await processorCatchesUp(charge!.id);

    const retry = await pay(t.app, payToken, body, 'crash-webhook-first');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toMatchObject({
      transactionState: 'Paid',
      amountPaidCents: 2_500,
      payment: { state: 'Processed', instrument: 'Mastercard •••• 4444' },
    });
    expect(await paymentsOf(requestId)).toHaveLength(1);
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
  });

  it('killed after the processor declined the card: the retry answers with that decline, not with "can no longer be used"', async () => {
    const { requestId, payToken } = await payable(3_000);
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.declined }), amountCents: 3_000 };
    await payAndCrash('after the processor charged', payToken, body, 'crash-declined');
    await leaseRunsOut(requestId, 'crash-declined');

    const retry = await pay(t.app, payToken, body, 'crash-declined');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json().data).toMatchObject({
      transactionState: 'Error',
      amountPaidCents: 0,
      payment: { state: 'Rejected', failureReason: 'Your card was declined.' },
    });
    expect(await paymentsOf(requestId)).toHaveLength(1);
    expect(await chargesOf(db(), requestId)).toHaveLength(1);
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Error' });
    // The request takes a new attempt with another card.
    const next = await pay(
      t.app,
      payToken,
      { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 3_000 },
      'after-crash-declined',
    );
    expect(next.json().data).toMatchObject({ transactionState: 'Accepted', payment: { state: 'Processed' } });
  });

  it('killed after the bank accepted a debit: the retry answers with the debit pending, as the first answer would have', async () => {
    const { requestId, payToken } = await payable(20_000);
    const body = { method: 'bank_account', processorToken: await tokenize(t.app, t.runtime, { bankAccount: BANK.settles }), amountCents: 20_000 };
    await payAndCrash('after the processor charged', payToken, body, 'crash-debit');
    await leaseRunsOut(requestId, 'crash-debit');

    const retry = await pay(t.app, payToken, body, 'crash-debit');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json().data).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 0, payment: { state: 'Pending', method: 'bank_account' } });
    const [charge, ...more] = await chargesOf(db(), requestId);
    expect(more).toEqual([]);
    expect((await paymentsOf(requestId))[0]!.processor_charge_id).toBe(charge!.id);
    await processorCatchesUp(charge!.id);
    expect(await requestRow(db(), requestId)).toMatchObject({ state: 'Paid', amount_paid_cents: 20_000 });
    expect((await pay(t.app, payToken, body, 'crash-debit')).json()).toEqual(retry.json());
  });
});

describe("the processor's answer is lost, the server lives on", () => {
  it.each(['before', 'after'] as const)(
    'lost %s it charged: 503 "could not confirm", and the retry with the same key finishes that payment at once',
    async (when) => {
      const { requestId, payToken } = await payable(4_200);
      const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 4_200 };
      const lose = async () => {
        throw new Error(`connection lost ${when} the charge`);
      };
      const flaky = await otherProcess(processorOf(when === 'before' ? { beforeCharge: lose } : { afterCharge: lose }));
      try {
        const first = await pay(flaky, payToken, body, `lost-${when}`);
        expect(first.statusCode, first.body).toBe(503);
        expect(errorOf(first)).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          message: 'We could not confirm the payment with the payment processor. Try again in a moment: you will not be charged twice.',
        });
        const [pending] = await paymentsOf(requestId);
        expect(pending).toMatchObject({ state: 'Pending', processor_charge_id: null });
        expect(await keyRow(requestId, `lost-${when}`)).toMatchObject({ state: 'in_progress', recovery_point: pending!.id });
        // A new attempt meanwhile is refused: the request is busy with this payment.
        const other = await pay(t.app, payToken, { ...body, processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }) }, `lost-${when}-other`);
        expect(other.statusCode).toBe(409);
        expect(errorOf(other).message).toMatch(/being processed/);

        // Still unreachable at the first retry: the same 503, and nothing is given up.
        const stillDown = await pay(flaky, payToken, body, `lost-${when}`);
        expect(stillDown.statusCode).toBe(503);

        const retry = await pay(t.app, payToken, body, `lost-${when}`);
        expect(retry.statusCode, retry.body).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.json().data).toMatchObject({
          transactionState: 'Accepted',
          amountPaidCents: 4_200,
          payment: { paymentId: pending!.id, state: 'Processed' },
        });
        expect(await paymentsOf(requestId)).toHaveLength(1);
        expect(await chargesOf(db(), requestId)).toHaveLength(1);
        expect(await journalKinds(db(), pending!.id)).toEqual(['payment_captured']);
        expect((await pay(flaky, payToken, body, `lost-${when}`)).json()).toEqual(retry.json());
      } finally {
        await flaky.close();
      }
    },
  );
});

describe('a run that was only stalled, not dead, cannot undo the takeover', () => {
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    return {
      wait: async () => {
        reached();
        await opened;
      },
      arrived,
      open,
    };
  }

  it('stalled before writing the payment: it cannot write one after a retry took the key over', async () => {
    const { requestId, payToken } = await payable(1_500);
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1_500 };
    const stallA = gate();
    const stallB = gate();
    const a = await otherProcess(processorOf({ beforeDescribe: stallA.wait }));
    const b = await otherProcess(processorOf({ beforeDescribe: stallB.wait }));
    try {
      const fromA = pay(a, payToken, body, 'stalled-early');
      await stallA.arrived;
      await leaseRunsOut(requestId, 'stalled-early');
      const fromB = pay(b, payToken, body, 'stalled-early');
      await stallB.arrived;
      // A wakes while B holds the key: the payment A tries to write is refused with the key and rolled back.
      stallA.open();
      const answerA = await fromA;
      expect(answerA.statusCode, answerA.body).toBe(409);
      expect(errorOf(answerA).code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(await paymentsOf(requestId)).toEqual([]);
      stallB.open();
      const answerB = await fromB;
      expect(answerB.statusCode, answerB.body).toBe(201);
      expect(answerB.json().data.payment.state).toBe('Processed');
      expect(await paymentsOf(requestId)).toHaveLength(1);
      expect(await chargesOf(db(), requestId)).toHaveLength(1);
      expect((await pay(t.app, payToken, body, 'stalled-early')).json()).toEqual(answerB.json());
    } finally {
      stallA.open();
      stallB.open();
      await a.close();
      await b.close();
    }
  });

  it('slow, not dead: a run waiting on the processor renews its lease, so a retry meanwhile is told to wait rather than taking over', async () => {
    const { requestId, payToken } = await payable(1_200);
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1_200 };
    const stall = gate();
    // Only the lease's timer is driven by the test; everything else keeps real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const a = await otherProcess(processorOf({ beforeCharge: stall.wait }));
    try {
      const fromA = pay(a, payToken, body, 'slow-processor');
      await stall.arrived;
      await leaseRunsOut(requestId, 'slow-processor');
      await vi.advanceTimersByTimeAsync(LEASE_SECONDS * 1000);
      await eventually(async () => {
        const row = await db()
          .selectFrom('idempotency_keys')
          .select(sql<boolean>`lease_expires_at > now() + interval '20 seconds'`.as('renewed'))
          .where('scope', '=', `pay:${requestId}`)
          .where('key', '=', 'slow-processor')
          .executeTakeFirstOrThrow();
        return row.renewed;
      });
      const meanwhile = await pay(t.app, payToken, body, 'slow-processor');
      expect(meanwhile.statusCode, meanwhile.body).toBe(409);
      expect(errorOf(meanwhile).code).toBe('IDEMPOTENCY_KEY_IN_USE');
      stall.open();
      const answerA = await fromA;
      expect(answerA.statusCode, answerA.body).toBe(201);
      expect(answerA.headers['idempotent-replayed']).toBeUndefined();
      expect((await pay(t.app, payToken, body, 'slow-processor')).json()).toEqual(answerA.json());
      expect(await chargesOf(db(), requestId)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      stall.open();
      await a.close();
    }
  });

  it('stalled at the processor after writing the payment: the retry that took over and the stalled run both end with the one charge', async () => {
    const { requestId, payToken } = await payable(1_800);
    const body = { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1_800 };
    const stall = gate();
    const a = await otherProcess(processorOf({ beforeCharge: stall.wait }));
    try {
      const fromA = pay(a, payToken, body, 'stalled-late');
      await stall.arrived;
      await leaseRunsOut(requestId, 'stalled-late');
      const retry = await pay(t.app, payToken, body, 'stalled-late');
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.json().data.payment.state).toBe('Processed');
      stall.open();
      const answerA = await fromA;
      expect(answerA.statusCode, answerA.body).toBe(201);
      expect(answerA.json().data.payment).toMatchObject({ paymentId: retry.json().data.payment.paymentId, state: 'Processed' });
      expect(await paymentsOf(requestId)).toHaveLength(1);
      expect(await chargesOf(db(), requestId)).toHaveLength(1);
      expect(await journalKinds(db(), retry.json().data.payment.paymentId)).toEqual(['payment_captured']);
      // The key keeps the answer of the run that held it: the retry's.
      expect((await pay(t.app, payToken, body, 'stalled-late')).json()).toEqual(retry.json());
    } finally {
      stall.open();
      await a.close();
    }
  });
});
