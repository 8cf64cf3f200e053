import { inflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { errorOf, get } from '../support/identity';
import { assertLedgerInvariants } from '../support/ledger';
import { CARDS, insertRequest, pay, paymentRow, requestRow, tokenize } from '../support/payments';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
let payerId: string;
const db = () => t.runtime.database.db;
const ZONE = 'America/Los_Angeles';

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@receipts.example');
  other = await approvedBusiness(t.app, db(), 'owner@other-receipts.example');
  payerId = await insertPayer(db(), biz.businessId, { email: 'pat@payers.example' });
  // Receipts are on the business's clock, not the server's (UTC here).
  await db().updateTable('businesses').set({ time_zone: ZONE }).where('id', '=', biz.businessId).execute();
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const card = (number = CARDS.visa) => tokenize(t.app, t.runtime, { card: number });
const receiptUrl = (requestId: string, as = biz) => `/api/businesses/${as.businessId}/payment-requests/${requestId}/receipt`;

/** `MMM dd, yyyy H:mm` in a time zone, worked out here with Intl rather than the app's formatter. */
function expectedDateTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year} ${Number(parts.hour)}:${parts.minute}`;
}

/** The text a PDF draws: its content streams inflated, then every string shown with Tj. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const shown: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      content = match[1]!;
    }
    for (const tj of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) shown.push(Buffer.from(tj[1]!, 'hex').toString('latin1'));
  }
  return shown.join('\n');
}

async function settled(requestId: string, state: string) {
  return eventually(async () => {
    const row = await requestRow(db(), requestId);
    return row.state === state ? row : undefined;
  }, 20_000);
}

describe('the business’s receipt of a request', () => {
  it('lists every processed payment of a request paid in parts, with the payer’s receipt data, and leaves out declined ones', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 10_000, allowPartial: true });
    const declined = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 4_000 });
    expect(declined.json().data.payment.state).toBe('Rejected');
    const first = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 4_000 });
    expect(first.statusCode, first.body).toBe(201);
    await settled(requestId, 'PartiallyPaid');

    const partial = await get(t.app, receiptUrl(requestId), biz.token);
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json().data).toMatchObject({
      transactionState: 'PartiallyPaid',
      amountPaidCents: 4_000,
      remainingCents: 6_000,
      payments: [{ amountCents: 4_000 }],
    });

    const second = await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.mastercard), amountCents: 6_000 });
    expect(second.statusCode, second.body).toBe(201);
    await settled(requestId, 'Paid');

    const res = await get(t.app, receiptUrl(requestId), biz.token);
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json().data;
    expect(receipt).toMatchObject({
      transactionId: requestId,
      referenceNumber: expect.stringMatching(/^TRX-\d+$/),
      businessName: 'Biz owner@receipts.example',
      timeZone: ZONE,
      payerName: 'Pat Payer',
      payerEmail: 'pat@payers.example',
      memo: 'Spring term',
      reference: 'INV-7',
      transactionState: 'Paid',
      requestAmountCents: 10_000,
      amountPaidCents: 10_000,
      remainingCents: 0,
    });
    expect(
      receipt.payments.map((p: { methodLabel: string; amountCents: number; paymentState: string }) => [p.methodLabel, p.amountCents, p.paymentState]),
    ).toEqual([
      ['Visa •••• 4242', 4_000, 'Processed'],
      ['Mastercard •••• 4444', 6_000, 'Processed'],
    ]);
    // Each payment is exactly what the payer's own receipt says about it.
    for (const payment of receipt.payments) {
      const payers = await get(t.app, `/api/public/pay/${payToken}/receipt/${payment.paymentId}`);
      expect(payers.json().data).toEqual(payment);
    }
    expect(JSON.stringify(receipt)).not.toMatch(/fee/i);
  });

  it('downloads as a PDF with the payer, each payment on the business’s clock, and the totals', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 12_550 });
    const paid = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 12_550 });
    const payment = await paymentRow(db(), paid.json().data.payment.paymentId);
    const { number } = await requestRow(db(), requestId);

    const res = await t.app.inject({ method: 'GET', url: `${receiptUrl(requestId)}.pdf`, headers: { authorization: `Bearer ${biz.token}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="receipt-TRX-${number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    expect(text).toContain(`TRX-${number}`);
    expect(text).toContain('Biz owner@receipts.example');
    expect(text).toContain('Pat Payer (pat@payers.example)');
    expect(text).toContain('$125.50');
    expect(text).toContain('Visa \x95\x95\x95\x95 4242');
    expect(text).toContain(expectedDateTime(payment.processed_at!, ZONE));
    expect(text).toContain(`Times are in ${ZONE}.`);
  });

  it('the payer’s receipt e-mail dates the payment MMM dd, yyyy H:mm on the business’s clock', async () => {
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 2_000, payerEmail: 'mail@payers.example' });
    const paid = await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 2_000 });
    const payment = await paymentRow(db(), paid.json().data.payment.paymentId);
    const mail = (await get(t.app, '/api/dev/outbox?to=mail@payers.example')).json() as { subject: string; text: string }[];
    const receiptMail = mail.find((m) => m.subject.startsWith('Receipt:'));
    expect(receiptMail?.text).toContain(`Date: ${expectedDateTime(payment.processed_at!, ZONE)} (${ZONE})\n`);
  });

  it('is refused, with a sentence, while a request has no processed payment', async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 3_000 });
    await pay(t.app, payToken, { method: 'card', processorToken: await card(CARDS.declined), amountCents: 3_000 });
    const { number } = await requestRow(db(), requestId);
    for (const url of [receiptUrl(requestId), `${receiptUrl(requestId)}.pdf`]) {
      const res = await get(t.app, url, biz.token);
      expect(res.statusCode, url).toBe(404);
      expect(errorOf(res).message).toBe(`TRX-${number} has no processed payment yet, so it has no receipt.`);
    }
  });

  it("is for members only: another business's ids are 404, and without a session 401", async () => {
    const { requestId, payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 1_500 });
    await pay(t.app, payToken, { method: 'card', processorToken: await card(), amountCents: 1_500 });
    for (const suffix of ['', '.pdf']) {
      // Another business's owner asking under my business id, and under their own.
      expect((await get(t.app, `${receiptUrl(requestId)}${suffix}`, other.token)).statusCode).toBe(404);
      expect((await get(t.app, `${receiptUrl(requestId, other)}${suffix}`, other.token)).statusCode).toBe(404);
      expect((await get(t.app, `${receiptUrl('req_unknown')}${suffix}`, biz.token)).statusCode).toBe(404);
      expect((await get(t.app, `${receiptUrl(requestId)}${suffix}`)).statusCode).toBe(401);
    }
    expect((await request(t.app, 'GET', receiptUrl(requestId), biz.token)).statusCode).toBe(200);
  });
});
