import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lights-3';

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function api<T>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, origin: baseUrl() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function rowAction(page: Page, text: string, action: string) {
  await row(page, text).getByRole('button', { name: 'Row actions' }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('bulk request to pay', () => {
  it('uploads a file with good and bad rows, maps it, fixes one row and drops another, submits, and the requests reach the history and the payers', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('bulk-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const ana = uniqueEmail('ana');
    const sam = uniqueEmail('sam');
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Ana', lastName: 'Lopez', email: ana });
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Sam', lastName: 'Lee', email: sam });
    const due = inDays(20);
    const csv = [
      'Email,Amount,Memo,Reference,Due date',
      `${ana},125.50,December tuition,DEC-1,${due}`,
      `${sam},"$1,234.50",Team fees,DEC-2,${due}`,
      `${sam},12x,Lessons,DEC-3,${due}`,
      `nobody@example.com,40,Lessons,DEC-4,${due}`,
    ].join('\r\n');

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Bulk Request to Pay' }).click();
    await page.waitForURL('**/business/payment/request/bulkrtp');
    await page.getByRole('heading', { name: 'Bulk Request to Pay', level: 1 }).waitFor();
    await page.getByText('No bulk batches yet').waitFor();
    await expectNoSeriousA11yViolations(page);

    // Upload: the file goes up whole and the server reads its columns.
    await page.getByRole('link', { name: 'New bulk request' }).first().click();
    await page.waitForURL('**/business/payment/request/import');
    await page.locator('input[type="file"]').setInputFiles({ name: 'december.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });

    // Map: the columns are guessed from the headers, and the first rows show as they will be read.
    await page.waitForURL(/\/business\/payment\/request\/bulkimport\?batchId=bat_/);
    await page.getByRole('heading', { name: 'Match the columns' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Amount' }).inputValue()).toBe('Amount');
    await page.getByText('$1,234.50').first().waitFor();
    await page.getByText('12x (not an amount)').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Check the rows' }).click();

    // Review: every bad row says which field is wrong and why.
    await page.waitForURL(/\/business\/payment\/request\/bulkreview\?batchId=bat_/);
    await page.getByRole('heading', { name: 'Review and send' }).waitFor();
    await page.getByText('Showing 1 to 4 of 4 Results').waitFor();
    await page.getByRole('radiogroup', { name: 'Show rows' }).getByText('With errors').click();
    await page.getByText('Showing 1 to 2 of 2 Results').waitFor();
    await row(page, 'DEC-3').getByText('Amount: "12x" is not an amount. Write it like 125.50 or $1,234.50.').waitFor();
    await row(page, 'DEC-4')
      .getByText(/No payer of yours has the e-mail address nobody@example\.com/)
      .waitFor();
    await expectNoSeriousA11yViolations(page);

    // Fix one in place; drop the other.
    await rowAction(page, 'DEC-3', 'Fix');
    const dialog = page.getByRole('dialog', { name: 'Fix line 4' });
    await dialog.getByLabel('Amount').fill('12');
    await dialog.getByRole('button', { name: 'Save and check' }).click();
    await toast(page, 'Line 4 is valid');
    await rowAction(page, 'DEC-4', 'Drop');
    await page.getByRole('dialog').getByRole('button', { name: 'Drop the row' }).click();
    await toast(page, 'Row dropped');
    await page.getByText('No rows with errors').waitFor();
    await page.getByText('$1,372.00').first().waitFor();

    // Submit: confirmed, then sent in the background with a bar, then every row links to its request.
    await page.getByRole('button', { name: 'Submit and send' }).click();
    await page.getByRole('dialog').getByText('3 requests to pay for $1,372.00 go out now, each to its payer.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await toast(page, 'Submitted');
    await page.getByText('All sent').waitFor({ timeout: 30_000 });
    await page.getByRole('radiogroup', { name: 'Show rows' }).getByText('All rows').click();
    const references = page.getByRole('link', { name: /^TRX-\d+$/ });
    await references.first().waitFor();
    expect(await references.count()).toBe(3);

    // The history shows exactly the batch's requests, and each payer's e-mail holds its pay link.
    await page.getByRole('link', { name: 'See them in the transaction history' }).click();
    await page.waitForURL(/\/business\/payment\/transactions\/history\?batchId=bat_/);
    await page.getByText('Showing 1 to 3 of 3 Results').waitFor();
    await page.getByText(/^From bulk batch bat_/).waitFor();
    for (const email of [ana, sam]) {
      const mails = await outbox(email);
      expect(mails.some((m) => /requests \$/.test(m.subject) && /\/pay\/[\w-]+/.test(m.text))).toBe(true);
    }

    // The landing lists the batch as Processed.
    await page.goto('/business/payment/request/bulkrtp');
    await row(page, 'december.csv').getByText('Processed').waitFor();
  });
});

describe('bulk request to pay on a phone (390 × 844)', () => {
  it('uploads, reviews and submits a batch on a phone; the rows are readable cards and the pages pass axe', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('bulk-phone'), PASSWORD, { businessName: 'Harbor Music' });
    const lena = uniqueEmail('lena');
    await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Lena', lastName: 'Park', email: lena });
    const csv = `Email;Amount;Due date\n${lena};45,00;${inDays(9)}\n${lena};30;${inDays(9)}\n`;

    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/request/import');
    await page.getByRole('heading', { name: 'Upload a file' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    // A semicolon file, as spreadsheets in some locales save it.
    await page.locator('input[type="file"]').setInputFiles({ name: 'phone.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.waitForURL(/bulkimport\?batchId=bat_/);
    await page.getByText('45,00 (not an amount)').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await page.waitForURL(/bulkreview\?batchId=bat_/);
    await page.getByText('Showing 1 to 2 of 2 Results').waitFor();
    await page.getByText('Amount: "45,00" is not an amount. Write it like 125.50 or $1,234.50.').waitFor();
    await expectNoSeriousA11yViolations(page);
    // On a phone each row is a card: its outcome, its reason and its actions are all on screen.
    const card = page.getByRole('listitem').filter({ hasText: '45,00' });
    await card.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Drop', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Drop the row' }).click();
    await toast(page, 'Row dropped');
    await page.getByRole('button', { name: 'Submit and send' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await page.getByText('All sent').waitFor({ timeout: 30_000 });
    const made = await api<{ items: { amountCents: number; transactionState: string }[] }>(
      owner,
      'GET',
      `/businesses/${owner.businessId}/payment-requests?batchId=${new URL(page.url()).searchParams.get('batchId')}`,
    );
    expect(made.items.map((r) => [r.amountCents, r.transactionState])).toEqual([[3000, 'Sent']]);
  });
});
