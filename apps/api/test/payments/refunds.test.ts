// PostgreSQL pass: twenty concurrent refunds of one payment, decided by one guarded UPDATE under the balance's lock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole, Refund } from '@tay/contract';
import { getBalances } from '../../src/domain/ledger/get-balances';
import { createRefund, sendRefund } from '../../src/domain/refunds/refunds';
import { newId } from '../../src/lib/ids';
import { Death, insertsInto } from '../support/death';
import { readChanges } from '../../src/domain/changes/read-changes';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { errorOf } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, pay, paymentRow, timeline, tokenize } from '../support/payments';
import { addMember, enablePayouts, fund, insertReceiver } from '../support/payouts';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { invoiceEmail, invoicesApi } from '../invoices/invoice-api';

/**
 * Refunds (ADR 051): full and partial, by card and by bank, refused beyond what was paid (also
 * under twenty at once), refused when the balance cannot cover them, only by owners and admins,
 * within the business, once per Idempotency-Key, and finished after a lost answer.
 */

let t: TestApp;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false', AUTH_IP_RATE_LIMIT_SCALE: '100' }, { listen: true });
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const key = () => ({ 'idempotency-key': newId('key') });
const refundsOf = (b: ApprovedBusiness, requestId: string) => `/api/businesses/${b.businessId}/payment-requests/${requestId}/refunds`;

/** A business of the test's own with `funds` in its available balance, and a request paid in full by `instrument`. */
async function paidRequest(name: string, options: { amountCents?: number; funds?: number; instrument?: { card: string } | { bankAccount: string } } = {}) {
  const b = await approvedBusiness(t.app, db(), `${name}@refunds.example`);
  if (options.funds) await fund(db(), b.businessId, options.funds);
  const payer = await insertPayer(db(), b.businessId, { email: `payer@${name}.example` });
  const amountCents = options.amountCents ?? 10_000;
  const instrument = options.instrument ?? { card: CARDS.visa };
  const { requestId, payToken } = await insertRequest(db(), b.businessId, payer, { amountCents });
  const method = 'card' in instrument ? 'card' : 'bank_account';
  const res = await pay(t.app, payToken, { method, processorToken: await tokenize(t.app, t.runtime, instrument), amountCents }, newId('key'));
  expect(res.statusCode, res.body).toBe(201);
  const paymentId = res.json().data.payment.paymentId as string;
  // A bank debit is Processed once the processor says it succeeded.
  await eventually(async () => (await paymentRow(db(), paymentId)).state === 'Processed', 20_000);
  return { b, requestId, paymentId };
}

function refund(b: ApprovedBusiness, requestId: string, body: Record<string, unknown>, token = b.token, headers: Record<string, string> = key()) {
  return call(t.app, 'POST', refundsOf(b, requestId), token, body, headers);
}

const total = async (b: ApprovedBusiness) => {
  const { pendingCents, availableCents } = await getBalances(db(), b.businessId);
  return pendingCents + availableCents;
};

