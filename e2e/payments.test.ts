import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Silver-Lake-Sunrise-4';

async function api(owner: ApprovedAccount, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: Record<string, unknown> };
}

async function payer(owner: ApprovedAccount, firstName: string): Promise<{ payerId: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const created = await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName, lastName: 'Payer', email });
  return { payerId: created.data.payerId as string, email };
}

function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

async function sendRequest(owner: ApprovedAccount, payerId: string, amountCents: number, allowPartial = false) {
  const created = await api(owner, 'POST', `/businesses/${owner.businessId}/payments`, {
    payerId,
    amountCents,
    memo: 'Piano lessons, March',
    dueDate: inDays(7),
    allowPartial,
    mode: 'send',
  });
  return created.data as { transactionId: string; referenceNumber: string };
}

/** The pay link in the newest e-mail to the payer. */
async function payLink(email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const link = (await outbox(email))[0]?.text.match(/(\/pay\/[\w-]+)/)?.[1];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no pay link e-mailed to ${email}`);
}

/** A payer's own browser: a context with nothing of the business in it. */
async function payerPage(link: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(link);
  return page;
}

async function payByCard(page: Page, number: string) {
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  const card = page.frameLocator('iframe[title^="Card details"]');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

async function waitForState(owner: ApprovedAccount, transactionId: string, state: string) {
  for (let i = 0; i < 80; i++) {
    const detail = await api(owner, 'GET', `/businesses/${owner.businessId}/payments/${transactionId}`);
    if (detail.data.transactionState === state) return detail.data;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${transactionId} never became ${state}`);
}

