import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoiceStateFor, RequestState } from '@tay/contract';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { assertLedgerInvariants } from '../support/ledger';
import { CARDS, pay, requestRow, tokenize } from '../support/payments';
import { requestsApi } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { invoiceBody, invoiceEmail, invoicesApi } from './invoice-api';

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
let api: ReturnType<typeof invoicesApi>;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@invoices.example');
  payerId = await insertPayer(db(), biz.businessId, { email: 'pat@payers.example', displayName: 'Pat Payer' });
  api = invoicesApi(t.app, biz);
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const card = () => tokenize(t.app, t.runtime, { card: CARDS.visa });

function pdfText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'invoice-')), 'invoice.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('the invoice follows its request', () => {
  it('in the state the contract says (invoiceStateFor), for every request state and amount paid', async () => {
    const invoice = (await api.send((await api.create(payerId)).invoiceId)).json().data as { invoiceId: string; transactionId: string; totalCents: number };
    const states = RequestState.options;
    // A Pending request waits to be sent (its table's check); any other has been.
    const times = (state: string) => (state === 'Pending' ? sql`send_at = now() + interval '1 day', sent_at = NULL` : sql`send_at = NULL, sent_at = now()`);
    for (const from of states) {
      for (const to of states) {
        for (const paid of [0, 1000, invoice.totalCents]) {
          // Start from `from` with nothing paid, then move to `to` with `paid`: the trigger runs on each.
          await sql`UPDATE payment_requests SET state = ${from}, amount_paid_cents = 0, ${times(from)} WHERE id = ${invoice.transactionId}`.execute(db());
          const before = (await db().selectFrom('invoices').select('state').where('id', '=', invoice.invoiceId).executeTakeFirstOrThrow()).state;
          await sql`UPDATE payment_requests SET state = ${to}, amount_paid_cents = ${paid}, ${times(to)} WHERE id = ${invoice.transactionId}`.execute(db());
          const after = await db().selectFrom('invoices').select(['state', 'amount_paid_cents']).where('id', '=', invoice.invoiceId).executeTakeFirstOrThrow();
          expect(after.state, `${from} → ${to} with ${paid} paid, from invoice ${before}`).toBe(invoiceStateFor(to, paid, invoice.totalCents, before));
          expect(after.amount_paid_cents).toBe(paid);
        }
      }
    }
    await sql`UPDATE payment_requests SET state = 'Sent', amount_paid_cents = 0, send_at = NULL, sent_at = now() WHERE id = ${invoice.transactionId}`.execute(
      db(),
    );
  });
});

