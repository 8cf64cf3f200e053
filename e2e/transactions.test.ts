import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { ownerApi } from './support/owner-api';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lantern-8';

const api = ownerApi;

async function addPayer(owner: ApprovedAccount, firstName: string, lastName: string): Promise<{ payerId: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const created = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName, lastName, email });
  return { payerId: created.payerId, email };
}

/** The payment links e-mailed to a payer, newest first (not the e-mail verification link). */
async function payLinks(email: string): Promise<string[]> {
  return (await outbox(email)).flatMap((m) => m.text.match(/\/pay\/(?!verify\/)[\w-]+/)?.[0] ?? []);
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

interface Row {
  transactionId: string;
  referenceNumber: string;
  transactionState: string;
  amountCents: number;
  payerId: string;
  sendAt: string | null;
}

async function requests(owner: ApprovedAccount, view: 'draft' | 'history'): Promise<Row[]> {
  return (await api<{ items: Row[] }>(owner, 'GET', `/businesses/${owner.businessId}/payment-requests?view=${view}&pageSize=100`)).items;
}

async function signedIn(owner: ApprovedAccount): Promise<Page> {
  const page = await browser.newPage();
  await signInThroughForm(page, owner.email, PASSWORD);
  await page.waitForURL(/\/business\/setup$/);
  return page;
}

async function rowAction(page: Page, rowText: string, action: string) {
  const row = page.getByRole('row').filter({ hasText: rowText });
  await row.getByRole('button', { name: 'Row actions' }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** The wall-clock text the Send later input takes for an instant: on the clock of the business's time zone. */
async function businessClock(owner: ApprovedAccount, iso: string): Promise<string> {
  const { config } = await api<{ config: { timeZone: string } }>(owner, 'GET', `/businesses/${owner.businessId}`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: config.timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

describe('transactions: the request form and the row actions', () => {
  it('saves a draft and schedules from the form; Edit, Copy, Cancel and Delete from the rows', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('rows-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const nora = await addPayer(owner, 'Nora', 'Quinn');
    const page = await signedIn(owner);

    // Save as draft from the form.
    await page.goto('/business/payment/request');
    await page.getByPlaceholder('Search payers').fill('Nor');
    await page.getByRole('option', { name: /Nora Quinn/ }).click();
    await page.getByLabel('Amount (USD)').fill('80');
    await page.getByLabel('Memo').fill('Cello, June');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByText('Request saved as a draft').waitFor();
    await page.waitForURL('**/business/payment/transactions/draft');
    const [draft] = await requests(owner, 'draft');
    expect(draft).toMatchObject({ transactionState: 'Draft', amountCents: 8_000, payerId: nora.payerId });
    await page.getByRole('row').filter({ hasText: draft!.referenceNumber }).getByText('$80.00').waitFor();

    // Edit the draft and schedule it: the same request, now Pending at the chosen time.
    await rowAction(page, draft!.referenceNumber, 'Edit');
    await page.waitForURL(`**/business/payment/request?transid=${draft!.transactionId}`);
    await page.getByRole('heading', { name: `Edit ${draft!.referenceNumber}` }).waitFor();
    await page.getByLabel('Amount (USD)').fill('85');
    const sendAt = new Date(Date.now() + 3 * 86_400_000);
    sendAt.setUTCSeconds(0, 0);
    await page.getByLabel('Send later (optional)').fill(await businessClock(owner, sendAt.toISOString()));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText('Request scheduled').waitFor();
    await page.waitForURL(/\/business\/payment\/transactions\/history\?transid=req_/);
    let [scheduled] = await requests(owner, 'history');
    expect(scheduled).toMatchObject({ transactionId: draft!.transactionId, transactionState: 'Pending', amountCents: 8_500, sendAt: sendAt.toISOString() });
    expect(await requests(owner, 'draft')).toEqual([]);

    // Opening the scheduled request for editing shows the same time, and saving keeps it.
    await page.goto(`/business/payment/request?transid=${draft!.transactionId}`);
    await page.getByRole('heading', { name: `Edit ${draft!.referenceNumber}` }).waitFor();
    expect(await page.getByLabel('Send later (optional)').inputValue()).toBe(await businessClock(owner, sendAt.toISOString()));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText('Request scheduled').waitFor();
    [scheduled] = await requests(owner, 'history');
    expect(scheduled!.sendAt).toBe(sendAt.toISOString());

    // Copy the scheduled request: a new request with the same payer and amount; the original stays.
    await page.goto('/business/payment/transactions/history');
    await rowAction(page, draft!.referenceNumber, 'Copy');
    await page.waitForURL(`**/business/payment/request?transid=${draft!.transactionId}&copy=1`);
    await page.getByText(`A copy of ${draft!.referenceNumber}. Check the dates before you send it.`).waitFor();
    expect(await page.getByPlaceholder('Search payers').inputValue()).toBe('Nora Quinn');
    expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('85.00');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.waitForURL('**/business/payment/transactions/draft');
    const drafts = await requests(owner, 'draft');
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ amountCents: 8_500, payerId: nora.payerId });
    expect(drafts[0]!.transactionId).not.toBe(draft!.transactionId);
    expect((await requests(owner, 'history')).map((r) => [r.transactionId, r.transactionState])).toEqual([[draft!.transactionId, 'Pending']]);

    // Delete the copy, after the confirmation.
    await rowAction(page, drafts[0]!.referenceNumber, 'Delete');
    const confirmDelete = page.getByRole('dialog', { name: `Delete ${drafts[0]!.referenceNumber}?` });
    await confirmDelete.getByText('The draft is removed for good.').waitFor();
    await confirmDelete.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Request deleted').waitFor();
    await page.getByText('No drafts').waitFor();
    expect(await requests(owner, 'draft')).toEqual([]);

    // Cancel the scheduled request, after the confirmation; "Keep it" first changes nothing.
    await page.goto('/business/payment/transactions/history');
    await rowAction(page, draft!.referenceNumber, 'Cancel');
    const confirmCancel = page.getByRole('dialog', { name: `Cancel ${draft!.referenceNumber}?` });
    await confirmCancel.getByRole('button', { name: 'Keep it' }).click();
    await confirmCancel.waitFor({ state: 'detached' });
    expect((await requests(owner, 'history'))[0]!.transactionState).toBe('Pending');
    await rowAction(page, draft!.referenceNumber, 'Cancel');
    await page
      .getByRole('dialog', { name: `Cancel ${draft!.referenceNumber}?` })
      .getByRole('button', { name: 'Yes, cancel' })
      .click();
    await page.getByText('Request cancelled').waitFor();
    await page.getByRole('row').filter({ hasText: draft!.referenceNumber }).locator('[data-state="Cancelled"]').waitFor();
    expect(await payLinks(nora.email)).toEqual([]);
  });

  it('Resend e-mails a new link; a paid request’s receipt opens and downloads as a PDF', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('receipt-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const wren = await addPayer(owner, 'Wren', 'Payer');
    const sent = await api<Row>(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
      payerId: wren.payerId,
      amountCents: 4_250,
      memo: 'Flute, July',
      dueDate: inDays(7),
      mode: 'send',
    });
    const [firstLink] = await payLinks(wren.email);
    expect(firstLink).toBeDefined();
    const page = await signedIn(owner);

    await page.goto('/business/payment/transactions/history');
    await rowAction(page, sent.referenceNumber, 'Resend');
    await page
      .getByRole('dialog', { name: `Resend ${sent.referenceNumber}?` })
      .getByRole('button', { name: 'Yes, resend' })
      .click();
    await page.getByText('Request resent').waitFor();
    await page.getByRole('row').filter({ hasText: sent.referenceNumber }).locator('[data-state="Resent"]').waitFor();
    const links = await payLinks(wren.email);
    expect(links).toHaveLength(2);
    const link = links[0];
    expect(link).not.toBe(firstLink);

    // The details and timeline open from the keyboard: the reference is a link to them.
    await page.getByRole('link', { name: `View ${sent.referenceNumber}` }).focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: `Request ${sent.referenceNumber}` });
    await details.getByText('Sent again').waitFor();
    expect(new URL(page.url()).searchParams.get('transid')).toBe(sent.transactionId);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // The payer pays with the success card on the new link.
    const payer = await browser.newPage();
    await payer.goto(link!);
    await payer.getByRole('button', { name: /^Pay \$/ }).waitFor();
    const card = payer.frameLocator('iframe[title^="Card details"]');
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry (MM/YY)').fill('12/34');
    await card.getByLabel('CVC').fill('123');
    await payer.getByRole('button', { name: /^Pay \$/ }).click();
    await payer.getByText('Payment received').waitFor();
    for (let i = 0; i < 80 && (await requests(owner, 'history'))[0]!.transactionState !== 'Paid'; i++) await new Promise((r) => setTimeout(r, 250));

    await page.reload();
    await page.getByRole('row').filter({ hasText: sent.referenceNumber }).locator('[data-state="Paid"]').waitFor();
    await rowAction(page, sent.referenceNumber, 'View/Download receipt');
    const receipt = page.getByRole('dialog', { name: `Receipt ${sent.referenceNumber}` });
    await receipt.getByText('Visa •••• 4242').waitFor();
    await receipt.getByText('Flute, July').waitFor();
    await receipt.getByRole('row', { name: 'Paid $42.50' }).waitFor();
    await receipt.getByRole('row', { name: 'Still to pay $0.00' }).waitFor();
    await receipt.getByText('Payments (times in America/New_York)').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), receipt.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`receipt-${sent.referenceNumber}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
