import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QrCode, QrCodeInput } from '@tay/contract';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { assertLedgerInvariants } from '../support/ledger';
import { CARDS, requestRow, tokenize } from '../support/payments';
import { call, dayIn } from '../support/requests';
import { createTestApp, eventually, type TestApp } from '../support/test-app';
import { withSource } from '../support/request-rows';

let t: TestApp;
let biz: ApprovedBusiness;
let other: ApprovedBusiness;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SETTLEMENT_SECONDS: '1', SANDBOX_AUTO_APPROVE: 'false' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@qr.example');
  other = await approvedBusiness(t.app, db(), 'owner@other-qr.example');
});
afterAll(async () => t?.close());
afterEach(async () => {
  await assertLedgerInvariants(db());
});

const base = (b = biz) => `/api/businesses/${b.businessId}/qr-codes`;
const card = (number = CARDS.visa) => tokenize(t.app, t.runtime, { card: number });

async function create(over: Partial<QrCodeInput> = {}, b = biz): Promise<QrCode> {
  const res = await call(t.app, 'POST', base(b), b.token, { label: 'Front counter', amountMode: 'open', ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as QrCode;
}

const tokenOf = (code: QrCode) => code.payUrl.split('/pay/qr/')[1]!;

function page(token: string, cookie?: string, from = '10.0.0.1', userAgent = 'Phone A') {
  return t.app.inject({
    method: 'GET',
    url: `/api/public/qr/${token}`,
    remoteAddress: from,
    headers: { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) },
  });
}

function payQr(token: string, body: Record<string, unknown>, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/public/qr/${token}/payments`,
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    payload: JSON.stringify(body),
  });
}

/** Waits until every payment through the code has settled (or failed): settlement moves balances in the background. */
async function settledThrough(qrId: string) {
  await eventually(async () => {
    const open = await db()
      .selectFrom('payments as p')
      .innerJoin('payment_requests as r', (j) => j.onRef('r.business_id', '=', 'p.business_id').onRef('r.id', '=', 'p.request_id'))
      .select('p.id')
      .where('r.source_kind', '=', 'qr')
      .where('r.source_id', '=', qrId)
      .where('p.state', 'in', ['Pending', 'Processed'])
      .where('p.settled_at', 'is', null)
      .execute();
    return open.length === 0;
  }, 20_000);
}

async function codeRow(qrId: string) {
  return db().selectFrom('qr_codes').selectAll().where('id', '=', qrId).executeTakeFirstOrThrow();
}

function fileText(bytes: Buffer, name: string, command: (file: string) => [string, string[]]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'qr-')), name);
  writeFileSync(file, bytes);
  const [bin, args] = command(file);
  return execFileSync(bin, args, { encoding: 'utf8' }).trim();
}

describe('managing codes', () => {
  it('creates, reads, edits, disables, enables and lists a code, each change on the audit trail', async () => {
    const code = await create({ label: 'Bake sale', amountMode: 'fixed', amountCents: 500, memo: 'Cookies', askEmail: 'required', expiresOn: dayIn(30) });
    expect(code).toMatchObject({
      label: 'Bake sale',
      amountMode: 'fixed',
      amountCents: 500,
      minAmountCents: null,
      askEmail: 'required',
      askPhone: 'off',
      status: 'active',
      displayStatus: 'active',
      scans: 0,
      payments: 0,
      collectedCents: 0,
      actions: ['Edit', 'Disable', 'Delete', 'View/Download', 'Transactions'],
    });
    // The token is not the id and is long enough not to be guessed.
    const token = tokenOf(code);
    expect(token).not.toContain(code.qrId);
    expect(token.length).toBeGreaterThanOrEqual(32);

    const edited = await call(t.app, 'PATCH', `${base()}/${code.qrId}`, biz.token, { label: 'Bake sale stand', amountMode: 'open', minAmountCents: 200 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ label: 'Bake sale stand', amountMode: 'open', amountCents: null, minAmountCents: 200 });
    // What the printed code encodes never changes with an edit.
    expect(edited.json().data.payUrl).toBe(code.payUrl);

    const disabled = await call(t.app, 'POST', `${base()}/${code.qrId}/disable`, biz.token);
    expect(disabled.json().data).toMatchObject({ status: 'Disabled', displayStatus: 'Disabled' });
    expect(disabled.json().data.actions).toContain('Enable');
    expect((await call(t.app, 'POST', `${base()}/${code.qrId}/disable`, biz.token)).statusCode).toBe(409);
    expect((await call(t.app, 'POST', `${base()}/${code.qrId}/enable`, biz.token)).json().data.status).toBe('active');

    const list = await call(t.app, 'GET', `${base()}?search=stand`, biz.token);
    expect(list.json().data.items.map((c: QrCode) => c.qrId)).toEqual([code.qrId]);
    const audit = await db()
      .selectFrom('business_events')
      .select('action')
      .where('business_id', '=', biz.businessId)
      .where('action', 'like', 'qr_code.%')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['qr_code.created', 'qr_code.disabled', 'qr_code.enabled', 'qr_code.updated']);
  });

  it('refuses bad input with the field that is wrong, and saves nothing', async () => {
    const before = await db()
      .selectFrom('qr_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string][] = [
      [{ label: '', amountMode: 'open' }, 'label'],
      [{ label: 'A', amountMode: 'fixed' }, 'amountCents'],
      [{ label: 'A', amountMode: 'fixed', amountCents: 0 }, 'amountCents'],
      [{ label: 'A', amountMode: 'open', amountCents: 500 }, 'amountCents'],
      [{ label: 'A', amountMode: 'open', minAmountCents: 900, maxAmountCents: 100 }, 'maxAmountCents'],
      [{ label: 'A', amountMode: 'open', askName: 'sometimes' }, 'askName'],
      [{ label: 'A', amountMode: 'open', expiresOn: dayIn(-2) }, 'expiresOn'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t.app, 'POST', base(), biz.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errorDetails.fields ?? {}), res.body).toContain(field);
    }
    const after = await db()
      .selectFrom('qr_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("another business's codes are 404 on every endpoint, and so are unknown ids", async () => {
    const code = await create({}, other);
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/enable'],
      ['POST', '/disable'],
      ['GET', '/image?format=png'],
    ] as const) {
      for (const id of [code.qrId, 'qr_unknown']) {
        const res = await call(t.app, method, `${base()}/${id}${path}`, biz.token, method === 'PATCH' ? { label: 'Mine', amountMode: 'open' } : undefined);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
      }
    }
    expect((await call(t.app, 'GET', base(other), biz.token)).statusCode).toBe(404);
    // Their payments are not in my history either.
    const mine = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests?qrId=${code.qrId}`, biz.token);
    expect(mine.json().data.total).toBe(0);
  });

  it('deletes a code no one paid through; one that took a payment stays, and says to disable it instead', async () => {
    const unused = await create({ label: 'Unused' });
    expect((await call(t.app, 'DELETE', `${base()}/${unused.qrId}`, biz.token)).statusCode).toBe(204);
    expect((await call(t.app, 'GET', `${base()}/${unused.qrId}`, biz.token)).statusCode).toBe(404);

    const used = await create({ label: 'Used', askEmail: 'off', askName: 'off' });
    const paid = await payQr(tokenOf(used), { method: 'card', processorToken: await card(), amountCents: 700 });
    expect(paid.statusCode, paid.body).toBe(201);
    const refused = await call(t.app, 'DELETE', `${base()}/${used.qrId}`, biz.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorDetails.message).toMatch(/Disable it instead/);
    expect((await call(t.app, 'GET', `${base()}/${used.qrId}`, biz.token)).json().data.actions).not.toContain('Delete');
    await settledThrough(used.qrId);
  });

  it('exports the codes as CSV, formulas neutralised', async () => {
    await create({ label: '=HYPERLINK("http://evil")', amountMode: 'fixed', amountCents: 1234 });
    const res = await call(t.app, 'GET', `${base()}/export?search=hyperlink`, biz.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Label,Amount,Minimum,Maximum,Memo,Status,Expires,Scans,Payments,Collected,Last payment,Link');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")",$12.34`);
  });
});