describe('refunding a card payment', () => {
  it('refunds in part, then the rest; a third is refused naming what is left; the fee stays; the timeline, the audit log and the list say so', async () => {
    const { b, requestId, paymentId } = await paidRequest('card-parts', { funds: 5_000 });
    const before = await total(b);

    const first = await refund(b, requestId, { amountCents: 2_500, reason: 'requested_by_payer', note: 'Dropped one class' });
    expect(first.statusCode, first.body).toBe(201);
    const one = first.json().data as Refund;
    expect(one).toMatchObject({
      requestId,
      paymentId,
      amountCents: 2_500,
      feeReturnedCents: 0,
      state: 'Succeeded',
      reason: 'requested_by_payer',
      instrument: 'Visa •••• 4242',
    });
    expect(one.refundId).toMatch(/^rfd_/);
    expect(await total(b)).toBe(before - 2_500);

    const rest = await refund(b, requestId, { amountCents: 7_500, reason: 'other' });
    expect(rest.statusCode, rest.body).toBe(201);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(10_000);
    expect(await total(b)).toBe(before - 10_000);

    const third = await refund(b, requestId, { paymentId, amountCents: 1, reason: 'other' });
    expect(third.statusCode).toBe(409);
    expect(errorOf(third)).toMatchObject({ code: 'REFUND_EXCEEDS_PAYMENT', message: 'This payment was refunded in full already.' });

    const events = (await timeline(db(), requestId)).filter((e) => e.event === 'refund');
    expect(events.map((e) => e.detail)).toEqual([
      '$25.00 refunded to Visa •••• 4242 (Requested by the payer: Dropped one class).',
      '$75.00 refunded to Visa •••• 4242 (Other).',
    ]);
    const audit = await db()
      .selectFrom('business_events')
      .select(['action', 'actor'])
      .where('business_id', '=', b.businessId)
      .where('action', 'like', 'refund.%')
      .execute();
    expect(audit.filter((a) => a.action === 'refund.created')).toHaveLength(2);
    expect(audit.filter((a) => a.action === 'refund.created').every((a) => a.actor === b.email)).toBe(true);

    const list = await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds?requestId=${requestId}`, b.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toMatchObject({ total: 2, items: [{ amountCents: 7_500 }, { amountCents: 2_500 }] });
    const got = await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/${one.refundId}`, b.token);
    expect(got.json().data).toEqual(one);

    // The payer's refund receipts.
    const mail = (await call(t.app, 'GET', '/api/dev/outbox?to=pat@payers.example', b.token)).json() as { subject: string; text: string }[];
    const receipts = mail.filter((m) => m.subject.startsWith('Refund:') && m.subject.includes('card-parts'));
    expect(receipts.map((m) => m.subject).sort()).toEqual([
      expect.stringMatching(/^Refund: \$25\.00 from Biz card-parts@refunds\.example \(TRX-\d+\)$/),
      expect.stringMatching(/^Refund: \$75\.00 from Biz card-parts@refunds\.example \(TRX-\d+\)$/),
    ]);
    expect(receipts[0]!.text).toContain('Refunded to: Visa •••• 4242');
  });

  it('refuses more than was paid, naming what can be refunded', async () => {
    const { b, requestId } = await paidRequest('too-much', { funds: 50_000 });
    const res = await refund(b, requestId, { amountCents: 10_001, reason: 'duplicate' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: 'REFUND_EXCEEDS_PAYMENT',
      message: 'At most $100.00 of this payment can be refunded: $100.00 was paid.',
    });
  });

  it('refuses a refund the balance cannot cover, naming the shortfall; the fee kept is what is missing right after the payment', async () => {
    const { b, requestId, paymentId } = await paidRequest('shortfall');
    const fee = Number((await paymentRow(db(), paymentId)).fee_cents);
    const res = await refund(b, requestId, { amountCents: 10_000, reason: 'requested_by_payer' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: `Refunding needs $${(fee / 100).toFixed(2)} more than the business’s balance of $${((10_000 - fee) / 100).toFixed(2)}.`,
    });
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
    // What the balance holds can go back.
    const part = await refund(b, requestId, { amountCents: 10_000 - fee, reason: 'requested_by_payer' });
    expect(part.statusCode, part.body).toBe(201);
    expect(await total(b)).toBe(0);
  });

  it('checks the amount, the reason and the note, field by field', async () => {
    const { b, requestId } = await paidRequest('bad-input', { funds: 5_000 });
    const res = await refund(b, requestId, { amountCents: 0, reason: 'because', note: 'x'.repeat(501) });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {}).sort()).toEqual(['amountCents', 'note', 'reason']);
    expect(
      (await paymentRow(db(), (await db().selectFrom('payments').select('id').where('request_id', '=', requestId).executeTakeFirstOrThrow()).id))
        .refunded_cents,
    ).toBe(0);
  });
});

