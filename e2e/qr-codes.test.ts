import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Copper-Kite-Harbor-6';
const PHONE = { width: 390, height: 844 };

async function api<T>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, origin: baseUrl() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

interface Code {
  qrId: string;
  payUrl: string;
}

/** A code through the API, for the journeys that start with one. */
async function createCode(owner: ApprovedAccount, body: Record<string, unknown>): Promise<Code> {
  return api<Code>(owner, 'POST', `/businesses/${owner.businessId}/qr-codes`, body);
}

/** A file the page downloads when `click` is done, saved under the name it came with. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'tay-e2e-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** What a QR code image says, as a phone's camera would read it (zbar). */
function decodeQr(file: string): string {
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim();
}

async function payByCard(page: Page, number: string, amountLabel: string) {
  const card = page.frameLocator('iframe[title^="Card details"]');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: `Pay ${amountLabel}` }).click();
}

interface Row {
  transactionId: string;
  referenceNumber: string;
  transactionState: string;
  amountCents: number;
  payerName: string;
}

/** The requests paid through one code, once there is one in `state`. */
async function waitForCodePayment(owner: ApprovedAccount, qrId: string, state: string): Promise<Row> {
  for (let i = 0; i < 120; i++) {
    const { items } = await api<{ items: Row[] }>(owner, 'GET', `/businesses/${owner.businessId}/payment-requests?qrId=${qrId}`);
    const row = items.find((r) => r.transactionState === state);
    if (row) return row;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no payment through ${qrId} became ${state}`);
}

/** Nothing runs off the side of the screen. */
async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('QR codes', () => {
  it('the business makes an open-amount code; its PNG reads as the page’s address; a payer scans it and pays $12.40; the business sees it Paid', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('qr-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    // The business makes a code whose payer enters the amount…
    await page.goto('/business/payment/qrcode/manage');
    await page.getByRole('textbox', { name: 'Label' }).fill('Front counter');
    await page.getByRole('radio', { name: /payer enters/i }).check();
    await page.getByRole('textbox', { name: 'Memo' }).fill('Lessons and sheet music');
    await expectNoSeriousA11yViolations(page, 'the QR code form');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/business\/payment\/qrcode\/download\?qrcodeid=/);
    const qrId = new URL(page.url()).searchParams.get('qrcodeid')!;
    await page.getByRole('heading', { level: 1, name: 'Front counter' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'the QR code download page');

    // …and downloads its PNG, which reads as PUBLIC_URL/pay/qr/<token>: the page's address.
    const png = await downloaded(page, () => page.getByRole('button', { name: /^Download PNG/ }).click());
    const url = decodeQr(png);
    expect(url).toMatch(new RegExp(`^${baseUrl().replace(/[.]/g, '\\.')}/pay/qr/[A-Za-z0-9_-]{22,64}$`));
    expect(url).toBe(await page.getByRole('textbox', { name: 'Pay link' }).inputValue());

    // A payer scans it: a browser of their own, nothing of the business in it.
    const payerEmail = uniqueEmail('quinn');
    const payer = await browser.newPage();
    await payer.goto(url);
    await payer.getByRole('heading', { level: 1, name: 'Front counter' }).waitFor();
    await payer.getByText('Harbor Music', { exact: true }).waitFor();
    await payer.getByText('Lessons and sheet music').waitFor();
    await expectNoSeriousA11yViolations(payer);
    await payer.getByLabel('Amount to pay (USD)').fill('12.40');
    await payer.getByLabel('Your name').fill('Quinn Walker');
    await payer.getByLabel('E-mail address').fill(payerEmail);
    await payByCard(payer, '4242 4242 4242 4242', '$12.40');
    const panel = payer.getByRole('region', { name: 'Payment received' });
    await panel.waitFor();
    await panel.getByText('$12.40 paid to Harbor Music with Visa •••• 4242.').waitFor();
    await panel.getByText(`A receipt was e-mailed to ${payerEmail}.`).waitFor();
    const reference = (await panel.getByText(/^TRX-\d+$/).textContent())!;
    await expectNoSeriousA11yViolations(payer);
    // The receipt the panel speaks of is in the payer's mail.
    await expect
      .poll(async () => (await outbox(payerEmail)).map((m) => m.subject), { timeout: 15_000 })
      .toContain(`Receipt: $12.40 paid to Harbor Music (${reference})`);
    await panel.getByRole('link', { name: 'View your receipt' }).click();
    await payer.getByRole('heading', { name: 'Receipt' }).waitFor();
    await payer.getByText(reference, { exact: false }).first().waitFor();

    // The business: the payment is a request of its own, tagged with the code, and Paid once it settles.
    const paid = await waitForCodePayment(owner, qrId, 'Paid');
    expect(paid).toMatchObject({ referenceNumber: reference, amountCents: 1_240, payerName: 'Quinn Walker' });
    for (const where of [`/business/payment/qrcode/transactions?qrcodeid=${qrId}`, '/business/payment/transactions/history']) {
      await page.goto(where);
      const row = page.getByRole('row').filter({ hasText: 'Quinn Walker' });
      await row.locator('[data-state="Paid"]').waitFor();
      await row.getByText('$12.40').first().waitFor();
    }
    // The codes' list counts the scan and the payment, and totals what came in.
    await page.goto('/business/payment/qrcode');
    const listed = page.getByRole('row').filter({ hasText: 'Front counter' });
    await listed.getByText('$12.40').first().waitFor();
    await expectNoSeriousA11yViolations(page, 'the QR codes list');
    const code = await api<{ scans: number; payments: number; collectedCents: number }>(owner, 'GET', `/businesses/${owner.businessId}/qr-codes/${qrId}`);
    expect(code).toMatchObject({ scans: 1, payments: 1, collectedCents: 1_240 });
  });

  it('on a phone (390 px): the payer’s page fits, reads, and pays a fixed amount', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('qr-phone'), PASSWORD, { businessName: 'Harbor Music' });
    const code = await createCode(owner, {
      label: 'Parking, one day',
      amountMode: 'fixed',
      amountCents: 800,
      memo: 'Lot B, by the river',
      askName: 'required',
      askEmail: 'off',
      askPhone: 'optional',
    });
    const payer = await browser.newPage();
    await payer.setViewportSize(PHONE);
    await payer.goto(code.payUrl);
    await payer.getByRole('heading', { level: 1, name: 'Parking, one day' }).waitFor();
    await payer.getByText('$8.00', { exact: true }).waitFor();
    expect(await payer.getByLabel('E-mail address').count()).toBe(0);
    await payer.frameLocator('iframe[title^="Card details"]').getByLabel('Card number').waitFor();
    await fitsThePhone(payer);
    await expectNoSeriousA11yViolations(payer, 'the QR code page on a phone');

    // The name is required: asked again, nothing sent.
    await payer.getByRole('button', { name: 'Pay $8.00' }).click();
    await payer.getByText('Enter your name.').waitFor();
    await payer.getByLabel('Your name').fill('Rosa Diaz');
    await payByCard(payer, '4242 4242 4242 4242', '$8.00');
    await payer.getByRole('region', { name: 'Payment received' }).waitFor();
    await fitsThePhone(payer);
    await expectNoSeriousA11yViolations(payer, 'the QR code page paid, on a phone');
  });

  it('a declined card says why and sends the payer to the request’s own page to try again; a turned-off code takes nothing; an unknown one is not found', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('qr-decline'), PASSWORD, { businessName: 'Harbor Music' });
    const code = await createCode(owner, { label: 'Donations', amountMode: 'open', minAmountCents: 500, maxAmountCents: 50_000 });
    const payer = await browser.newPage();
    await payer.goto(code.payUrl);
    await payer.getByText('Enter $5.00 to $500.00').waitFor();
    await payer.getByLabel('Amount to pay (USD)').fill('501');
    await payer.getByRole('button', { name: 'Pay $501.00' }).click();
    await payer.getByText('Enter at most $500.00.').waitFor();
    await payer.getByLabel('Amount to pay (USD)').fill('20');
    await payByCard(payer, '4000 0000 0000 0002', '$20.00');
    const panel = payer.getByRole('region', { name: 'Your payment was declined' });
    await panel.getByText('Your card was declined.').waitFor();
    await expectNoSeriousA11yViolations(payer);
    await panel.getByRole('link', { name: 'Try again' }).click();
    await payer.waitForURL(/\/pay\/[\w-]+$/);
    await payer.getByRole('heading', { level: 1, name: '$20.00' }).waitFor();
    await payByCard(payer, '4242 4242 4242 4242', '$20.00');
    await payer.getByText('Payment received').waitFor();
    await waitForCodePayment(owner, code.qrId, 'Paid');

    // Turned off: the page says so, and has no form.
    await api(owner, 'POST', `/businesses/${owner.businessId}/qr-codes/${code.qrId}/disable`);
    await payer.goto(code.payUrl);
    await payer.getByText('This code is turned off').waitFor();
    expect(await payer.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    await expectNoSeriousA11yViolations(payer);

    // A code that is not one of ours.
    await payer.goto('/pay/qr/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await payer.getByRole('heading', { level: 1, name: 'We can’t find this QR code' }).waitFor();
    await expectNoSeriousA11yViolations(payer);
  });
});
