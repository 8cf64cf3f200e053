import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import type { ProcessorEvent } from '../../src/processor/port';
import { signatureHeader } from '../../src/processor/signature';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { get, registeredUser } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { BANK, CARDS, insertRequest, pay, paymentRow, tokenize } from '../support/payments';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

interface Message {
  channel: 'email' | 'sms';
  subject: string;
  text: string;
}

/** A person of the business with the role and notification settings given. */
async function teammate(email: string, role: 'owner' | 'admin' | 'member', viaEmail: boolean, viaMobileNumber: boolean, mobileNumber: string) {
  const token = await registeredUser(t.app, email);
  expect((await request(t.app, 'PATCH', '/api/user', token, { firstName: 'Team', lastName: 'Mate', mobileNumber })).statusCode).toBe(200);
  const prefs = await request(t.app, 'PATCH', '/api/enrollReminder', token, {
    enrollNotificationViaEmail: viaEmail,
    enrollNotificationViaMobileNumber: viaMobileNumber,
  });
  expect(prefs.statusCode, prefs.body).toBe(200);
  const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  await db().insertInto('business_members').values({ business_id: biz.businessId, user_id: user.id, role }).execute();
}

beforeAll(async () => {
  // This file sends the processor's events itself, so it can deliver one twice.
  t = await createTestApp({ PROCESSOR_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable', SANDBOX_SETTLEMENT_SECONDS: '3600', SANDBOX_AUTO_APPROVE: 'false' });
  biz = await approvedBusiness(t.app, db(), 'owner@notify.example');
  await teammate('texts@notify.example', 'admin', true, true, '+14155550101');
  await teammate('quiet@notify.example', 'admin', false, false, '+14155550102');
  await teammate('reader@notify.example', 'member', true, true, '+14155550103');
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

async function messages(to: string): Promise<Message[]> {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as Message[];
}
const received = async (to: string) =>
  (await messages(to)).filter((m) => m.subject.startsWith('Payment received') || (m.channel === 'sms' && m.text.startsWith('Tay: ')));

async function payerState(payerId: string) {
  return db().selectFrom('payers').select(['verification', 'verified_at']).where('id', '=', payerId).executeTakeFirstOrThrow();
}

async function history(payerId: string): Promise<{ action: string; actor: string; text: string }[]> {
  const res = await request(t.app, 'GET', `/api/businesses/${biz.businessId}/payers/${payerId}/history`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items;
}

function deliver(event: ProcessorEvent) {
  const body = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/processor',
    headers: {
      'content-type': 'application/json',
      'tay-signature': signatureHeader(t.runtime.config.processor.webhookSecret, body, Math.floor(Date.now() / 1000)),
    },
    payload: body,
  });
}

function eventFor(
  payment: { id: string; business_id: string; request_id: string; processor_charge_id: string | null; amount_cents: number },
  type: ProcessorEvent['type'],
): ProcessorEvent {
  return {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      chargeId: payment.processor_charge_id!,
      amountCents: payment.amount_cents,
      metadata: { businessId: payment.business_id, paymentId: payment.id, requestId: payment.request_id },
    },
  };
}

describe('"payment received", to the business', () => {
  it('reaches each owner and admin as their settings ask, once a card payment is captured', async () => {
    const payerId = await insertPayer(db(), biz.businessId, { email: 'card.payer@example.com' });
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 12_500, payerEmail: 'card.payer@example.com' });
    expect(await received('owner@notify.example')).toEqual([]);

    const res = await pay(t.app, payToken, { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 12_500 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.payment.state).toBe('Processed');

    const [mail, ...more] = await received('owner@notify.example');
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^Payment received: \$125\.00 from Pat Payer \(TRX-\d+\)$/);
    expect(mail!.text).toMatch(/^Pat Payer paid \$125\.00 to Biz owner@notify\.example for TRX-\d+ \(Spring term\)\./);
    expect(mail!.text).toContain('Paid with: Visa •••• 4242');
    expect(mail!.text).toContain('Fee: $3.93');
    expect(mail!.text).toContain('The request is now paid in full.');
    // The owner's mobile number is on file, but text messages are off by default.
    expect(await messages('+14155552671')).toEqual([]);

    const texts = await received('+14155550101');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toMatch(/^Tay: Pat Payer paid \$125\.00 to Biz owner@notify\.example for TRX-\d+\. The request is now paid in full\.$/);
    expect((await received('texts@notify.example')).map((m) => m.channel)).toEqual(['email']);
    expect(await received('quiet@notify.example')).toEqual([]);
    expect(await received('+14155550102')).toEqual([]);
    expect(await received('reader@notify.example')).toEqual([]);
    expect(await received('+14155550103')).toEqual([]);
  });

  it('goes once for a bank debit, however often the processor delivers its events', async () => {
    const payerId = await insertPayer(db(), biz.businessId, { email: 'bank.payer@example.com' });
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 20_000, allowPartial: true, payerEmail: 'bank.payer@example.com' });
    const res = await pay(t.app, payToken, {
      method: 'bank_account',
      processorToken: await tokenize(t.app, t.runtime, { bankAccount: BANK.settles }),
      amountCents: 5_000,
    });
    expect(res.statusCode, res.body).toBe(201);
    const payment = await paymentRow(db(), res.json().data.payment.paymentId);
    expect(payment.state).toBe('Pending');
    const before = (await received('owner@notify.example')).length;
    // Not received yet: the debit may still fail.
    expect((await received('owner@notify.example')).length).toBe(before);

    const succeeded = eventFor(payment, 'charge.succeeded');
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect((await deliver({ ...eventFor(payment, 'charge.succeeded') })).statusCode).toBe(200);
    expect((await deliver(eventFor(payment, 'charge.settled'))).statusCode).toBe(200);

    const owner = await received('owner@notify.example');
    expect(owner.length).toBe(before + 1);
    expect(owner[0]!.subject).toMatch(/^Payment received: \$50\.00 from Pat Payer/);
    expect(owner[0]!.text).toContain('$150.00 of $200.00 remains to be paid.');
    expect((await received('+14155550101')).filter((m) => m.text.includes('$50.00'))).toHaveLength(1);
  });
});