describe('twenty refunds of one payment at once', () => {
  it('take exactly what was paid, never more: ten succeed, ten are refused, one ledger', async () => {
    const { b, requestId, paymentId } = await paidRequest('concurrent', { amountCents: 1_000, funds: 10_000 });
    const before = await total(b);
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(b, requestId, { paymentId, amountCents: 100, reason: 'duplicate' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(10);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(1_000);
    expect(await total(b)).toBe(before - 1_000);
    const processorRefunds = await db()
      .selectFrom('sandbox_processor_refunds')
      .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
      .where(
        'idempotency_key',
        'in',
        results.filter((r) => r.statusCode === 201).map((r) => (r.json().data as Refund).refundId),
      )
      .executeTakeFirstOrThrow();
    expect(Number(processorRefunds.cents)).toBe(1_000);
  });
});

describe('who may refund', () => {
  it('owners and admins; a member or a viewer is refused (403) and nothing moves', async () => {
    const { b, requestId, paymentId } = await paidRequest('roles', { funds: 10_000 });
    const tokens: Record<MemberRole, string> = {
      owner: b.token,
      admin: await addMember(t.app, db(), b.businessId, 'admin@roles-refunds.example', 'admin'),
      member: await addMember(t.app, db(), b.businessId, 'member@roles-refunds.example', 'member'),
      viewer: await addMember(t.app, db(), b.businessId, 'viewer@roles-refunds.example', 'viewer'),
    };
    const expected: Record<MemberRole, number> = { owner: 201, admin: 201, member: 403, viewer: 403 };
    for (const role of ['member', 'viewer', 'owner', 'admin'] as const) {
      const res = await refund(b, requestId, { amountCents: 100, reason: 'other' }, tokens[role]);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(expected[role]);
    }
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(200);
    // Reading refunds is every member's.
    const list = await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds`, tokens.viewer);
    expect(list.json().data.total).toBe(2);
  });

  it("another business's request, payment or refund is not found", async () => {
    const mine = await paidRequest('tenant-a', { funds: 10_000 });
    const theirs = await paidRequest('tenant-b', { funds: 10_000 });
    const made = await refund(theirs.b, theirs.requestId, { amountCents: 100, reason: 'other' });
    const theirRefund = (made.json().data as Refund).refundId;

    expect((await refund(mine.b, theirs.requestId, { amountCents: 100, reason: 'other' })).statusCode).toBe(404);
    expect((await refund(mine.b, mine.requestId, { paymentId: theirs.paymentId, amountCents: 100, reason: 'other' })).statusCode).toBe(404);
    expect((await call(t.app, 'GET', `/api/businesses/${mine.b.businessId}/refunds/${theirRefund}`, mine.b.token)).statusCode).toBe(404);
    expect((await refund(theirs.b, theirs.requestId, { amountCents: 100, reason: 'other' }, mine.b.token)).statusCode).toBe(404);
    expect((await paymentRow(db(), theirs.paymentId)).refunded_cents).toBe(100);
  });
});

describe('a disabled business', () => {
  it('refunds nothing: 403 BUSINESS_NOT_APPROVED, and no money moves', async () => {
    const { b, requestId, paymentId } = await paidRequest('disabled-refund', { funds: 20_000 });
    await db().updateTable('businesses').set({ state: 'Disabled' }).where('id', '=', b.businessId).execute();
    const before = await total(b);
    const res = await refund(b, requestId, { amountCents: 1_000, reason: 'other' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('BUSINESS_NOT_APPROVED');
    expect(await total(b)).toBe(before);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
  });
});

describe('one refund per Idempotency-Key', () => {
  it('replays the first answer for the same request and refuses the key for another', async () => {
    const { b, requestId, paymentId } = await paidRequest('idempotent', { funds: 10_000 });
    const headers = key();
    const first = await refund(b, requestId, { amountCents: 300, reason: 'duplicate' }, b.token, headers);
    const again = await refund(b, requestId, { amountCents: 300, reason: 'duplicate' }, b.token, headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().data.refundId).toBe(first.json().data.refundId);
    const other = await refund(b, requestId, { amountCents: 400, reason: 'duplicate' }, b.token, headers);
    expect(other.statusCode).toBe(422);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(300);
  });
});

describe('refunding a bank payment', () => {
  it('is Pending until the processor says it succeeded', async () => {
    const { b, requestId } = await paidRequest('bank-ok', { funds: 20_000, instrument: { bankAccount: BANK.settles } });
    const res = await refund(b, requestId, { amountCents: 4_000, reason: 'requested_by_payer' });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data as Refund;
    expect(made.state).toBe('Pending');
    const { snapshot } = await readChanges(db(), [b.businessId], null);
    const done = await eventually(async () => {
      const got = (await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/${made.refundId}`, b.token)).json().data as Refund;
      return got.state !== 'Pending' ? got : undefined;
    }, 20_000);
    expect(done).toMatchObject({ state: 'Succeeded', failureReason: null });
    // Its success is a notice of its request: the open screens (the Refunds page among them) read again.
    const { changes } = await readChanges(db(), [b.businessId], snapshot);
    expect(changes).toContainEqual({ businessId: b.businessId, kind: 'request', id: requestId });
  });

  it('fails at the processor for a closed account, says why, and gives the money back to the balance and the payment', async () => {
    const { b, requestId, paymentId } = await paidRequest('bank-fails', { funds: 20_000, instrument: { bankAccount: '000333333335' } });
    const before = await total(b);
    const res = await refund(b, requestId, { amountCents: 4_000, reason: 'requested_by_payer' });
    const made = res.json().data as Refund;
    expect(await total(b)).toBe(before - 4_000);
    const done = await eventually(async () => {
      const got = (await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/${made.refundId}`, b.token)).json().data as Refund;
      return got.state !== 'Pending' ? got : undefined;
    }, 20_000);
    expect(done).toMatchObject({ state: 'Failed', failureReason: 'The payer’s bank account is closed, so the refund could not be delivered (R02).' });
    expect(await total(b)).toBe(before);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
    expect((await call(t.app, 'GET', `/api/businesses/${b.businessId}/payment-requests/${requestId}`, b.token)).json().data.refundedCents).toBe(0);
    expect((await timeline(db(), requestId)).some((e) => e.event === 'refundFailed')).toBe(true);
  });
});

describe('a bank debit returned while its refund is on its way', () => {
  it('cancels the refund at the processor: it fails saying so, and the return alone takes the money back', async () => {
    const { b, requestId, paymentId } = await paidRequest('refund-then-return', { funds: 20_000, instrument: { bankAccount: BANK.settles } });
    const before = await total(b);
    const res = await refund(b, requestId, { amountCents: 4_000, reason: 'requested_by_payer' });
    const made = res.json().data as Refund;
    expect(made.state).toBe('Pending');
    // The payer's bank returns the debit before the refund goes out (the sandbox's bank refund waits for the settlement delay).
    const charge = (await paymentRow(db(), paymentId)).processor_charge_id!;
    await db().updateTable('sandbox_processor_charges').set({ status: 'returned' }).where('id', '=', charge).execute();
    const done = await eventually(async () => {
      const got = (await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/${made.refundId}`, b.token)).json().data as Refund;
      return got.state !== 'Pending' ? got : undefined;
    }, 20_000);
    expect(done).toMatchObject({
      state: 'Failed',
      failureReason: 'The payer’s bank returned the payment before the refund went out, so the refund was cancelled: the return already gave the money back.',
    });
    // The refund's money is back in the balance; the return (its own webhook, not sent by this shortcut) is what takes it.
    expect(await total(b)).toBe(before);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
  });
});

