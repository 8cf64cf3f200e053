import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { call } from '../support/requests';
import { CARDS, insertRequest, pay, tokenize } from '../support/payments';
import { fund } from '../support/payouts';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

// The built web app's page, as the build writes it: the server fills in its first screen (ADR 047).
const INDEX = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Tay for Business</title></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>`;

let t: TestApp;
let biz: ApprovedBusiness;
let payerId: string;
let dist: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'tay-web-'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  // The payer's pages' own entry: what their first screens go out in.
  writeFileSync(path.join(dist, 'pay.html'), INDEX.replace('/assets/index.js', '/assets/pay.js'));
  t = await createTestApp({ WEB_DIST_DIR: dist, SANDBOX_SETTLEMENT_SECONDS: '1' }, { listen: true });
  biz = await approvedBusiness(t.app, db(), 'owner@first-screen.example');
  payerId = await insertPayer(db(), biz.businessId, { email: 'pat@payers.example' });
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const open = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

/** The screen's HTML (what a browser without JavaScript shows) and the answer embedded for the app. */
function screenOf(body: string): { html: string; data: { kind: string; key: string; value: Record<string, unknown> } | null } {
  const html = body.match(/<div id="first-screen">([\s\S]*?)<\/div><script type="application\/json"|<div id="first-screen">([\s\S]*?)<div id="root"/);
  const json = body.match(/<script type="application\/json" id="tay-first-screen">([\s\S]*?)<\/script>/);
  return { html: html ? (html[1] ?? html[2] ?? '') : '', data: json ? JSON.parse(json[1]!) : null };
}
const visibleText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<noscript>[\s\S]*?<\/noscript>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe("a payer's pay page comes with its first screen", () => {
  it('holds the business, the amount, the memo, the due date and the way to pay, and the same answer as the API', async () => {
    const { payToken } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 12_345, allowPartial: true });
    const res = await open(`/pay/${payToken}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    // A page's security headers, not an API answer's.
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain(`<title>Pay Biz owner@first-screen.example</title>`);
    expect(res.body).toContain('<div id="root" hidden></div>');
    // The payer's entry, not the portal's.
    expect(res.body).toContain('src="/assets/pay.js"');
    expect(res.body).not.toContain('/assets/index.js');
    const { html, data } = screenOf(res.body);
    const text = visibleText(html);
    expect(text).toContain('Biz owner@first-screen.example');
    expect(text).toContain('requests a payment from Pat Payer');
    expect(text).toContain('$123.45');
    expect(text).toContain('Spring term');
    expect(text).toMatch(/Due [A-Z][a-z]{2} \d{2}, \d{4} · You may pay part of it now/);
    expect(text).toContain('Pay $123.45, or part of it');
    expect(text).toContain('If they do not, turn on JavaScript in your browser');

    const api = await t.app.inject({ method: 'GET', url: `/api/public/pay/${payToken}` });
    expect(data).toEqual({ kind: 'pay', key: payToken, value: api.json().data });
  });

  it('says Paid in full, and links no payment, once the request is paid; the receipt page has the receipt', async () => {
    const { payToken, requestId } = await insertRequest(db(), biz.businessId, payerId, { amountCents: 5_000 });
    const card = await tokenize(t.app, t.runtime, { card: CARDS.visa });
    const paid = await pay(t.app, payToken, { method: 'card', processorToken: card, amountCents: 5_000 });
    expect(paid.statusCode, paid.body).toBe(201);
    await eventually(
      async () =>
        (await db().selectFrom('payment_requests').select('state').where('id', '=', requestId).executeTakeFirst())?.state === 'Paid' ? true : undefined,
      20_000,
    );

    const text = visibleText(screenOf((await open(`/pay/${payToken}`)).body).html);
    expect(text).toContain('$50.00 paid');
    expect(text).toContain('Paid in full');
    expect(text).not.toContain('Pay by card');

    const paymentId = paid.json().data.payment.paymentId as string;
    const receipt = await open(`/pay/${payToken}/receipt/${paymentId}`);
    expect(receipt.statusCode).toBe(200);
    const r = screenOf(receipt.body);
    expect(visibleText(r.html)).toMatch(/Receipt .*Amount paid \$50\.00 Paid with Visa •••• 4242 .*Still to pay \$0\.00 Receipt number/);
    expect(r.data).toMatchObject({ kind: 'receipt', key: `${payToken}/${paymentId}`, value: { paymentId, amountCents: 5_000 } });
    // Another payment's id on this link is no receipt.
    const wrong = await open(`/pay/${payToken}/receipt/pay_unknown`);
    expect(wrong.statusCode).toBe(404);
    expect(visibleText(screenOf(wrong.body).html)).toContain('This receipt could not be loaded');

    // The business refunds part, then the rest: the page says what came back, then Refunded.
    await fund(db(), biz.businessId, 10_000);
    const refund = (amountCents: number) =>
      call(
        t.app,
        'POST',
        `/api/businesses/${biz.businessId}/payment-requests/${requestId}/refunds`,
        biz.token,
        { amountCents, reason: 'requested_by_payer' },
        {
          'idempotency-key': `first-screen-refund-${amountCents}`,
        },
      );
    expect((await refund(2_000)).statusCode).toBe(201);
    let page = visibleText(screenOf((await open(`/pay/${payToken}`)).body).html);
    expect(page).toContain(`Biz owner@first-screen.example refunded $20.00 of the $50.00 you paid.`);
    expect(page).toContain('Paid in full');
    const api = (await t.app.inject({ method: 'GET', url: `/api/public/pay/${payToken}` })).json().data;
    expect(api).toMatchObject({ refundedCents: 2_000, payments: [{ paymentId, refundedCents: 2_000 }] });

    expect((await refund(3_000)).statusCode).toBe(201);
    page = visibleText(screenOf((await open(`/pay/${payToken}`)).body).html);
    expect(page).toContain('Refunded in full: Biz owner@first-screen.example returned the $50.00 you paid.');
    expect(page).toContain('Refunded Biz owner@first-screen.example refunded this request in full; there is nothing to pay.');
    expect(page).not.toContain('Paid in full');
  });

  it('an unknown link is 404 with the reason, and embeds nothing', async () => {
    const res = await open('/pay/not-a-real-token-at-all');
    expect(res.statusCode).toBe(404);
    const { html, data } = screenOf(res.body);
    expect(visibleText(html)).toContain('This link does not work');
    expect(data).toBeNull();
  });

  it('writes what a business typed as text, never as markup, in the screen and in the embedded answer', async () => {
    const { payToken, requestId } = await insertRequest(db(), biz.businessId, payerId);
    const memo = `</script><script>alert(1)</script><img src=x onerror=alert(2)> & "quotes"`;
    await db().updateTable('payment_requests').set({ memo }).where('id', '=', requestId).execute();
    const res = await open(`/pay/${payToken}`);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body.match(/<\/script>/g)?.length).toBe(2); // the embedded answer's, and the app's entry
    expect(screenOf(res.body).data?.value.memo).toBe(memo);
  });
});

