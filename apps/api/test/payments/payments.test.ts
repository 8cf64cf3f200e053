// PostgreSQL pass: the ledger's entries and balances.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setBusinessState } from '../../src/domain/businesses/set-business-state';
import { OPERATIONS_ACTOR } from '../../src/domain/businesses/audit';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { dayIn } from '../support/requests';
import { request } from '../support/businesses';
import { errorOf, get } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, journalKinds, pay, paymentRow, requestRow, timeline, tokenize } from '../support/payments';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@payments.example');
  payerId = await insertPayer(db(), biz.businessId, { email: 'pat@payers.example' });
});
afterAll(async () => t?.close());
// Every money test leaves a ledger that balances and agrees with the reported balances.
afterEach(async () => {
  await assertLedgerInvariants(db());
});

/**
 * A business of the test's own, for a test that measures balances: payments of earlier tests
 * settle a second later in the background and would move a shared business's balances mid-test.
 */
async function ownBusiness(name: string) {
  const own = await approvedBusiness(t.app, db(), `${name}@payments.example`);
  return { own, ownPayer: await insertPayer(db(), own.businessId, { email: 'pat@payers.example' }) };
}

const card = (number = CARDS.visa) => tokenize(t.app, t.runtime, { card: number });
const bank = (account = BANK.settles) => tokenize(t.app, t.runtime, { bankAccount: account });