describe('a lost answer from the processor', () => {
  it('leaves the refund Pending with its money reserved; asking again with the same key refunds once', async () => {
    const { b, requestId, paymentId } = await paidRequest('lost-answer', { funds: 10_000 });
    const real = t.runtime.processor;
    const before = await total(b);
    // The processor refunds, then the connection drops before its answer arrives.
    const lossy = {
      refund: async (request: Parameters<typeof real.refund>[0]) => {
        await real.refund(request);
        throw new Error('connection lost after the refund');
      },
    };
    const owner = await db().selectFrom('users').select('id').where('email', '=', b.email).executeTakeFirstOrThrow();
    const made = await createRefund(
      { db: db(), processor: lossy, jobs: t.runtime.jobs, mailer: t.runtime.mailer, refundReturnsFee: false },
      { businessId: b.businessId, requestId, body: { amountCents: 1_500, reason: 'other' }, actor: { userId: owner.id, email: b.email } },
    );
    expect(made.state).toBe('Pending');
    expect(await total(b)).toBe(before - 1_500);
    // What the refunds.send job does after the crash.
    expect(await sendRefund({ db: db(), processor: real, mailer: t.runtime.mailer }, { businessId: b.businessId, refundId: made.refundId })).toBe('succeeded');
    expect(await sendRefund({ db: db(), processor: real, mailer: t.runtime.mailer }, { businessId: b.businessId, refundId: made.refundId })).toBe(
      'already-done',
    );
    const atProcessor = await db().selectFrom('sandbox_processor_refunds').selectAll().where('idempotency_key', '=', made.refundId).execute();
    expect(atProcessor).toHaveLength(1);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(1_500);
    expect(await total(b)).toBe(before - 1_500);
  });
  it('killed between the ledger write and the processor call: the job refunds once, and a second run finds nothing to do', async () => {
    const { b, requestId, paymentId } = await paidRequest('killed-before-call', { funds: 10_000 });
    const real = t.runtime.processor;
    const before = await total(b);
    // The transaction committed the refund, its ledger and its job; the process dies before it reaches the processor.
    const dying = {
      refund: async () => {
        throw new Error('the process was killed');
      },
    };
    const owner = await db().selectFrom('users').select('id').where('email', '=', b.email).executeTakeFirstOrThrow();
    const made = await createRefund(
      { db: db(), processor: dying, jobs: t.runtime.jobs, mailer: t.runtime.mailer, refundReturnsFee: false },
      { businessId: b.businessId, requestId, body: { amountCents: 2_500, reason: 'other' }, actor: { userId: owner.id, email: b.email } },
    );
    expect(made.state).toBe('Pending');
    expect(await db().selectFrom('sandbox_processor_refunds').selectAll().where('idempotency_key', '=', made.refundId).execute()).toHaveLength(0);
    // Two workers pick the job up after the restart at once: one refund at the processor, one in the ledger.
    const deps = { db: db(), processor: real, mailer: t.runtime.mailer };
    const runs = await Promise.all([
      sendRefund(deps, { businessId: b.businessId, refundId: made.refundId }),
      sendRefund(deps, { businessId: b.businessId, refundId: made.refundId }),
    ]);
    expect(runs).toContain('succeeded');
    expect(await db().selectFrom('sandbox_processor_refunds').selectAll().where('idempotency_key', '=', made.refundId).execute()).toHaveLength(1);
    const journals = await db().selectFrom('journal_transactions').select('kind').where('refund_id', '=', made.refundId).execute();
    expect(journals.map((j) => j.kind)).toEqual(['refund_reserved']);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(2_500);
    expect(await total(b)).toBe(before - 2_500);
    expect((await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/${made.refundId}`, b.token)).json().data.state).toBe('Succeeded');
  });

  it('killed inside the refund’s transaction: nothing is kept, and the retry refunds once', async () => {
    const { b, requestId, paymentId } = await paidRequest('killed-inside', { funds: 10_000 });
    const before = await total(b);
    const death = new Death(insertsInto('journal_entries'));
    const owner = await db().selectFrom('users').select('id').where('email', '=', b.email).executeTakeFirstOrThrow();
    await expect(
      createRefund(
        { db: db().withPlugin(death), processor: t.runtime.processor, jobs: t.runtime.jobs, mailer: t.runtime.mailer, refundReturnsFee: false },
        { businessId: b.businessId, requestId, body: { amountCents: 2_500, reason: 'other' }, actor: { userId: owner.id, email: b.email } },
      ),
    ).rejects.toThrow('the process was killed');
    expect(await db().selectFrom('refunds').select('id').where('business_id', '=', b.businessId).execute()).toEqual([]);
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
    expect(await total(b)).toBe(before);
    const retried = await refund(b, requestId, { amountCents: 2_500, reason: 'other' });
    expect(retried.statusCode, retried.body).toBe(201);
    expect(await db().selectFrom('refunds').select('id').where('business_id', '=', b.businessId).execute()).toHaveLength(1);
    expect(await total(b)).toBe(before - 2_500);
  });
});

describe('the request beside its paid state', () => {
  const history = async (b: ApprovedBusiness, refunded?: string) =>
    (await call(t.app, 'GET', `/api/businesses/${b.businessId}/payment-requests${refunded ? `?refunded=${refunded}` : ''}`, b.token)).json().data as {
      items: { transactionId: string; refundedCents: number; transactionState: string }[];
      total: number;
    };

  it('says PartiallyRefunded, then Refunded, in the request, its history item and the history’s filter', async () => {
    const { b, requestId } = await paidRequest('beside-paid', { funds: 20_000 });
    const other = await paidRequest('beside-paid-unrefunded', { funds: 0 });
    expect((await history(other.b)).items[0]).toMatchObject({ refundedCents: 0 });

    expect((await refund(b, requestId, { amountCents: 3_000, reason: 'other' })).statusCode).toBe(201);
    const got = (await call(t.app, 'GET', `/api/businesses/${b.businessId}/payment-requests/${requestId}`, b.token)).json().data;
    expect(got).toMatchObject({ amountPaidCents: 10_000, refundedCents: 3_000 });
    expect((await history(b)).items.find((r) => r.transactionId === requestId)).toMatchObject({ refundedCents: 3_000 });
    expect((await history(b, 'PartiallyRefunded')).total).toBe(1);
    expect((await history(b, 'Refunded')).total).toBe(0);
    expect((await history(b, 'any')).total).toBe(1);

    expect((await refund(b, requestId, { amountCents: 7_000, reason: 'other' })).statusCode).toBe(201);
    expect((await history(b, 'Refunded')).items.map((r) => r.transactionId)).toEqual([requestId]);
    expect((await history(b, 'PartiallyRefunded')).total).toBe(0);
    expect((await history(other.b, 'any')).total).toBe(0);

    const bad = await call(t.app, 'GET', `/api/businesses/${b.businessId}/payment-requests?refunded=some`, b.token);
    expect(bad.statusCode).toBe(400);
  });

  it('asks again above the business’s confirmation limit, with the amount in words', async () => {
    const { b, requestId, paymentId } = await paidRequest('confirm-refund', { funds: 20_000 });
    await db().updateTable('businesses').set({ confirm_above_cents: 5_000 }).where('id', '=', b.businessId).execute();
    const asked = await refund(b, requestId, { amountCents: 6_000, reason: 'duplicate' });
    expect(asked.statusCode).toBe(422);
    expect(errorOf(asked)).toMatchObject({ code: 'AMOUNT_CONFIRMATION_REQUIRED' });
    expect(errorOf(asked).message).toContain('$60.00 (sixty dollars');
    expect(asked.headers['confirm-amount-cents']).toBe('6000');
    expect((await paymentRow(db(), paymentId)).refunded_cents).toBe(0);
    const confirmed = await refund(b, requestId, { amountCents: 6_000, reason: 'duplicate', confirmedAmountCents: 6_000 });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect((await refund(b, requestId, { amountCents: 4_000, reason: 'duplicate' })).statusCode).toBe(201);
  });

  it('lists and exports the refunds by state, reason and search, as the Refunds page shows them', async () => {
    const { b, requestId } = await paidRequest('refund-list', { funds: 20_000 });
    await refund(b, requestId, { amountCents: 1_000, reason: 'duplicate' });
    await refund(b, requestId, { amountCents: 2_000, reason: 'other', note: 'Goodwill, "as agreed"' });
    const list = (query: string) => call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds?${query}`, b.token).then((r) => r.json().data);
    const all = await list('');
    expect(all.total).toBe(2);
    expect(all.items[0]).toMatchObject({ payerName: expect.any(String), referenceNumber: expect.stringMatching(/^TRX-\d+$/), amountCents: 2_000 });
    expect((await list('reason=duplicate')).items.map((r: Refund) => r.amountCents)).toEqual([1_000]);
    expect((await list(`search=${all.items[0].referenceNumber}`)).total).toBe(2);
    expect((await list('search=TRX-1')).total).toBe(0);
    expect((await list(`search=${encodeURIComponent(all.items[0].payerName.slice(0, 3).toLowerCase())}`)).total).toBe(2);
    expect((await list('search=zzz')).total).toBe(0);
    expect((await list('sortDirection=asc')).items.map((r: Refund) => r.amountCents)).toEqual([1_000, 2_000]);

    const csv = await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/export.csv?reason=other`, b.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Refund,Reference,Payer,Refunded to,Amount \(USD\),Fee returned \(USD\),Reason,Note,Status,Failure,Refunded by,Created \(/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Visa •••• 4242,20.00,0.00,Other,"Goodwill, ""as agreed""",Succeeded,');

    const stranger = await approvedBusiness(t.app, db(), 'refund-list-stranger@refunds.example');
    expect((await call(t.app, 'GET', `/api/businesses/${b.businessId}/refunds/export.csv`, stranger.token)).statusCode).toBe(404);
  });
});

describe('an invoice refunded', () => {
  it('says what was refunded beside what was paid, its timeline says Refunded, and the balance it was paid to stays closed', async () => {
    const b = await approvedBusiness(t.app, db(), 'invoice@refunds.example');
    await fund(db(), b.businessId, 20_000);
    const payer = await insertPayer(db(), b.businessId, { email: 'payer@invoice-refund.example' });
    const invoices = invoicesApi(t.app, b);
    const sent = await invoices.sent(payer);
    const requestId = sent.transactionId!;
    const { token } = await invoiceEmail(db(), requestId);
    const paid = await pay(
      t.app,
      token,
      { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: sent.totalCents },
      newId('key'),
    );
    expect(paid.statusCode, paid.body).toBe(201);
    await eventually(async () => (await invoices.detail(sent.invoiceId)).invoiceState === 'Paid', 20_000);

    expect((await refund(b, requestId, { amountCents: 1_000, reason: 'requested_by_payer' })).statusCode).toBe(201);
    const detail = await invoices.detail(sent.invoiceId);
    expect(detail).toMatchObject({ invoiceState: 'Paid', amountPaidCents: sent.totalCents, refundedCents: 1_000, balanceCents: 0 });
    expect(detail.payments).toMatchObject([{ refundedCents: 1_000 }]);
    expect(detail.timeline.map((e) => e.event)).toContain('refund');

    const stranger = await approvedBusiness(t.app, db(), 'invoice-stranger@refunds.example');
    expect((await refund(stranger, requestId, { amountCents: 1_000, reason: 'other' })).statusCode).toBe(404);
  });
});

describe('a business that allows a negative balance', () => {
  it('refunds what its balance cannot cover; below zero, no payout is approved until payments bring it back', async () => {
    const { b, requestId } = await paidRequest('negative-balance', { funds: 0 });
    // Off by default: refused with the shortfall named.
    expect((await refund(b, requestId, { amountCents: 10_000, reason: 'requested_by_payer' })).statusCode).toBe(409);

    const business = (await call(t.app, 'GET', `/api/businesses/${b.businessId}`, b.token)).json().data;
    expect(business.config.allowNegativeBalance).toBe(false);
    const { timeZone, defaultExpiryDays, reminderSchedule } = business.config;
    const turnOn = { config: { timeZone, defaultExpiryDays, reminderSchedule, allowNegativeBalance: true } };
    const member = await addMember(t.app, db(), b.businessId, 'member@negative-balance.example', 'member');
    expect((await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/update`, member, turnOn)).statusCode).toBe(403);
    const saved = await call(t.app, 'PATCH', `/api/businesses/${b.businessId}/update`, b.token, turnOn);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.config.allowNegativeBalance).toBe(true);

    const before = await getBalances(db(), b.businessId);
    const res = await refund(b, requestId, { amountCents: 10_000, reason: 'requested_by_payer' });
    expect(res.statusCode, res.body).toBe(201);
    const after = await getBalances(db(), b.businessId);
    // The whole pending balance, and the fee the payment kept below zero.
    expect(after.pendingCents).toBe(0);
    expect(after.availableCents).toBe(before.availableCents + before.pendingCents - 10_000);
    expect(after.availableCents).toBeLessThan(0);
    await assertLedgerInvariants(db());

    await enablePayouts(db(), b.businessId);
    const receiverId = await insertReceiver(t.runtime, b.businessId);
    const payout = await call(t.app, 'POST', `/api/businesses/${b.businessId}/payouts`, b.token, { receiverId, amountCents: 100, submit: true }, key());
    expect(payout.statusCode).toBe(409);
    expect(errorOf(payout)).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(errorOf(payout).message).toContain(`The available balance is -$${(-after.availableCents / 100).toFixed(2)} after refunds`);

    // Money in brings it back: payouts are approved again.
    await fund(db(), b.businessId, 10_000);
    const again = await call(t.app, 'POST', `/api/businesses/${b.businessId}/payouts`, b.token, { receiverId, amountCents: 100, submit: true }, key());
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.state).toBe('Approved');
  });
});