describe('an invoice from draft to paid', () => {
  it('is saved as a numbered draft with its figures worked out line by line', async () => {
    const invoice = await api.create(payerId);
    expect(invoice).toMatchObject({
      invoiceState: 'Draft',
      payerName: 'Pat Payer',
      payerEmail: 'pat@payers.example',
      terms: 'net30',
      subtotalCents: 6784,
      discountCents: 0,
      taxCents: 492,
      totalCents: 7276,
      amountPaidCents: 0,
      balanceCents: 7276,
      transactionId: null,
      overdue: false,
      actions: ['Edit', 'Copy', 'Delete', 'View/Download'],
    });
    expect(invoice.number).toMatch(/^INV-\d{4}$/);
    expect(invoice.items.map((l) => [l.amountCents, l.taxCents])).toEqual([
      [3000, 266],
      [2550, 226],
      [1234, 0],
    ]);
    const due = new Date(`${invoice.issueDate}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + 30);
    expect(invoice.dueDate).toBe(due.toISOString().slice(0, 10));
  });

  it('is sent: a request for its total, an e-mail with the pay link and the PDF; paid in part, then in full; the ledger balances', async () => {
    const draft = await api.create(payerId);
    const sent = await api.send(draft.invoiceId, {}, `send-${draft.invoiceId}`);
    expect(sent.statusCode, sent.body).toBe(200);
    const invoice = sent.json().data;
    expect(invoice).toMatchObject({ invoiceState: 'Sent', actions: ['Resend', 'Withdraw', 'Copy', 'View/Download'] });
    expect(invoice.transactionId).toMatch(/^req_/);
    expect(invoice.sentAt).not.toBeNull();

    // The request that collects it: the total, the invoice's number, in the history.
    const request = await requestRow(db(), invoice.transactionId);
    expect(request).toMatchObject({ amount_cents: 7276, state: 'Sent', invoice_id: draft.invoiceId, reference: draft.number, allow_partial: true });
    const history = await requestsApi(t.app, biz).detail(invoice.transactionId);
    expect(history).toMatchObject({ invoiceId: draft.invoiceId, invoiceNumber: draft.number });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/businesses/${biz.businessId}/payment-requests?payerId=${payerId}&pageSize=100`,
      headers: { authorization: `Bearer ${biz.token}` },
    });
    expect(list.json().data.items.find((i: { transactionId: string }) => i.transactionId === invoice.transactionId)).toMatchObject({
      invoiceNumber: draft.number,
    });

    // The e-mail: its subject names the invoice, the PDF is attached and holds the items and total.
    const { message, token, attachments } = await invoiceEmail(db(), invoice.transactionId);
    expect(message.subject).toContain(`Invoice ${draft.number}`);
    expect(message.to_address).toBe('pat@payers.example');
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ filename: `${draft.number}.pdf`, contentType: 'application/pdf' });
    const text = pdfText(Buffer.from(attachments[0]!.content, 'base64'));
    for (const expected of [draft.number, 'Consulting, hours', 'Materials', 'Delivery', '$72.76']) expect(text).toContain(expected);

    // The payer's page shows the invoice's lines.
    const page = await t.app.inject({ method: 'GET', url: `/api/public/pay/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.invoice).toMatchObject({ number: draft.number, totalCents: 7276, taxCents: 492 });
    expect(page.json().data.invoice.items).toHaveLength(3);
    // …and gives the payer the invoice's PDF, by the same link.
    const payerPdf = await t.app.inject({ method: 'GET', url: `/api/public/pay/${token}/invoice.pdf` });
    expect(payerPdf.statusCode).toBe(200);
    expect(payerPdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(payerPdf.rawPayload)).toContain(draft.number);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/pay/${'x'.repeat(43)}/invoice.pdf` })).statusCode).toBe(404);

    // Part of it by card: Partially Paid.
    const first = await pay(t.app, token, { method: 'card', processorToken: await card(), amountCents: 2000 }, `pay-1-${draft.invoiceId}`);
    expect(first.statusCode, first.body).toBe(201);
    // The invoice reads Partially Paid once the money is captured; a second payment waits until
    // the first has settled (the request is PartiallyPaid again).
    await eventually(async () => (await requestRow(db(), invoice.transactionId)).state === 'PartiallyPaid', 20_000);
    const part = await api.detail(draft.invoiceId);
    expect(part.invoiceState).toBe('PartiallyPaid');
    expect(part).toMatchObject({ amountPaidCents: 2000, balanceCents: 5276 });

    // The rest: Paid, with a zero balance; the PDF says so.
    const second = await pay(t.app, token, { method: 'card', processorToken: await card(), amountCents: 5276 }, `pay-2-${draft.invoiceId}`);
    expect(second.statusCode, second.body).toBe(201);
    const paid = await eventually(async () => {
      const d = await api.detail(draft.invoiceId);
      return d.invoiceState === 'Paid' ? d : undefined;
    }, 20_000);
    expect(paid).toMatchObject({ amountPaidCents: 7276, balanceCents: 0, actions: ['Copy', 'View/Download'] });
    expect(paid.paidAt).not.toBeNull();
    expect(paid.payments.filter((p) => p.state === 'Processed').map((p) => p.amountCents)).toEqual([2000, 5276]);
    const events = paid.timeline.map((e) => e.event);
    for (const e of ['create', 'send', 'viewed', 'paymentProcessed']) expect(events).toContain(e);
    expect(paid.emails.length).toBeGreaterThan(0);

    const pdf = await api.get(`/${draft.invoiceId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const pdfBody = pdfText(pdf.rawPayload);
    expect(pdfBody).toContain('$72.76');
    expect(pdfBody).toMatch(/Balance due\s+\$0\.00/);
  });

  it('is listed, summed up on the landing and exported', async () => {
    const summary = await api.get('/summary');
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().data.draftCount).toBeGreaterThan(0);
    const list = await api.get('?status=Draft&sortBy=number&sortDirection=asc&pageSize=100');
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().data.items as { number: string; invoiceState: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.invoiceState === 'Draft')).toBe(true);
    expect(items.map((i) => i.number)).toEqual([...items.map((i) => i.number)].sort());
    const csv = await api.get('/export?status=Draft');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toContain('Number');
    expect(csv.body).toContain(items[0]!.number);
  });

  it("refuses what is not an invoice: no items, 4 decimals, a negative price, a due date before the issue date, another business's payer", async () => {
    const cases: [unknown, string][] = [
      [{ ...invoiceBody(payerId), items: [] }, 'items'],
      [{ ...invoiceBody(payerId), items: [{ description: 'X', quantity: 1.2345, unitPriceCents: 100 }] }, 'items.0.quantity'],
      [{ ...invoiceBody(payerId), items: [{ description: 'X', quantity: 1, unitPriceCents: -1 }] }, 'items.0.unitPriceCents'],
      [{ ...invoiceBody(payerId), items: [{ description: '', quantity: 1, unitPriceCents: 100 }] }, 'items.0.description'],
      [{ ...invoiceBody(payerId), terms: 'custom', dueDate: '2020-01-01' }, 'dueDate'],
      [{ ...invoiceBody('pyr_other') }, 'payerId'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDetails.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().errorDetails.fields ?? {}), res.body).toContain(field);
    }
  });
});