async function balances(as = biz) {
  const res = await request(t.app, 'GET', `/api/businesses/${as.businessId}/balances`, as.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { pendingCents: number; availableCents: number; collectedCents: number; feesCents: number };
}

async function waitForRequest(requestId: string, state: string) {
  return eventually(async () => {
    const row = await requestRow(db(), requestId);
    return row.state === state ? row : undefined;
  }, 20_000);
}

async function waitForPayment(paymentId: string, check: (row: Awaited<ReturnType<typeof paymentRow>>) => boolean) {
  return eventually(async () => {
    const row = await paymentRow(db(), paymentId);
    return check(row) ? row : undefined;
  }, 20_000);
}

describe('paying by card', () => {
  it('captures at once, e-mails a receipt, settles a moment later: Sent → Accepted → Paid', async () => {
    const { own, ownPayer } = await ownBusiness('card-settles');
    const before = await balances(own);
    const { requestId, payToken } = await insertRequest(db(), own.businessId, ownPayer, { amountCents: 12_500 });
    const res = await pay(
      t.app,
      payToken,
      { method: 'card', processorToken: await card(), amountCents: 12_500, payerEmail: 'Pat.Receipts@Example.com' },
      'key-card-1',
    );
    expect(res.statusCode, res.body).toBe(201);
    const { payment, transactionState, amountPaidCents, remainingCents } = res.json().data;
    expect(payment).toMatchObject({
      method: 'card',
      instrument: 'Visa •••• 4242',
      amountCents: 12_500,
      feeCents: 393,
      state: 'Processed',
      failureReason: null,
      settledAt: null,
    });
    expect(payment.paymentId).toMatch(/^pay_/);
    expect({ transactionState, amountPaidCents, remainingCents }).toEqual({ transactionState: 'Accepted', amountPaidCents: 12_500, remainingCents: 0 });
    expect(await journalKinds(db(), payment.paymentId)).toEqual(['payment_captured']);
    expect(await balances(own)).toEqual({
      pendingCents: before.pendingCents + 12_107,
      availableCents: before.availableCents,
      collectedCents: before.collectedCents + 12_500,
      feesCents: before.feesCents + 393,
      payoutsInFlightCents: 0,
    });

    const receiptMail = (await get(t.app, '/api/dev/outbox?to=pat.receipts@example.com')).json() as { subject: string; text: string }[];
    expect(receiptMail).toHaveLength(1);
    expect(receiptMail[0]!.subject).toMatch(/^Receipt: \$125\.00 paid to Biz card-settles@payments\.example \(TRX-\d+\)$/);
    expect(receiptMail[0]!.text).toContain('Visa •••• 4242');
    expect(receiptMail[0]!.text).not.toContain('3.93');

    const paid = await waitForRequest(requestId, 'Paid');
    expect(paid.amount_paid_cents).toBe(12_500);
    expect(paid.paid_at).not.toBeNull();
    expect((await paymentRow(db(), payment.paymentId)).settled_at).not.toBeNull();
    expect(await journalKinds(db(), payment.paymentId)).toEqual(['payment_captured', 'payment_settled']);
    const after = await balances(own);
    expect(after.pendingCents).toBe(before.pendingCents);
    expect(after.availableCents).toBe(before.availableCents + 12_107);

    const events = await timeline(db(), requestId);
    expect(events.map((e) => [e.event, e.from_state, e.to_state, e.actor_label])).toEqual([
      ['payerPays', 'Sent', 'Accepted', 'Payer (pat.receipts@example.com)'],
      ['paymentProcessed', null, null, 'Payment processor'],
      ['paymentSettles', 'Accepted', 'Paid', 'Payment processor'],
    ]);

    const receipt = await get(t.app, `/api/public/pay/${payToken}/receipt/${payment.paymentId}`);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json().data).toMatchObject({
      paymentId: payment.paymentId,
      businessName: 'Biz card-settles@payments.example',
      referenceNumber: expect.stringMatching(/^TRX-\d+$/),
      method: 'card',
      methodLabel: 'Visa •••• 4242',
      amountCents: 12_500,
      paymentState: 'Processed',
      requestAmountCents: 12_500,
      remainingCents: 0,
    });
    expect(receipt.json().data.feeCents).toBeUndefined();

    // Paid takes no more money.
    const again = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 100 });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe('This request is paid in full. Thank you!');
  });

  it('a declined card: payment Rejected with the reason, request Error; the payer tries again and pays', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 5_000 });
    const declined = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 5_000 });
    expect(declined.statusCode, declined.body).toBe(201);
    expect(declined.json().data).toMatchObject({
      payment: { state: 'Rejected', failureReason: 'Your card was declined.', instrument: 'Visa •••• 0002' },
      transactionState: 'Error',
      amountPaidCents: 0,
    });
    expect(await journalKinds(db(), declined.json().data.payment.paymentId)).toEqual([]);

    const poor = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.insufficientFunds), amountCents: 5_000 });
    expect(poor.json().data).toMatchObject({ payment: { state: 'Rejected', failureReason: 'Your card has insufficient funds.' }, transactionState: 'Error' });

    const ok = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.mastercard), amountCents: 5_000 });
    expect(ok.json().data).toMatchObject({ payment: { state: 'Processed', instrument: 'Mastercard •••• 4444' }, transactionState: 'Accepted' });
    await waitForRequest(requestId, 'Paid');
    const events = (await timeline(db(), requestId)).map((e) => `${e.event}:${e.from_state ?? ''}>${e.to_state ?? ''}`);
    expect(events).toEqual([
      'payerPays:Sent>Accepted',
      'paymentFails:Accepted>Error',
      'payerPays:Error>Accepted',
      'paymentFails:Accepted>Error',
      'payerPays:Error>Accepted',
      'paymentProcessed:>',
      'paymentSettles:Accepted>Paid',
    ]);
    // The sandbox's own charge.failed webhooks arrived too and changed nothing.
    await eventually(async () => {
      const hooks = await db().selectFrom('sandbox_processor_webhooks').select(['type', 'delivered_at']).where('type', '=', 'charge.failed').execute();
      return hooks.length >= 2 && hooks.every((h) => h.delivered_at !== null);
    }, 20_000);
    expect((await requestRow(db(), requestId)).state).toBe('Paid');
  });

  it("the landing page's figures count a payment while it settles, as the ledger does", async () => {
    const { own, ownPayer } = await ownBusiness('summary');
    const summary = async () => (await request(t.app, 'GET', `/api/businesses/${own.businessId}/payment-requests/summary`, own.token)).json().data;
    const { requestId, payToken } = await insertRequest(db(), own.businessId, ownPayer, { amountCents: 10_000, allowPartial: true });
    expect(await summary()).toMatchObject({ openCount: 1, openCents: 10_000, paidCents: 0, paidCount: 0 });
    const first = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 4_000 });
    expect(first.json().data).toMatchObject({ transactionState: 'Accepted' });
    expect(await summary()).toMatchObject({ openCount: 1, openCents: 6_000, paidCents: 4_000 });
    expect((await balances(own)).collectedCents).toBe(4_000);
    await waitForRequest(requestId, 'PartiallyPaid');
    expect(await summary()).toMatchObject({ openCount: 1, openCents: 6_000, paidCents: 4_000, paidCount: 0 });
    expect((await balances(own)).collectedCents).toBe(4_000);
  });

  it('pays in parts when the request allows it: PartiallyPaid, then Paid', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 10_000, allowPartial: true });
    const tooMuch = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 10_001 });
    expect(tooMuch.statusCode).toBe(400);
    expect(errorOf(tooMuch).fields).toEqual({ amountCents: 'The most you can pay is $100.00.' });

    const first = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 4_000 });
    expect(first.json().data).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 4_000, remainingCents: 6_000 });
    // While the first payment is in flight the request takes no second one.
    const meanwhile = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 6_000 });
    expect(meanwhile.statusCode).toBe(409);
    expect(errorOf(meanwhile).message).toMatch(/being processed/);

    await waitForRequest(requestId, 'PartiallyPaid');
    const declined = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 1_000 });
    // A failed payment after a partial one goes back to PartiallyPaid, not Error.
    expect(declined.json().data).toMatchObject({ payment: { state: 'Rejected' }, transactionState: 'PartiallyPaid', amountPaidCents: 4_000 });

    const rest = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 6_000 });
    expect(rest.json().data).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 10_000, remainingCents: 0 });
    const paid = await waitForRequest(requestId, 'Paid');
    expect(paid.amount_paid_cents).toBe(10_000);
    const receipt = await get(t.app, `/api/public/pay/${payToken}/receipt/${first.json().data.payment.paymentId}`);
    expect(receipt.json().data).toMatchObject({ amountCents: 4_000, requestAmountCents: 10_000, remainingCents: 0 });
  });

  it('a Resent request is paid like a Sent one', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 800, state: 'Resent' });
    const res = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 800 });
    expect(res.json().data).toMatchObject({ transactionState: 'Accepted', payment: { state: 'Processed' } });
    expect((await timeline(db(), requestId))[0]).toMatchObject({ event: 'payerPays', from_state: 'Resent', to_state: 'Accepted' });
    await waitForRequest(requestId, 'Paid');
  });

  it('a request that is not partial must be paid in full', async () => {
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 10_000 });
    const res = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 5_000 });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Pay the full amount of $100.00.');
  });
});

