import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Invoice, InvoiceDetail, InvoiceInput } from '@tay/contract';
import type { DB } from '../../src/db/schema';
import type { ApprovedBusiness } from '../support/approved-business';
import { call, dayIn, mailCountTo, snapshot } from '../support/requests';

/** Three lines with tax, as the issue's journey has them: $30.00 + $25.50 + $12.34 at 8.875 %. */
export function invoiceBody(payerId: string, over: Partial<InvoiceInput> = {}): InvoiceInput {
  return {
    payerId,
    issueDate: dayIn(0),
    terms: 'net30',
    items: [
      { description: 'Consulting, hours', quantity: 3, unitPriceCents: 1000, taxRate: 8.875 },
      { description: 'Materials', quantity: 1.5, unitPriceCents: 1700, taxRate: 8.875 },
      { description: 'Delivery', quantity: 1, unitPriceCents: 1234, taxRate: 0 },
    ],
    memo: 'Thank you for your business.',
    footer: 'Payable within 30 days.',
    allowPartial: true,
    ...over,
  };
}

/** The invoice API as one business's owner uses it. */
export function invoicesApi(app: FastifyInstance, biz: Pick<ApprovedBusiness, 'businessId' | 'token'>) {
  const base = `/api/businesses/${biz.businessId}/invoices`;
  return {
    base,
    post: (payload: unknown) => call(app, 'POST', base, biz.token, payload),
    patch: (id: string, payload: unknown) => call(app, 'PATCH', `${base}/${id}`, biz.token, payload),
    get: (path: string) => call(app, 'GET', `${base}${path}`, biz.token),
    remove: (id: string) => call(app, 'DELETE', `${base}/${id}`, biz.token),
    send: (id: string, body: Record<string, unknown> = {}, key?: string) =>
      call(app, 'POST', `${base}/${id}/send`, biz.token, body, key ? { 'idempotency-key': key } : {}),
    command: (id: string, name: 'resend' | 'withdraw' | 'cancel', key?: string) =>
      call(app, 'POST', `${base}/${id}/${name}`, biz.token, undefined, key ? { 'idempotency-key': key } : {}),
    async create(payerId: string, over: Partial<InvoiceInput> = {}): Promise<Invoice> {
      const res = await call(app, 'POST', base, biz.token, invoiceBody(payerId, over));
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as Invoice;
    },
    async sent(payerId: string, over: Partial<InvoiceInput> = {}): Promise<Invoice> {
      const draft = await this.create(payerId, over);
      const res = await call(app, 'POST', `${base}/${draft.invoiceId}/send`, biz.token, {});
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Invoice;
    },
    async detail(id: string): Promise<InvoiceDetail> {
      const res = await call(app, 'GET', `${base}/${id}`, biz.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as InvoiceDetail;
    },
  };
}

type Attachment = { filename: string; contentType: string; content: string };

/** The e-mails about a request, once the delivery job has made their files (an invoice's PDF is drawn there). */
async function emailsAbout(db: Kysely<DB>, requestId: string, order: 'asc' | 'desc') {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages = await db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('channel', '=', 'email')
      .orderBy('created_at', order)
      .orderBy('id', order)
      .execute();
    const made = messages.every((m) => !(m.attachments ?? []).some((a) => 'render' in a));
    if (made || Date.now() > deadline) return messages.map((m) => ({ ...m, attachments: (m.attachments ?? []) as Attachment[] }));
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The newest e-mail about the invoice's request, with its pay token and attachments, as stored in the outbox. */
export async function invoiceEmail(db: Kysely<DB>, requestId: string) {
  const message = (await emailsAbout(db, requestId, 'desc'))[0];
  if (!message) throw new Error(`No e-mail about ${requestId}`);
  const token = /\/pay\/([\w-]+)/.exec(message.text_body)?.[1];
  return { message, token: token!, attachments: message.attachments };
}

/** Every e-mail about the invoice's request, oldest first, with its attachments. */
export async function invoiceEmails(db: Kysely<DB>, requestId: string) {
  const messages = await emailsAbout(db, requestId, 'asc');
  return messages.map((m) => ({ subject: m.subject, to: m.to_address, text: m.text_body, attachments: m.attachments }));
}

/** The text of a PDF (poppler's pdftotext), to check what it prints. */
export function pdfText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'invoice-')), 'invoice.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The stored invoice row. */
export async function invoiceRow(db: Kysely<DB>, invoiceId: string) {
  return db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirstOrThrow();
}

/**
 * Everything about an invoice that a refused call must leave as it was: its row, its own timeline,
 * the requests made for it, and the request that collects it (row, timeline, the payer's mail).
 */
export async function invoiceSnapshot(db: Kysely<DB>, invoiceId: string) {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst();
  const events = await db
    .selectFrom('invoice_events')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  const requests = await db
    .selectFrom('payment_requests')
    .select('id')
    .where('source_kind', '=', 'invoice')
    .where('source_id', '=', invoiceId)
    .orderBy('id')
    .execute();
  return {
    row,
    events: Number(events.n),
    requests: requests.map((r) => r.id),
    request: row?.request_id ? await snapshot(db, row.request_id) : null,
    mail: row ? await mailCountTo(db, row.payer_email) : 0,
  };
}

/** The payer's page behind a link token (no sign-in). */
export function payPage(app: FastifyInstance, token: string) {
  return app.inject({ method: 'GET', url: `/api/public/pay/${token}` });
}

/** The payer declines on their page, with a reason. */
export function declineOnPayPage(app: FastifyInstance, token: string, reason = 'I did not order this.') {
  return app.inject({
    method: 'POST',
    url: `/api/public/pay/${token}/decline`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ reason }),
  });
}