describe("a QR code's page comes with its first screen", () => {
  it('holds the label, the amount and the way to pay, and counts its scan once with the API read that follows', async () => {
    const created = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/qr-codes`, biz.token, {
      label: 'Bake sale',
      amountMode: 'fixed',
      amountCents: 800,
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = String(created.json().data.payUrl).split('/pay/qr/')[1]!;
    const res = await open(`/pay/qr/${code}`, { 'user-agent': 'Phone Q' });
    expect(res.statusCode).toBe(200);
    const text = visibleText(screenOf(res.body).html);
    expect(text).toContain('asks for a payment by QR code');
    expect(text).toContain('Bake sale');
    expect(text).toContain('Pay $8.00');
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.map((c) => c.match(/Path=([^;]+)/)?.[1])).toEqual([`/api/public/qr/${code}`, `/pay/qr/${code}`]);
    // The app's own read, later, with the visit's cookie: not a second scan.
    await t.app.inject({ method: 'GET', url: `/api/public/qr/${code}`, headers: { 'user-agent': 'Phone Q', cookie: cookies[0]!.split(';')[0]! } });
    const row = await db()
      .selectFrom('qr_codes')
      .select('scans')
      .where('business_id', '=', biz.businessId)
      .where('id', '=', created.json().data.qrId)
      .executeTakeFirstOrThrow();
    expect(Number(row.scans)).toBe(1);

    const missing = await open('/pay/qr/not-a-real-code-at-all-xxxxxxxx');
    expect(missing.statusCode).toBe(404);
    expect(visibleText(screenOf(missing.body).html)).toContain('We can’t find this QR code');
  });
});