describe('paying from a bank account', () => {
  it('starts pending, succeeds, settles: Accepted → Paid, with the ledger following each step', async () => {
    const { own, ownPayer } = await ownBusiness('bank-settles');
    const before = await balances(own);
    const { requestId, payToken } = await insertRequest(db(), own.businessId, ownPayer, { amountCents: 100_000 });
    const res = await pay(t.app, payToken, { method: 'bank_account', processorToken: await bank(), amountCents: 100_000 });
    expect(res.statusCode, res.body).toBe(201);
    const { payment } = res.json().data;
    expect(res.json().data).toMatchObject({
      transactionState: 'Accepted',
      amountPaidCents: 0,
      payment: { state: 'Pending', instrument: 'Tay Sandbox Bank •••• 6789', feeCents: 500 },
    });
    expect(await journalKinds(db(), payment.paymentId)).toEqual([]);

    const processed = await waitForPayment(payment.paymentId, (p) => p.state === 'Processed');
    expect(processed.processor_charge_id).toMatch(/^ch_/);
    const paid = await waitForRequest(requestId, 'Paid');
    expect(paid.amount_paid_cents).toBe(100_000);
    expect(await journalKinds(db(), payment.paymentId)).toEqual(['payment_captured', 'payment_settled']);
    const after = await balances(own);
    expect(after.availableCents - before.availableCents).toBe(99_500);
    expect(after.feesCents - before.feesCents).toBe(500);
    expect((await get(t.app, `/api/dev/outbox?to=pat@payers.example`)).json()[0].subject).toMatch(/^Receipt: \$1,000\.00/);
  });

  it('an account with insufficient funds fails before settlement: Rejected, request Error', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 2_000 });
    const res = await pay(t.app, payToken, { method: 'bank_account', processorToken: await bank(BANK.insufficientFunds), amountCents: 2_000 });
    const { payment } = res.json().data;
    expect(payment.state).toBe('Pending');
    await waitForRequest(requestId, 'Error');
    expect(await paymentRow(db(), payment.paymentId)).toMatchObject({ state: 'Rejected', failure_reason: 'The bank account has insufficient funds.' });
    expect(await journalKinds(db(), payment.paymentId)).toEqual([]);
  });

  it('a debit returned after settlement is reversed in full: Returned, amount paid back to 0, request Error', async () => {
    const { own, ownPayer } = await ownBusiness('bank-returned');
    const before = await balances(own);
    const { requestId, payToken } = await insertRequest(db(), own.businessId, ownPayer, { amountCents: 30_000 });
    const res = await pay(t.app, payToken, { method: 'bank_account', processorToken: await bank(BANK.returned), amountCents: 30_000 });
    const { payment } = res.json().data;
    await waitForRequest(requestId, 'Paid');
    const settled = await balances(own);
    expect(settled.availableCents - before.availableCents).toBe(29_760);

    const returned = await waitForPayment(payment.paymentId, (p) => p.state === 'Returned');
    expect(returned.failure_reason).toBe('The bank returned the payment: insufficient funds (R01).');
    expect(returned.returned_at).not.toBeNull();
    const row = await waitForRequest(requestId, 'Error');
    expect(row.amount_paid_cents).toBe(0);
    expect(row.paid_at).toBeNull();
    expect(await journalKinds(db(), payment.paymentId)).toEqual(['payment_captured', 'payment_settled', 'payment_returned']);
    expect(await balances(own)).toEqual(before);
    const last = (await timeline(db(), requestId)).at(-1)!;
    expect(last).toMatchObject({ event: 'paymentReturned', from_state: 'Paid', to_state: 'Error', actor_label: 'Payment processor' });

    const receipt = await get(t.app, `/api/public/pay/${payToken}/receipt/${payment.paymentId}`);
    expect(receipt.json().data).toMatchObject({ paymentState: 'Returned', remainingCents: 30_000 });
  });

  it('a return after another part was paid leaves the request PartiallyPaid', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 9_000, allowPartial: true });
    const byBank = await pay(t.app, payToken, { method: 'bank_account', processorToken: await bank(BANK.returned), amountCents: 3_000 });
    await waitForRequest(requestId, 'PartiallyPaid');
    // Pays the rest by card while the bank debit is still waiting to be returned.
    const byCard = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 6_000 });
    expect(byCard.json().data.transactionState).toBe('Accepted');
    await waitForPayment(byBank.json().data.payment.paymentId, (p) => p.state === 'Returned');
    const row = await eventually(async () => {
      const r = await requestRow(db(), requestId);
      return r.state === 'PartiallyPaid' && r.amount_paid_cents === 6_000 ? r : undefined;
    }, 20_000);
    expect(row.amount_cents - row.amount_paid_cents).toBe(3_000);
    const events = (await timeline(db(), requestId)).filter((e) => e.event === 'paymentReturned' || e.event === 'paymentSettles');
    // Whichever came first: a return while the card payment was in flight keeps it Accepted.
    for (const e of events)
      expect(['Accepted>Accepted', 'Accepted>PartiallyPaid', 'Accepted>Paid', 'PartiallyPaid>PartiallyPaid', 'Paid>PartiallyPaid']).toContain(
        `${e.from_state}>${e.to_state}`,
      );
  });
});

