import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, ops, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, submittedBusinessAccount, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Open-Window-Breeze-5';

const header = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Resolves when the page's live stream is open: from then on every change reaches it. */
function streamOpened(page: Page, businessId: string): Promise<Response> {
  return page.waitForResponse((r) => r.url().endsWith(`/api/businesses/${businessId}/changes`) && r.status() === 200);
}

/** Counts the page's navigations from now on (loads and in-app moves): the screen must change in place. */
function navigationsOf(page: Page): () => number {
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  return () => navigations;
}

async function api(owner: ApprovedAccount, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: Record<string, unknown> };
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

describe('open screens follow changes made elsewhere, without a reload', () => {
  it('the setup page of a business under review turns Approved, and the menus open, when operations approve it', async () => {
    const owner = await submittedBusinessAccount(uniqueEmail('live-review'), PASSWORD, { businessName: 'Lighthouse Lessons' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\//);
    const live = streamOpened(page, owner.businessId);
    await page.goto('/business/setup');
    await page.getByText('Under review', { exact: true }).waitFor();
    await page.getByText('Your business is being reviewed').waitFor();
    expect(await header(page).getByRole('link', { name: 'Payments In' }).count()).toBe(0);
    await live;

    const navigations = navigationsOf(page);
    expect(await ops('approve-business', owner.businessId)).toMatch(/approved/i);
    await page.getByText('Approved', { exact: true }).waitFor();
    await header(page).getByRole('link', { name: 'Payments In' }).waitFor();
    await expect.poll(() => page.getByText('Your business is being reviewed').count()).toBe(0);
    expect(await page.getByText('Under review', { exact: true }).count()).toBe(0);
    expect(navigations()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/business/setup');
  });

  it('a request’s drawer open in the business’s tab turns Paid when the payer pays in another browser', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('live-pay'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('live-payer');
    const payer = await api(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Lena', lastName: 'Live', email: payerEmail });
    const sent = await api(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
      payerId: payer.data.payerId,
      amountCents: 4_200,
      memo: 'Guitar lesson',
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      mode: 'send',
    });
    const transactionId = sent.data.transactionId as string;

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\//);
    const live = streamOpened(page, owner.businessId);
    await page.goto(`/business/payment/transactions/history?transid=${transactionId}`);
    const drawer = page.getByRole('dialog');
    await drawer.getByText('$42.00').first().waitFor();
    await drawer.locator('[data-state="Sent"]').first().waitFor();
    await live;
    const navigations = navigationsOf(page);

    // The payer, in a browser of their own, pays by card.
    const payerTab = await browser.newPage();
    await payerTab.goto(await payLink(payerEmail));
    await payerTab.getByRole('button', { name: /^Pay \$/ }).waitFor();
    const card = payerTab.frameLocator('iframe[title^="Card details"]');
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry (MM/YY)').fill('12/34');
    await card.getByLabel('CVC').fill('123');
    await payerTab.getByRole('button', { name: /^Pay \$/ }).click();
    await payerTab.getByText('Payment received').waitFor();

    // The drawer, untouched, shows it: captured at once, Paid once the card settles (1 s here).
    await drawer.locator('[data-state="Paid"]').first().waitFor({ timeout: 30_000 });
    await drawer.getByText('$42.00 of $42.00').waitFor();
    expect(navigations()).toBe(0);
    expect(await drawer.isVisible()).toBe(true);
  });
});
