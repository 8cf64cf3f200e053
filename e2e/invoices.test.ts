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
import { payByCard } from './support/pay';

const browser = useBrowser();
const PASSWORD = 'Amber-Field-Lantern-8';

async function api<T>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, origin: baseUrl() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

/** The pay link in the newest e-mail to the payer whose subject names the invoice. */
async function invoiceLink(email: string, number: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const message = (await outbox(email)).find((m) => m.subject.includes(`Invoice ${number}`));
    const link = message?.text.match(/(\/pay\/[\w-]+)/)?.[1];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no invoice e-mailed to ${email}`);
}

async function waitForInvoice(owner: ApprovedAccount, invoiceId: string, state: string) {
  for (let i = 0; i < 120; i++) {
    const detail = await api<{ invoiceState: string; transactionId: string }>(owner, 'GET', `/businesses/${owner.businessId}/invoices/${invoiceId}`);
    if (detail.invoiceState === state) return detail;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${invoiceId} never became ${state}`);
}

async function waitForRequest(owner: ApprovedAccount, transactionId: string, state: string) {
  for (let i = 0; i < 120; i++) {
    const detail = await api<{ transactionState: string }>(owner, 'GET', `/businesses/${owner.businessId}/payment-requests/${transactionId}`);
    if (detail.transactionState === state) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${transactionId} never became ${state}`);
}

/** The text of a downloaded PDF, as `pdftotext` reads it. */
async function downloadedPdfText(page: Page, click: () => Promise<void>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'tay-e2e-')), download.suggestedFilename());
  await download.saveAs(file);
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('invoices', () => {
  it('builds an invoice of three taxed items, previews and sends it; the payer pays part, then the rest; the PDF shows a zero balance', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('inv-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('iris');
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Iris', lastName: 'Ng', email: payerEmail });

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Manage Invoices' }).click();
    await page.waitForURL('**/business/payment/invoices');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'New invoice' }).first().click();
    await page.waitForURL('**/business/payment/invoices/draft');

    // Three lines with tax; the totals follow as they are typed.
    await page.getByPlaceholder('Search payers').fill('Iri');
    await page.getByRole('option', { name: /Iris Ng/ }).click();
    const lines: [string, string, string, string][] = [
      ['Piano lessons', '3', '10.00', '8.875'],
      ['Sheet music', '1.5', '17.00', '8.875'],
      ['Recital fee', '1', '12.34', '0'],
    ];
    for (const [i, [description, quantity, price, tax]] of lines.entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Add line' }).click();
      await page.getByLabel(`Description, line ${i + 1}`).fill(description);
      await page.getByLabel(`Quantity, line ${i + 1}`).fill(quantity);
      await page.getByLabel(`Unit price, line ${i + 1}`).fill(price);
      await page.getByLabel(`Tax rate, line ${i + 1}`).fill(tax);
    }
    await page.getByLabel('Allow partial payment').check();
    // $67.84 of items and $4.92 of tax: $72.76.
    await page.getByText('$72.76').first().waitFor();
    await page.getByText('$4.92').first().waitFor();
    await expectNoSeriousA11yViolations(page);

    // Preview: the draft is saved, numbered, and its PDF holds every line and the total.
    // It opens on the page, in a dialog, with its download beside it.
    await page.getByRole('button', { name: 'Preview PDF' }).click();
    const previewDialog = page.getByRole('dialog');
    await previewDialog.locator('iframe').waitFor();
    const preview = await downloadedPdfText(page, () => previewDialog.getByRole('link', { name: 'Download PDF' }).click());
    await previewDialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await previewDialog.waitFor({ state: 'hidden' });
    const number = /INV-\d{4}/.exec(preview)?.[0];
    expect(number).toBeDefined();
    for (const expected of ['Piano lessons', 'Sheet music', 'Recital fee', '$72.76', 'Iris Ng']) expect(preview).toContain(expected);

    // Send.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Invoice sent').first().waitFor();
    await page.waitForURL(/\/business\/payment\/invoices\/details\?invoiceid=inv_/);
    const invoiceId = new URL(page.url()).searchParams.get('invoiceid')!;
    await page.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The payer opens the e-mailed link in a browser of their own: the invoice's lines, then pays part.
    const link = await invoiceLink(payerEmail, number!);
    const payer = await browser.newPage();
    await payer.goto(link);
    await payer.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
    for (const [description] of lines) await payer.getByText(description).first().waitFor();
    await expectNoSeriousA11yViolations(payer);
    await payer.getByLabel('Amount to pay (USD)').fill('30');
    await payByCard(payer, '4242 4242 4242 4242');
    await payer.getByText('Payment received').waitFor();
    const { transactionId } = await waitForInvoice(owner, invoiceId, 'PartiallyPaid');
    await waitForRequest(owner, transactionId, 'PartiallyPaid');

    // The business sees Partially Paid; the payer comes back and pays the rest.
    await page.reload();
    await page.getByText('Partially Paid').first().waitFor();
    await payer.goto(link);
    await payer.getByRole('heading', { name: '$42.76' }).waitFor();
    await payByCard(payer, '4242 4242 4242 4242');
    await payer.getByText('Nothing remains to pay.').waitFor();
    await waitForInvoice(owner, invoiceId, 'Paid');

    // Paid: in the list, and the PDF the business downloads shows nothing left to pay.
    await page.goto('/business/payment/invoices/list');
    const row = page.getByRole('row').filter({ hasText: number! });
    await row.getByText('Paid', { exact: true }).waitFor();
    await page.getByText(/Showing 1 to 1 of 1 Results/).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.goto(`/business/payment/invoices/details?invoiceid=${invoiceId}`);
    const final = await downloadedPdfText(page, () => page.getByRole('button', { name: 'Download PDF' }).click());
    expect(final).toMatch(/Balance due\s+\$0\.00/);
    expect(final).toMatch(/Amount paid\s+\$72\.76/);
    // The transaction history shows the invoice on its row.
    await page.goto('/business/payment/transactions/history');
    await page.getByRole('row').filter({ hasText: 'Iris Ng' }).getByText(number!).waitFor();
  });

  it('on a phone (390 px): the form stacks its lines, the invoice sends, and the payer reads its lines', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('inv-phone'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('paz');
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Paz', lastName: 'Ortega', email: payerEmail });
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/invoices/draft');
    await page.getByPlaceholder('Search payers').fill('Paz');
    await page.getByRole('option', { name: /Paz Ortega/ }).click();
    await page.getByLabel('Description, line 1').fill('Guitar lessons, December');
    await page.getByLabel('Quantity, line 1').fill('4');
    await page.getByLabel('Unit price, line 1').fill('25');
    await page.getByLabel('Tax rate, line 1').fill('0');
    await page.getByText('$100.00').first().waitFor();
    // Nothing runs off the side of the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Invoice sent').first().waitFor();
    await page.waitForURL(/invoiceid=inv_/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);

    const payer = await browser.newPage();
    await payer.setViewportSize({ width: 390, height: 844 });
    const number = /INV-\d{4}/.exec((await outbox(payerEmail))[0]!.subject)![0];
    await payer.goto(await invoiceLink(payerEmail, number));
    await payer.getByText('Guitar lessons, December').waitFor();
    expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(payer);
  });
});