describe('what the pay page refuses', () => {
  it.each([
    ['Expired', 'This request expired. Ask Biz owner@payments.example to send it again.'],
    ['Withdrawn', 'Biz owner@payments.example withdrew this request; there is nothing to pay.'],
    ['Cancelled', 'Biz owner@payments.example cancelled this request; there is nothing to pay.'],
    ['Rejected', 'You declined this request.'],
    ['Paid', 'This request is paid in full. Thank you!'],
    ['Draft', 'This request cannot be paid.'],
    ['Pending', 'This request cannot be paid.'],
  ] as const)('a %s request takes no money (409, a sentence for the payer)', async (state, message) => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { state, amountPaidCents: state === 'Paid' ? 12_500 : 0 });
    const res = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(message);
    expect(await db().selectFrom('payments').select('id').where('request_id', '=', requestId).execute()).toEqual([]);
    expect((await requestRow(db(), requestId)).state).toBe(state);
  });

  it('an eleventh payment attempt on one link from one device within ten minutes (card testing) is refused, with when to try again', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 2_000 });
    for (let i = 0; i < 10; i++) {
      const declined = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 2_000 });
      expect(declined.statusCode, declined.body).toBe(201);
    }
    const refused = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 2_000 });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(refused).message).toMatch(
      /^Too many payment attempts on this link from your device\. Try again in \d+ minutes?, or ask the business for help\.$/,
    );
    const payments = await db().selectFrom('payments').select('state').where('request_id', '=', requestId).execute();
    expect(payments.map((p) => p.state)).toEqual(Array(10).fill('Rejected'));
    // Another link is another count.
    const other = await insertRequest(db(), biz.businessId, payerId, { amountCents: 2_000 });
    expect((await pay(t.app, other.payToken, { method: 'card', processorToken: await card(), amountCents: 2_000 })).statusCode).toBe(201);
  });

  it('a Sent request past its expiry date takes no money even before the expiry job runs', async () => {
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { expiresOn: dayIn(-1) });
    const res = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/expired/);
  });

  it('a business that is not Approved takes no money', async () => {
    const other = await approvedBusiness(t.app, db(), 'disabled@payments.example');
    const otherPayer = await insertPayer(db(), other.businessId);
    const { payToken } = await insertRequest(db(), other.businessId, otherPayer);
    await setBusinessState({ db: db(), businessId: other.businessId, to: 'Disabled', reason: 'Review', actor: OPERATIONS_ACTOR });
    const res = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/cannot take payments right now/);
  });

  it('refuses an unknown link, an unknown or used token, and a method that does not match the token', async () => {
    const { payToken } = await insertRequest(db(), biz.businessId, payerId);
    expect((await pay(t.app, 'x'.repeat(32), { method: 'card', processorToken: await card(), amountCents: 12_500 })).statusCode).toBe(404);
    const unknown = await pay(t.app, payToken, { method: 'card', processorToken: 'tok_0000000000000000000000000', amountCents: 12_500 });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).fields).toEqual({ processorToken: 'Enter your card or bank account details again.' });
    const mismatch = await pay(t.app, payToken, { method: 'card', processorToken: await bank(), amountCents: 12_500 });
    expect(mismatch.statusCode).toBe(400);
    expect(errorOf(mismatch).message).toBe('The payment method does not match the details entered.');
    const used = await card();
    expect((await pay(t.app, payToken, { method: 'card', processorToken: used, amountCents: 12_500 })).statusCode).toBe(201);
    const other = await insertRequest(db(), biz.businessId, payerId);
    expect((await pay(t.app, other.payToken, { method: 'card', processorToken: used, amountCents: 12_500 })).statusCode).toBe(400);
    const invalid = await pay(t.app, other.payToken, { method: 'cash', processorToken: 'nope', amountCents: 0 });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(errorOf(invalid).fields ?? {}).sort()).toEqual(['amountCents', 'method', 'processorToken']);
  });

  it('the receipt exists only for processed payments of that link', async () => {
    const a = await insertRequest(db(), biz.businessId, payerId, { amountCents: 700 });
    const b = await insertRequest(db(), biz.businessId, payerId, { amountCents: 700 });
    const declined = await pay(t.app, a.payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 700 });
    expect((await get(t.app, `/api/public/pay/${a.payToken}/receipt/${declined.json().data.payment.paymentId}`)).statusCode).toBe(404);
    const ok = await pay(t.app, a.payToken, { method: 'card', processorToken: await card(), amountCents: 700 });
    const id = ok.json().data.payment.paymentId;
    expect((await get(t.app, `/api/public/pay/${a.payToken}/receipt/${id}`)).statusCode).toBe(200);
    expect((await get(t.app, `/api/public/pay/${b.payToken}/receipt/${id}`)).statusCode).toBe(404);
  });
});

