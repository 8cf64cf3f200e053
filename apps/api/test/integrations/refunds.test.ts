import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Refund, SyncLogEntry } from '@tay/contract';
import { sweepIntegrations } from '../../src/domain/integrations/sync';
import { newId } from '../../src/lib/ids';
import { invoiceEmail, invoicesApi } from '../invoices/invoice-api';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { connectThroughConsent, settled, standIn, syncNow } from '../support/integrations';
import { CARDS, insertRequest, pay, tokenize } from '../support/payments';
import { call } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

/**
 * Refunds pushed to the accounting integrations (ADR 041, ADR 051): a succeeded refund of a payment
 * on an invoice goes once, after its payment, as a QuickBooks refund receipt or a FreshBooks credit
 * note for the payer's customer; a pending one waits until it succeeds; a failed one, and the refund
 * of a plain request to pay, never go. The sync log lists each.
 */
let t: TestApp;
let biz: ApprovedBusiness;
const db = () => t.runtime.database.db;

type StoredRecord = { id: string; body: Record<string, unknown> };

async function log(provider: 'quickbooks' | 'freshbooks', query = ''): Promise<SyncLogEntry[]> {
  const res = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/integrations/${provider}/log?pageSize=100${query}`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as SyncLogEntry[];
}

const records = async (provider: 'quickbooks' | 'freshbooks', accountId: string, type: 'customer' | 'payment' | 'refund') =>
  (await standIn(t, provider).records(accountId, type)) as unknown as StoredRecord[];

/** A payer with a sent invoice paid $10.00 by card: a customer, an invoice and a payment to push. */
async function paidInvoice(email: string, displayName: string) {
  const payerId = await insertPayer(db(), biz.businessId, { email, displayName });
  const invoice = await invoicesApi(t.app, biz).sent(payerId);
  const { token } = await invoiceEmail(db(), invoice.transactionId!);
  const paid = await pay(
    t.app,
    token,
    { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1000 },
    `pay-${invoice.invoiceId}`,
  );
  expect(paid.statusCode, paid.body).toBeLessThan(300);
  const payment = await eventually(async () => {
    const p = await db().selectFrom('payments').select(['id', 'processed_at']).where('request_id', '=', invoice.transactionId!).executeTakeFirst();
    return p?.processed_at ? p : undefined;
  });
  return { payerId, invoice, requestId: invoice.transactionId!, paymentId: payment.id };
}

/** A refund through the API: a card's succeeds at once. */
async function refund(requestId: string, amountCents: number): Promise<Refund> {
  const res = await call(
    t.app,
    'POST',
    `/api/businesses/${biz.businessId}/payment-requests/${requestId}/refunds`,
    biz.token,
    { amountCents, reason: 'requested_by_payer' },
    { 'idempotency-key': newId('key') },
  );
  expect(res.statusCode, res.body).toBe(201);
  const made = res.json().data as Refund;
  expect(made.state).toBe('Succeeded');
  return made;
}

/** A refund the processor has not answered yet, or one it refused, as the refunds table holds them. */
async function refundRow(paid: { requestId: string; paymentId: string }, amountCents: number, state: 'Pending' | 'Failed'): Promise<string> {
  const id = newId('rfd');
  await db()
    .insertInto('refunds')
    .values({
      business_id: biz.businessId,
      id,
      request_id: paid.requestId,
      payment_id: paid.paymentId,
      amount_cents: amountCents,
      reason: 'other',
      note: null,
      state,
      failure_reason: state === 'Failed' ? 'The payer’s account is closed.' : null,
      processor_refund_id: null,
      send_started_at: null,
      created_by: null,
      created_by_email: null,
      processed_at: state === 'Failed' ? new Date() : null,
    })
    .execute();
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@refund-books.example');
});
afterAll(async () => t?.close());

describe('refunds pushed to QuickBooks Online', () => {
  let accountId: string;
  let first: Awaited<ReturnType<typeof paidInvoice>>;
  let firstRefund: Refund;
  let pendingId: string;
  let failedId: string;

  it('a succeeded refund goes once, after its payment, as a refund receipt for the payer’s customer from the account the payment went into', async () => {
    first = await paidInvoice('ruth@customers.example', 'Ruth Refund');
    firstRefund = await refund(first.requestId, 400);
    pendingId = await refundRow(first, 100, 'Pending');
    failedId = await refundRow(first, 200, 'Failed');

    await connectThroughConsent(t, biz, 'quickbooks', 'Refund Books');
    const done = await settled(t, biz, 'quickbooks');
    // The customer, the invoice, the payment and the one refund that succeeded.
    expect(done).toMatchObject({ state: 'connected', lastSyncPushed: 4, lastSyncFailed: 0, recordsSynced: 4, errors: 0 });
    accountId = done.accountId!;

    const [customer] = await records('quickbooks', accountId, 'customer');
    const [payment] = await records('quickbooks', accountId, 'payment');
    const receipts = await records('quickbooks', accountId, 'refund');
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt!.body).toMatchObject({
      CustomerRef: { value: customer!.id },
      TotalAmt: 4,
      Balance: 0,
      PaymentRefNum: expect.stringMatching(/^TRX-\d+$/),
      PrivateNote: `Refund of $4.00 on Invoice ${first.invoice.number}`,
      TxnDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      // QuickBooks put the payment into Undeposited Funds: the refund comes out of the same account.
      DepositToAccountRef: { value: (payment!.body.DepositToAccountRef as { value: string }).value },
    });
    expect(receipt!.body.Line).toEqual([expect.objectContaining({ DetailType: 'SalesItemLineDetail', Amount: 4 })]);

    const entries = await log('quickbooks', '&recordType=refund');
    expect(entries).toEqual([
      expect.objectContaining({
        recordType: 'refund',
        recordId: firstRefund.refundId,
        recordLabel: `Refund of $4.00 on Invoice ${first.invoice.number}`,
        remoteId: receipt!.id,
        outcome: 'created',
        message: 'A refund receipt in QuickBooks Online.',
      }),
    ]);
    // Pushed after the payment it gives back: the log is newest first.
    const order = (await log('quickbooks', '&outcome=created')).map((e) => e.recordType).reverse();
    expect(order).toEqual(['customer', 'invoice', 'payment', 'refund']);
  });

  it('a second sync pushes it no more; a pending refund goes once it succeeds; a failed one never', async () => {
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 0, lastSyncFailed: 0, recordsSynced: 4 });
    expect(await records('quickbooks', accountId, 'refund')).toHaveLength(1);

    // The processor says the pending one succeeded.
    await db().updateTable('refunds').set({ state: 'Succeeded', processed_at: new Date() }).where('id', '=', pendingId).execute();
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 1, lastSyncFailed: 0, recordsSynced: 5 });
    const receipts = await records('quickbooks', accountId, 'refund');
    expect(receipts.map((r) => r.body.TotalAmt)).toEqual([4, 1]);

    const entries = await log('quickbooks', '&recordType=refund');
    expect(entries.map((e) => [e.recordId, e.outcome])).toEqual([
      [pendingId, 'created'],
      [firstRefund.refundId, 'created'],
    ]);
    expect(entries.some((e) => e.recordId === failedId)).toBe(false);
    const links = await db()
      .selectFrom('integration_links')
      .select('local_id')
      .where('business_id', '=', biz.businessId)
      .where('record_type', '=', 'refund')
      .execute();
    expect(links.map((l) => l.local_id).sort()).toEqual([firstRefund.refundId, pendingId].sort());

    // Retry from the sync log: already there, nothing is pushed twice.
    const retried = await call(
      t.app,
      'POST',
      `/api/businesses/${biz.businessId}/integrations/quickbooks/records/refund/${firstRefund.refundId}/retry`,
      biz.token,
    );
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({
      recordType: 'refund',
      outcome: 'info',
      message: 'Retried: already up to date in QuickBooks Online, nothing to push.',
    });
    expect(await records('quickbooks', accountId, 'refund')).toHaveLength(2);
  });

  it('a refund waits for its payment: held back while QuickBooks refuses the payment, it goes by itself once the payment is there', async () => {
    const second = await paidInvoice('sam@customers.example', 'Sam Second');
    const secondRefund = await refund(second.requestId, 250);
    await standIn(t, 'quickbooks').switches({
      accountId,
      failRecord: { match: `Payment of $10.00 on Invoice ${second.invoice.number}`, message: 'a made-up rule refused this payment' },
    });
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncPushed: 2, lastSyncFailed: 2 });
    const [held] = await log('quickbooks', '&recordType=refund&outcome=failed');
    expect(held).toMatchObject({ recordId: secondRefund.refundId, recordLabel: `Refund of $2.50 on Invoice ${second.invoice.number}` });
    expect(held!.message).toBe(`The payment it gives back (Payment of $10.00 on Invoice ${second.invoice.number}) is not in QuickBooks Online yet.`);
    expect(await records('quickbooks', accountId, 'refund')).toHaveLength(2);

    // Fixed at the provider, the payment is retried from the log; the five-minute sweep then sends the refund that waited for it.
    await standIn(t, 'quickbooks').switches({ accountId, failRecord: null });
    const retried = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/integrations/quickbooks/records/payment/${second.paymentId}/retry`, biz.token);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ recordType: 'payment', outcome: 'created' });
    await sweepIntegrations({ db: db(), jobs: t.runtime.jobs });
    const receipts = await eventually(async () => {
      const all = await records('quickbooks', accountId, 'refund');
      return all.length === 3 ? all : undefined;
    });
    const [customer] = (await records('quickbooks', accountId, 'customer')).filter((c) => JSON.stringify(c.body).includes('sam@customers.example'));
    expect(receipts[2]!.body).toMatchObject({ CustomerRef: { value: customer!.id }, TotalAmt: 2.5 });
    const done = await settled(t, biz, 'quickbooks');
    expect(done).toMatchObject({ lastSyncFailed: 0, errors: 0 });
    expect((await log('quickbooks', '&recordType=refund'))[0]).toMatchObject({ recordId: secondRefund.refundId, outcome: 'created' });
  });

  it('the refund of a plain request to pay is not pushed: only invoices and their payments reach the books', async () => {
    const payerId = await insertPayer(db(), biz.businessId, { email: 'plain@customers.example', displayName: 'Pat Plain' });
    const request = await insertRequest(db(), biz.businessId, payerId, { amountCents: 1500 });
    const paid = await pay(
      t.app,
      request.payToken,
      { method: 'card', processorToken: await tokenize(t.app, t.runtime, { card: CARDS.visa }), amountCents: 1500 },
      newId('key'),
    );
    expect(paid.statusCode, paid.body).toBe(201);
    await eventually(async () => {
      const p = await db().selectFrom('payments').select('processed_at').where('request_id', '=', request.requestId).executeTakeFirst();
      return p?.processed_at ?? undefined;
    });
    const plain = await refund(request.requestId, 500);
    expect(await syncNow(t, biz, 'quickbooks')).toMatchObject({ lastSyncFailed: 0 });
    expect(await records('quickbooks', accountId, 'refund')).toHaveLength(3);
    expect((await log('quickbooks', '&recordType=refund')).some((e) => e.recordId === plain.refundId)).toBe(false);
  });
});