describe('payments in, end to end', () => {
  it('an approved business adds a payer and sends a request; the payer pays by card; the business sees Paid and the balance', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('pay-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('nora');
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    // The business adds a payer…
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Manage Payers' }).click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByRole('button', { name: 'Add a payer' }).first().click();
    await page.waitForURL('**/business/payment/payers/add');
    await page.getByLabel('First name').fill('Nora');
    await page.getByLabel('Last name').fill('Quinn');
    await page.getByLabel('E-mail').fill(payerEmail);
    await page.getByRole('button', { name: 'Add payer' }).click();
    await page.waitForURL('**/business/payment/payers');

    // …and sends a request from the navigation.
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Single Request to Pay' }).click();
    await page.waitForURL('**/business/payment/request');
    await page.getByText('Manage Transactions and Request to pay').waitFor();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Choose a payer.').waitFor();
    await page.getByPlaceholder('Search payers').fill('Nor');
    await page.getByRole('option', { name: /Nora Quinn/ }).click();
    await page.getByLabel('Amount (USD)').fill('125.50');
    await page.getByLabel('Memo').fill('Piano lessons, March');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Request sent').waitFor();
    await page.waitForURL(/\/business\/payment\/transactions\/history\?transid=req_/);
    const transactionId = new URL(page.url()).searchParams.get('transid')!;
    const drawer = page.getByRole('dialog');
    await drawer.getByText('$125.50').first().waitFor();
    await drawer.getByText('Sent to the payer').waitFor();

    // The payer, in a browser of their own, opens the link from the e-mail and pays.
    const payerTab = await payerPage(await payLink(payerEmail));
    await payerTab.getByText('Harbor Music').first().waitFor();
    await payerTab.getByRole('heading', { name: '$125.50' }).waitFor();
    await payerTab.getByText('Piano lessons, March').waitFor();
    await payByCard(payerTab, '4242 4242 4242 4242');
    await payerTab.getByText('Payment received').waitFor();
    await payerTab.getByRole('link', { name: 'View your receipt' }).click();
    await payerTab.getByRole('heading', { name: 'Receipt' }).waitFor();
    await payerTab.getByText('Visa •••• 4242').waitFor();
    const receipts = await outbox(payerEmail);
    expect(receipts.some((m) => /receipt/i.test(m.subject))).toBe(true);

    // The business sees it Paid, and the money in its balance.
    await waitForState(owner, transactionId, 'Paid');
    await page.goto('/business/payment/transactions/history');
    const row = page.getByRole('row').filter({ hasText: 'Nora Quinn' });
    await row.locator('[data-state="Paid"]').waitFor();
    await page.goto('/business/payment');
    await page.getByRole('heading', { name: 'Manage Transactions and Request to pay' }).waitFor();
    const balance = await api(owner, 'GET', `/businesses/${owner.businessId}/balances`);
    expect(balance.data.availableCents).toBeGreaterThan(0);
    expect(balance.data.availableCents).toBeLessThan(12_550);
    const shown = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format((balance.data.availableCents as number) / 100);
    await page.getByText(shown).first().waitFor();
  });

  it('a declined card says so and takes no money; the payer retries with another card', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('decline-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Dana');
    const { transactionId } = await sendRequest(owner, p.payerId, 4_000);
    const tab = await payerPage(await payLink(p.email));
    await payByCard(tab, '4000 0000 0000 0002');
    await tab.getByText('The payment did not go through').waitFor();
    expect(await tab.getByRole('button', { name: 'Pay $40.00' }).isVisible()).toBe(true);
    const failed = await api(owner, 'GET', `/businesses/${owner.businessId}/payments/${transactionId}`);
    expect(failed.data.amountPaidCents).toBe(0);

    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('Payment received').waitFor();
    const paid = await waitForState(owner, transactionId, 'Paid');
    expect((paid.payments as { state: string }[]).map((x) => x.state)).toEqual(['Rejected', 'Processed']);
  });

  it('a partial payment, then the rest', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('partial-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Parker');
    const { transactionId } = await sendRequest(owner, p.payerId, 10_000, true);
    const link = await payLink(p.email);
    const tab = await payerPage(link);
    await tab.getByLabel('Amount to pay (USD)').fill('40');
    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('Payment received').waitFor();
    await tab.getByText('$60.00 remains to pay.').waitFor();
    await waitForState(owner, transactionId, 'PartiallyPaid');

    await tab.goto(link);
    await tab.getByText('$40.00 of $100.00 already paid').waitFor();
    await tab.getByRole('heading', { name: '$60.00' }).waitFor();
    await payByCard(tab, '4242 4242 4242 4242');
    await tab.getByText('Nothing remains to pay.').waitFor();
    const done = await waitForState(owner, transactionId, 'Paid');
    expect(done.amountPaidCents).toBe(10_000);
  });

  it("a withdrawn request's page says so and offers no way to pay", async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('withdraw-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Wren');
    await sendRequest(owner, p.payerId, 2_500);
    const link = await payLink(p.email);

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Transaction History' }).click();
    await page.waitForURL('**/business/payment/transactions/history');
    const row = page.getByRole('row').filter({ hasText: 'Wren Payer' });
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Withdraw' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, withdraw' }).click();
    await page.getByText('Request withdrawn').waitFor();
    await row.locator('[data-state="Withdrawn"]').waitFor();

    const tab = await payerPage(link);
    await tab.getByText('This request was withdrawn').waitFor();
    expect(await tab.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    const refused = await fetch(`${baseUrl()}/api/public${link}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'card', processorToken: 'tok_0123456789abcdef', amountCents: 2_500 }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });

  it('pages through the history: the next page is found from the last row shown, and back again', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('pages-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const p = await payer(owner, 'Page');
    for (let i = 1; i <= 27; i++) await sendRequest(owner, p.payerId, 1_000 + i);
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Transaction History' }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    // Newest first: the first page starts with the last request sent ($10.27).
    await page.getByRole('row').nth(1).getByText('$10.27').waitFor();
    await page.getByRole('button', { name: 'next page' }).click();
    await page.getByText('Showing 26 to 27 of 27 Results').waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toMatch(/^req_/);
    await page.getByRole('row').nth(1).getByText('$10.02').waitFor();
    await page.getByRole('row').nth(2).getByText('$10.01').waitFor();
    await page.getByRole('button', { name: 'previous page' }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    await page.getByRole('row').nth(1).getByText('$10.27').waitFor();
    // A new sort starts again from page 1, by number.
    await page.getByRole('button', { name: /^Sort by Amount/ }).click();
    await page.getByText('Showing 1 to 25 of 27 Results').waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toBeNull();
  });
});