describe('balances', () => {
  it('are for members only: another business’s id answers 404, without a session 401', async () => {
    const other = await approvedBusiness(t.app, db(), 'other@payments.example');
    expect((await request(t.app, 'GET', `/api/businesses/${biz.businessId}/balances`, other.token)).statusCode).toBe(404);
    expect((await request(t.app, 'GET', `/api/businesses/${biz.businessId}/balances`)).statusCode).toBe(401);
    // The other business's money is its own: nothing of biz's payments shows there.
    expect(await balances(other)).toEqual({ pendingCents: 0, availableCents: 0, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 });
    const mine = await balances();
    expect(mine.collectedCents).toBeGreaterThan(0);
  });
});

describe('Idempotency-Key: the pay page retries an attempt exactly as it was sent', () => {
  async function chargesOf(requestId: string) {
    const payments = await db().selectFrom('payments').select('id').where('request_id', '=', requestId).execute();
    if (payments.length === 0) return [];
    return db()
      .selectFrom('sandbox_processor_charges')
      .select('id')
      .where(
        'idempotency_key',
        'in',
        payments.map((p) => p.id),
      )
      .execute();
  }

  it('a retry after a lost response (same key, same body, same token) gets the stored payment: one payment, one charge, one posting', async () => {
    const { own, ownPayer } = await ownBusiness('lost-answer');
    const before = await balances(own);
    const { requestId, payToken } = await insertRequest(db(), own.businessId, ownPayer, { amountCents: 10_000, allowPartial: true });
    const body = { method: 'card', processorToken: await card(), amountCents: 4_000 };
    const first = await pay(t.app, payToken, body, 'attempt-lost-answer');
    expect(first.statusCode, first.body).toBe(201);
    // The browser never saw that answer and sends the very same request again.
    const retry = await pay(t.app, payToken, body, 'attempt-lost-answer');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const { payment } = first.json().data;

    expect(await db().selectFrom('payments').select('id').where('request_id', '=', requestId).execute()).toEqual([{ id: payment.paymentId }]);
    expect(await chargesOf(requestId)).toHaveLength(1);
    expect(await journalKinds(db(), payment.paymentId)).toEqual(['payment_captured']);
    // 4 000 − (116 + 30) once (pending, or available once it settles).
    const after = await balances(own);
    expect(after.pendingCents + after.availableCents - (before.pendingCents + before.availableCents)).toBe(3_854);
    expect((await timeline(db(), requestId)).filter((e) => e.event === 'payerPays')).toHaveLength(1);

    // Re-tokenizing the card for the retry would make it another request: refused, nothing charged.
    const retokenized = await pay(t.app, payToken, { ...body, processorToken: await card() }, 'attempt-lost-answer');
    expect(retokenized.statusCode).toBe(422);
    expect(errorOf(retokenized).message).toBe('This Idempotency-Key was already used with a different request. Use a new key for a new request.');
    expect(await chargesOf(requestId)).toHaveLength(1);
    await waitForRequest(requestId, 'PartiallyPaid');
  });

  it('a definitive refusal (4xx) is stored under its key; the next attempt, with a new token and a new key, pays', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 5_000 });
    const wrong = { method: 'card', processorToken: await card(), amountCents: 4_000 };
    const refused = await pay(t.app, payToken, wrong, 'attempt-refused');
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toBe('Pay the full amount of $50.00.');
    const again = await pay(t.app, payToken, wrong, 'attempt-refused');
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await db().selectFrom('payments').select('id').where('request_id', '=', requestId).execute()).toEqual([]);

    const next = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 5_000 }, 'attempt-after-refusal');
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().data).toMatchObject({ transactionState: 'Accepted', payment: { state: 'Processed' } });
    expect(await chargesOf(requestId)).toHaveLength(1);
    await waitForRequest(requestId, 'Paid');
  });

  it('after a declined card the next attempt uses a new key and token; replaying the declined one changes nothing', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 3_000 });
    const declinedBody = { method: 'card', processorToken: await card(CARDS.declined), amountCents: 3_000 };
    const declined = await pay(t.app, payToken, declinedBody, 'attempt-declined');
    expect(declined.json().data).toMatchObject({ payment: { state: 'Rejected' }, transactionState: 'Error' });
    const ok = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 3_000 }, 'attempt-new-card');
    expect(ok.json().data).toMatchObject({ payment: { state: 'Processed' }, transactionState: 'Accepted' });
    const replay = await pay(t.app, payToken, declinedBody, 'attempt-declined');
    expect(replay.json()).toEqual(declined.json());
    const payments = await db().selectFrom('payments').select('state').where('request_id', '=', requestId).orderBy('created_at').execute();
    expect(payments.map((p) => p.state)).toEqual(['Rejected', 'Processed']);
    await waitForRequest(requestId, 'Paid');
  });
});