describe('the image', () => {
  it('is a PNG of the asked size that decodes to the payer page, an SVG, and a one-page PDF poster', async () => {
    const code = await create({ label: 'Poster counter', amountMode: 'fixed', amountCents: 2500, memo: 'Ice cream' });
    const png = await call(t.app, 'GET', `${base()}/${code.qrId}/image?format=png&size=512`, biz.token);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBe('attachment; filename="poster-counter-qr.png"');
    expect(png.rawPayload.readUInt32BE(16)).toBe(512); // the IHDR width
    expect(fileText(png.rawPayload, 'code.png', (f) => ['zbarimg', ['--raw', '-q', f]])).toBe(code.payUrl);
    expect(code.payUrl).toMatch(/^https?:\/\/[^/]+\/pay\/qr\/[A-Za-z0-9_-]{32}$/);

    const svg = await call(t.app, 'GET', `${base()}/${code.qrId}/image?format=svg&disposition=inline`, biz.token);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['content-disposition']).toMatch(/^inline;/);
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const pdf = await call(t.app, 'GET', `${base()}/${code.qrId}/image?format=pdf`, biz.token);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = fileText(pdf.rawPayload, 'poster.pdf', (f) => ['pdftotext', ['-layout', f, '-']]);
    expect(text).toContain(`Biz ${biz.email}`);
    expect(text).toContain('Poster counter');
    expect(text).toContain('$25.00');
    expect(text).toContain(code.payUrl);
    expect(fileText(pdf.rawPayload, 'poster.pdf', (f) => ['pdfinfo', [f]])).toMatch(/Pages:\s+1\b/);

    for (const size of ['255', '2049', 'big']) {
      const res = await call(t.app, 'GET', `${base()}/${code.qrId}/image?format=png&size=${size}`, biz.token);
      expect(res.statusCode, size).toBe(400);
    }
    expect((await call(t.app, 'GET', `${base()}/${code.qrId}/image?format=png&size=2048`, biz.token)).rawPayload.readUInt32BE(16)).toBe(2048);
  });
});