describe('refunds pushed to FreshBooks', () => {
  it('each succeeded refund becomes a credit note to the payer’s client, once', async () => {
    await connectThroughConsent(t, biz, 'freshbooks', 'Refund Books on FreshBooks');
    const done = await settled(t, biz, 'freshbooks');
    expect(done).toMatchObject({ state: 'connected', lastSyncFailed: 0, errors: 0 });
    const accountId = done.accountId!;

    // The three that succeeded on invoices: $4.00 and $1.00 to Ruth, $2.50 to Sam; neither the failed one nor the plain request's.
    const notes = await records('freshbooks', accountId, 'refund');
    const clients = await records('freshbooks', accountId, 'customer');
    const clientOf = (email: string) => Number(clients.find((c) => c.body.email === email)!.id);
    expect(
      notes.map((n) => [
        n.body.clientid,
        (n.body.amount as { amount: string }).amount,
        (n.body.lines as { unit_cost: { amount: string } }[])[0]!.unit_cost.amount,
      ]),
    ).toEqual([
      [clientOf('ruth@customers.example'), '4.00', '4.00'],
      [clientOf('ruth@customers.example'), '1.00', '1.00'],
      [clientOf('sam@customers.example'), '2.50', '2.50'],
    ]);
    expect(notes[0]!.body).toMatchObject({ currency_code: 'USD', create_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), creditid: Number(notes[0]!.id) });

    const entries = await log('freshbooks', '&recordType=refund');
    expect(entries).toHaveLength(3);
    expect(entries.every((e) => e.outcome === 'created' && e.message === 'A credit note in FreshBooks.' && e.remoteId)).toBe(true);

    expect(await syncNow(t, biz, 'freshbooks')).toMatchObject({ lastSyncPushed: 0, lastSyncFailed: 0 });
    expect(await records('freshbooks', accountId, 'refund')).toHaveLength(3);
  });
});