describe('a payer who pays through the e-mailed link', () => {
  it('counts as verified once the payment goes through, with an entry in the payer’s history', async () => {
    const payerId = await insertPayer(db(), biz.businessId, { email: 'verify.me@example.com' });
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { payerEmail: 'verify.me@example.com' });
    const before = (await received('owner@notify.example')).length;
    const declined = await pay(t.app, payToken, {
      method: 'card',
      processorToken: await tokenize(t.app, t.runtime, { card: CARDS.declined }),
      amountCents: 12_500,
    });
    expect(declined.json().data.payment.state).toBe('Rejected');
    expect((await payerState(payerId)).verification).toBe('unverified');
    expect((await received('owner@notify.example')).length).toBe(before);

    const res = await pay(t.app, payToken, { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 12_500 });
    expect(res.json().data.payment.state).toBe('Processed');
    const state = await payerState(payerId);
    expect(state.verification).toBe('verified');
    expect(state.verified_at).not.toBeNull();
    const [latest] = await history(payerId);
    expect(latest).toMatchObject({ action: 'verified', actor: 'payer' });
    expect(latest!.text).toMatch(/^Confirmed their e-mail address by paying TRX-\d+ through the link e-mailed to it$/);
    const read = await request(t.app, 'GET', `/api/businesses/${biz.businessId}/payers/${payerId}`, biz.token);
    expect(read.json().data.verification).toBe('verified');
    expect((await received('owner@notify.example')).length).toBe(before + 1);
  });

  it('does not count when the link went by text message, or to an address the payer no longer has', async () => {
    const texted = await insertPayer(db(), biz.businessId, { email: 'texted@example.com' });
    const byText = await insertRequest(db(), biz.businessId, texted, { payerEmail: 'texted@example.com' });
    await db().updateTable('payment_requests').set({ channel: 'sms' }).where('id', '=', byText.requestId).execute();
    const moved = await insertPayer(db(), biz.businessId, { email: 'new.address@example.com' });
    const toOld = await insertRequest(db(), biz.businessId, moved, { payerEmail: 'old.address@example.com' });
    const paid = async (payToken: string) => {
      const res = await pay(t.app, payToken, { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 12_500 });
      expect(res.json().data.payment.state, res.body).toBe('Processed');
    };

    await paid(byText.payToken);
    await paid(toOld.payToken);
    expect((await payerState(texted)).verification).toBe('unverified');
    expect((await payerState(moved)).verification).toBe('unverified');

    // The same payers, paying a request e-mailed to their address, are verified.
    await paid((await insertRequest(db(), biz.businessId, texted, { payerEmail: 'texted@example.com' })).payToken);
    await paid((await insertRequest(db(), biz.businessId, moved, { payerEmail: 'new.address@example.com' })).payToken);
    expect((await payerState(texted)).verification).toBe('verified');
    expect((await payerState(moved)).verification).toBe('verified');
  });
});