describe("the payer's page", () => {
  it('counts a device once a day: not per reload, nor when its browser keeps no cookie', async () => {
    const code = await create({ label: 'Scans' });
    const first = await page(tokenOf(code));
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ label: 'Scans', status: 'payable', amountMode: 'open', businessName: `Biz ${biz.email}` });
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/);
    await page(tokenOf(code), cookie);
    await page(tokenOf(code), cookie);
    expect(Number((await codeRow(code.qrId)).scans)).toBe(1);
    // The same phone again without its cookie (a private window, cleared cookies): the same day, not counted.
    await page(tokenOf(code));
    expect(Number((await codeRow(code.qrId)).scans)).toBe(1);
    // A second phone is a second scan.
    await page(tokenOf(code), undefined, '10.0.0.2', 'Phone B');
    expect(Number((await codeRow(code.qrId)).scans)).toBe(2);
    expect((await page('not-a-real-code-at-all-xxxxxxxx')).statusCode).toBe(404);
    expect((await page(code.qrId)).statusCode).toBe(404);
  });

  it('takes a payment through an open-amount code: a request of its own, Paid, on the ledger, in the history filtered by the code, with a receipt', async () => {
    const payerId = await insertPayer(db(), biz.businessId, { email: 'known@payers.example', displayName: 'Known Payer' });
    const code = await create({ label: 'Tip jar', memo: 'Thanks!', askName: 'required', askEmail: 'optional', askPhone: 'optional', askNote: 'optional' });
    const res = await payQr(
      tokenOf(code),
      {
        method: 'card',
        processorToken: await card(),
        amountCents: 1240,
        payerName: 'Kim Known',
        payerEmail: 'Known@Payers.example',
        payerPhone: '+1 555 010 0123',
        note: 'Table 4',
      },
      'qr-key-1',
    );
    expect(res.statusCode, res.body).toBe(201);
    const outcome = res.json().data;
    expect(outcome).toMatchObject({ amountCents: 1240, payment: { state: 'Processed', amountCents: 1240 } });
    expect(outcome.referenceNumber).toMatch(/^TRX-\d+$/);

    const row = withSource(await db().selectFrom('payment_requests').selectAll().where('source_id', '=', code.qrId).executeTakeFirstOrThrow());
    expect(row).toMatchObject({
      payer_id: payerId,
      payer_display_name: 'Kim Known',
      payer_email: 'known@payers.example',
      payer_phone: '+1 555 010 0123',
      payer_note: 'Table 4',
      qr_code_label: 'Tip jar',
      amount_cents: 1240,
    });
    await eventually(async () => (await requestRow(db(), row.id)).state === 'Paid');

    // The request's own page opens with the token the answer gave.
    const own = await t.app.inject({ method: 'GET', url: `/api/public/pay/${outcome.payToken}` });
    expect(own.json().data).toMatchObject({ status: 'paid', referenceNumber: outcome.referenceNumber });
    const receipt = await t.app.inject({ method: 'GET', url: `/api/public/pay/${outcome.payToken}/receipt/${outcome.payment.paymentId}` });
    expect(receipt.statusCode).toBe(200);

    const listed = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests?qrId=${code.qrId}`, biz.token);
    expect(listed.json().data.items).toHaveLength(1);
    expect(listed.json().data.items[0]).toMatchObject({ qrCodeId: code.qrId, qrCodeLabel: 'Tip jar', payerId, transactionState: 'Paid' });
    const any = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests?qrId=any`, biz.token);
    expect(any.json().data.items.every((i: { qrCodeId: string | null }) => i.qrCodeId !== null)).toBe(true);
    const detail = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests/${row.id}`, biz.token);
    expect(detail.json().data).toMatchObject({ payerPhone: '+1 555 010 0123', payerNote: 'Table 4', actions: ['View/Download'] });
    // It was sent to no one: it cannot be resent, withdrawn or edited.
    expect((await call(t.app, 'POST', `/api/businesses/${biz.businessId}/payment-requests/${row.id}/resend`, biz.token)).statusCode).toBe(409);

    const counted = await call(t.app, 'GET', `${base()}/${code.qrId}`, biz.token);
    expect(counted.json().data).toMatchObject({ payments: 1, collectedCents: 1240 });
    const receipts = await db().selectFrom('mail_outbox').select(['to_address', 'subject']).where('request_id', '=', row.id).execute();
    expect(receipts.map((m) => m.to_address)).toContain('known@payers.example');

    // The same key with another body is a misuse of the key: refused, and no second request.
    const again = await payQr(tokenOf(code), { method: 'card', processorToken: await card(), amountCents: 1300, payerName: 'Kim Known' }, 'qr-key-1');
    expect(again.statusCode, again.body).toBe(422);
    const count = await db()
      .selectFrom('payment_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('source_id', '=', code.qrId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    await settledThrough(code.qrId);
  });

  it('a retry with the same key and body gets the same payment back, and money moves once', async () => {
    const code = await create({ label: 'Retry', askName: 'off', askEmail: 'off' });
    const body = { method: 'card', processorToken: await card(), amountCents: 900 };
    const first = await payQr(tokenOf(code), body, 'same-key');
    const second = await payQr(tokenOf(code), body, 'same-key');
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().data.payment.paymentId).toBe(first.json().data.payment.paymentId);
    const rows = await db().selectFrom('payment_requests').select('id').where('source_id', '=', code.qrId).execute();
    expect(rows).toHaveLength(1);
    const payments = await db().selectFrom('payments').select('id').where('request_id', '=', rows[0]!.id).execute();
    expect(payments).toHaveLength(1);
    await settledThrough(code.qrId);
  });

  it('an anonymous payer with no e-mail pays; no receipt is e-mailed and there is no payer record', async () => {
    const code = await create({ label: 'Anonymous', amountMode: 'fixed', amountCents: 300, askName: 'off', askEmail: 'off' });
    // Fields the code does not ask for are not kept.
    const res = await payQr(tokenOf(code), {
      method: 'card',
      processorToken: await card(),
      amountCents: 300,
      payerName: 'Ignored',
      payerEmail: 'ignored@example.com',
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await db().selectFrom('payment_requests').selectAll().where('source_id', '=', code.qrId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payer_id: null, payer_display_name: 'Walk-in payer', payer_email: '' });
    await eventually(async () => (await requestRow(db(), row.id)).state === 'Paid');
    const mails = await db().selectFrom('mail_outbox').select('to_address').where('request_id', '=', row.id).execute();
    expect(mails.filter((m) => m.to_address === 'ignored@example.com')).toHaveLength(0);
    const listed = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/payment-requests?qrId=${code.qrId}`, biz.token);
    expect(listed.json().data.items[0]).toMatchObject({ payerId: null, payerName: 'Walk-in payer' });
    await settledThrough(code.qrId);
  });

  it('refuses amounts outside the bounds, a wrong fixed amount, an open amount of 0 and missing required fields, making nothing', async () => {
    const open = await create({ label: 'Bounds', minAmountCents: 500, maxAmountCents: 5000, askName: 'required', askEmail: 'required' });
    const fixed = await create({ label: 'Fixed', amountMode: 'fixed', amountCents: 1500, askName: 'off', askEmail: 'off' });
    const who = { payerName: 'Pat', payerEmail: 'pat@example.com' };
    const cases: [QrCode, Record<string, unknown>, string][] = [
      [open, { amountCents: 499, ...who }, 'amountCents'],
      [open, { amountCents: 5001, ...who }, 'amountCents'],
      [open, { amountCents: 0, ...who }, 'amountCents'],
      [open, { amountCents: 1000, payerEmail: 'pat@example.com' }, 'payerName'],
      [open, { amountCents: 1000, payerName: 'Pat' }, 'payerEmail'],
      [open, { amountCents: 1000, payerName: 'Pat', payerEmail: 'not-an-email' }, 'payerEmail'],
      [fixed, { amountCents: 1000 }, 'amountCents'],
    ];
    for (const [code, body, field] of cases) {
      const res = await payQr(tokenOf(code), { method: 'card', processorToken: await card(), ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errorDetails.fields ?? {}), res.body).toContain(field);
    }
    const made = await db().selectFrom('payment_requests').select('id').where('source_id', 'in', [open.qrId, fixed.qrId]).execute();
    expect(made).toHaveLength(0);
  });

  it('refuses an eleventh attempt from one device within ten minutes (card testing), with when to try again', async () => {
    const code = await create({ label: 'Limited', minAmountCents: 1000, askName: 'off', askEmail: 'off' });
    for (let i = 0; i < 10; i++) {
      expect((await payQr(tokenOf(code), { method: 'card', processorToken: await card(), amountCents: 500 })).statusCode).toBe(400);
    }
    const refused = await payQr(tokenOf(code), { method: 'card', processorToken: await card(), amountCents: 1500 });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().errorDetails.message).toMatch(/Too many payment attempts/);
    expect(await db().selectFrom('payment_requests').select('id').where('source_id', '=', code.qrId).execute()).toHaveLength(0);
  });

  it("the pay link of a request made through a code shares the code's count, so it is no way around the limit", async () => {
    const code = await create({ label: 'Tip jar', askName: 'off', askEmail: 'off' });
    const first = await payQr(tokenOf(code), { method: 'card', processorToken: await card(CARDS.declined), amountCents: 100 });
    expect(first.statusCode, first.body).toBe(201);
    const link = `/api/public/pay/${first.json().data.payToken}/payments`;
    const viaLink = () =>
      card(CARDS.declined).then((processorToken) =>
        t.app.inject({
          method: 'POST',
          url: link,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ method: 'card', processorToken, amountCents: 100 }),
        }),
      );
    for (let i = 0; i < 9; i++) expect((await viaLink()).statusCode).toBe(201);
    const refused = await viaLink();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errorDetails.message).toMatch(/Too many payment attempts/);
    expect((await payQr(tokenOf(code), { method: 'card', processorToken: await card(), amountCents: 100 })).statusCode).toBe(429);
  });

  it('a Disabled or expired code says so and takes no money; a business no longer Approved takes none either', async () => {
    const code = await create({ label: 'Closed' });
    await call(t.app, 'POST', `${base()}/${code.qrId}/disable`, biz.token);
    const shown = await page(tokenOf(code));
    expect(shown.json().data).toMatchObject({ status: 'disabled' });
    expect(shown.json().data.statusMessage).toMatch(/turned this QR code off/);
    const refused = await payQr(tokenOf(code), { method: 'card', processorToken: await card(), amountCents: 100 });
    expect(refused.statusCode).toBe(409);

    const expired = await create({ label: 'Expired' });
    await sql`UPDATE qr_codes SET expires_on = ${dayIn(-1)} WHERE id = ${expired.qrId}`.execute(db());
    expect((await page(tokenOf(expired))).json().data.status).toBe('expired');
    expect((await call(t.app, 'GET', `${base()}/${expired.qrId}`, biz.token)).json().data.displayStatus).toBe('Expired');
    expect((await payQr(tokenOf(expired), { method: 'card', processorToken: await card(), amountCents: 100 })).statusCode).toBe(409);
    // A business operations disabled takes no payments through its codes.
    const theirs = await create({ label: 'Theirs' }, other);
    await sql`UPDATE businesses SET state = 'Disabled' WHERE id = ${other.businessId}`.execute(db());
    expect((await page(tokenOf(theirs))).json().data).toMatchObject({ status: 'unavailable' });
    expect((await payQr(tokenOf(theirs), { method: 'card', processorToken: await card(), amountCents: 100 })).statusCode).toBe(409);
    await sql`UPDATE businesses SET state = 'Approved' WHERE id = ${other.businessId}`.execute(db());
    const made = await db().selectFrom('payment_requests').select('id').where('source_id', 'in', [code.qrId, expired.qrId, theirs.qrId]).execute();
    expect(made).toHaveLength(0);
  });

  it('a declined card leaves the request in Error, payable again from its own page, and counts no payment', async () => {
    const code = await create({ label: 'Declines', askName: 'off', askEmail: 'off' });
    const res = await payQr(tokenOf(code), { method: 'card', processorToken: await card(CARDS.declined), amountCents: 800 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ transactionState: 'Error', payment: { state: 'Rejected' } });
    expect((await codeRow(code.qrId)).payments_count).toBe(0);
    const own = await t.app.inject({ method: 'GET', url: `/api/public/pay/${res.json().data.payToken}` });
    expect(own.json().data.status).toBe('payable');
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/public/pay/${res.json().data.payToken}/payments`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ method: 'card', processorToken: await card(), amountCents: 800 }),
    });
    expect(retry.statusCode, retry.body).toBe(201);
    await eventually(async () => Number((await codeRow(code.qrId)).collected_cents) === 800);
    expect(Number((await codeRow(code.qrId)).payments_count)).toBe(1);
    await settledThrough(code.qrId);
  });
});