describe('the payer declines', () => {
  const pageOf = async (payToken: string) =>
    (await get(t.app, `/api/public/pay/${payToken}`)).json().data as { status: string; declinable: boolean; transactionState: string };
  const decline = (payToken: string, reason: unknown) => request(t.app, 'POST', `/api/public/pay/${payToken}/decline`, undefined, { reason });

  it('a Sent or Resent request: the page offers it; with a reason it becomes Rejected, the reason in the timeline', async () => {
    for (const state of ['Sent', 'Resent'] as const) {
      const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { state });
      expect(await pageOf(payToken)).toMatchObject({ status: 'payable', declinable: true });
      const res = await decline(payToken, '  Already paid by cheque  ');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        status: 'declined',
        declinable: false,
        transactionState: 'Rejected',
        statusMessage: 'You declined this request.',
      });
      expect((await timeline(db(), requestId)).at(-1)).toMatchObject({
        event: 'payerDeclines',
        from_state: state,
        to_state: 'Rejected',
        detail: 'Already paid by cheque',
        actor_type: 'payer',
      });
    }
  });

  it('refuses an empty reason with the field message and changes nothing', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId);
    for (const reason of ['', '   ']) {
      const res = await decline(payToken, reason);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields).toEqual({ reason: 'Tell the business why you decline.' });
    }
    expect((await decline(payToken, 'x'.repeat(501))).statusCode).toBe(400);
    expect((await requestRow(db(), requestId)).state).toBe('Sent');
    expect(await timeline(db(), requestId)).toEqual([]);
  });

  it.each([
    [
      'PartiallyPaid',
      'payable',
      'You have already paid part of this request, so it can no longer be declined. Pay the rest, or contact Biz owner@payments.example.',
    ],
    [
      'Error',
      'payable',
      'A payment was already tried for this request, so it can no longer be declined. You can pay again, or contact Biz owner@payments.example.',
    ],
    ['Accepted', 'processing', 'A payment for this request is being processed. You will receive a receipt by e-mail.'],
    ['Paid', 'paid', 'This request is paid in full. Thank you!'],
    ['Expired', 'expired', 'This request expired. Ask Biz owner@payments.example to send it again.'],
    ['Withdrawn', 'withdrawn', 'Biz owner@payments.example withdrew this request; there is nothing to pay.'],
    ['Rejected', 'declined', 'You declined this request.'],
  ] as const)('a %s request: the page does not offer it and the API refuses it (409, a sentence), nothing changes', async (state, status, message) => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, {
      state,
      allowPartial: state === 'PartiallyPaid',
      amountPaidCents: state === 'PartiallyPaid' ? 5_000 : state === 'Paid' ? 12_500 : 0,
    });
    expect(await pageOf(payToken)).toMatchObject({ status, declinable: false });
    const res = await decline(payToken, 'Not needed any more');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'CONFLICT', message });
    expect((await requestRow(db(), requestId)).state).toBe(state);
    expect(await timeline(db(), requestId)).toEqual([]);
  });

  it('a Sent request past its expiry date cannot be declined either, even before the expiry job runs', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { expiresOn: dayIn(-1) });
    expect(await pageOf(payToken)).toMatchObject({ status: 'expired', declinable: false });
    const res = await decline(payToken, 'Too late');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('This request expired. Ask Biz owner@payments.example to send it again.');
    expect((await requestRow(db(), requestId)).state).toBe('Sent');
  });
  it('the rest of a part-paid request stays payable past its expiry date: a part-paid request does not expire', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, {
      state: 'PartiallyPaid',
      allowPartial: true,
      amountCents: 10_000,
      amountPaidCents: 4_000,
      expiresOn: dayIn(-1),
    });
    expect(await pageOf(payToken)).toMatchObject({ status: 'payable', declinable: false });
    const rest = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 6_000 });
    expect(rest.json().data).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 10_000, remainingCents: 0 });
    expect((await waitForRequest(requestId, 'Paid')).amount_paid_cents).toBe(10_000);
  });

  it('with automatic expiry off nothing closes by its date: Sent and Error requests past it stay payable, and close again when it is back on', async () => {
    const { own, ownPayer } = await ownBusiness('no-expiry');
    await db().updateTable('businesses').set({ auto_expire: false }).where('id', '=', own.businessId).execute();
    const sent = await insertRequest(db(), own.businessId, ownPayer, { expiresOn: dayIn(-1) });
    const failed = await insertRequest(db(), own.businessId, ownPayer, { state: 'Error', expiresOn: dayIn(-1) });
    expect(await pageOf(sent.payToken)).toMatchObject({ status: 'payable', declinable: true });
    expect(await pageOf(failed.payToken)).toMatchObject({ status: 'payable' });
    const paid = await pay(t.app, failed.payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    expect(paid.json().data).toMatchObject({ transactionState: 'Accepted', amountPaidCents: 12_500 });
    await waitForRequest(failed.requestId, 'Paid');

    await db().updateTable('businesses').set({ auto_expire: true }).where('id', '=', own.businessId).execute();
    expect(await pageOf(sent.payToken)).toMatchObject({ status: 'expired' });
    const refused = await pay(t.app, sent.payToken, { method: 'card', processorToken: await card(), amountCents: 12_500 });
    expect(refused.statusCode).toBe(409);
    expect((await requestRow(db(), sent.requestId)).state).toBe('Sent');
  });
});
