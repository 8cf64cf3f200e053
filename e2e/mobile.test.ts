import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Tidal-Meadow-Lantern-5';
const PHONE = { width: 390, height: 844 };

async function phonePage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize(PHONE);
  return page;
}

async function api(owner: ApprovedAccount, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

/** Whether the element lies wholly within the phone's screen, left to right. */
async function onScreen(page: Page, selector: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await selector.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Business navigation' });

describe('the portal on a phone (390 × 844)', () => {
  it('pages open on their content; the navigation is behind the burger, opens, navigates and closes', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('phone-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await phonePage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in to Tay' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'login on a phone');
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    // The page's heading is the first thing on the screen; the navigation is nowhere to be seen.
    const heading = page.getByRole('heading', { name: 'Business setup', level: 1 });
    await heading.waitFor();
    expect((await heading.boundingBox())!.y).toBeLessThan(200);
    expect(await navigation(page).isVisible()).toBe(false);
    const burger = page.getByRole('button', { name: 'Menu' });
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    await expectNoSeriousA11yViolations(page, 'setup on a phone');

    // The burger opens it, with the header's links too.
    await burger.click();
    await navigation(page).waitFor();
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    expect(await navigation(page).getByRole('link', { name: 'Payments In' }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'navigation drawer on a phone');

    // Following a link goes there and closes it.
    await navigation(page).getByRole('link', { name: 'Manage Payers' }).click();
    await page.waitForURL('**/business/payment/payers');
    await page.getByRole('heading', { name: 'Manage Payers' }).waitFor();
    await navigation(page).waitFor({ state: 'hidden' });
    expect(await burger.getAttribute('aria-expanded')).toBe('false');

    // Escape closes it as well, and the burger has the focus again.
    await burger.click();
    await navigation(page).waitFor();
    await page.keyboard.press('Escape');
    await navigation(page).waitFor({ state: 'hidden' });
    expect(await burger.evaluate((element) => element === document.activeElement)).toBe(true);

    // The person's menu leads to the profile settings.
    await page.getByRole('button', { name: 'Hi, Maya: your account' }).click();
    await page.getByRole('menuitem', { name: 'Profile settings' }).click();
    await page.waitForURL('**/business/settings/profile');
    await page.getByRole('heading', { name: 'Profile settings' }).waitFor();
    // The menu closes once it has been followed; axe checks the page, not its last frames.
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expectNoSeriousA11yViolations(page, 'profile settings on a phone');
  });

  it('the history shows each request’s status on the screen; the pages pass axe at 390 px', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('phone-history'), PASSWORD, { businessName: 'Harbor Music' });
    const payerEmail = uniqueEmail('nora');
    const payer = await api(owner, 'POST', '/payers', { firstName: 'Nora', lastName: 'Quinn', email: payerEmail });
    const sent = await api(owner, 'POST', '/payment-requests', {
      payerId: payer.payerId,
      amountCents: 12_550,
      memo: 'Piano lessons',
      dueDate: '2030-01-15',
      mode: 'send',
    });
    const page = await phonePage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);

    await page.goto('/business/payment/transactions/history');
    const card = page
      .getByRole('list', { name: 'Transaction history' })
      .getByRole('listitem')
      .filter({ hasText: sent.referenceNumber as string });
    const status = card.locator('[data-state="Sent"]');
    await status.waitFor();
    expect(await onScreen(page, status)).toBe(true);
    expect(await onScreen(page, card.getByText('$125.50'))).toBe(true);
    expect(await onScreen(page, card.getByRole('button', { name: 'Row actions' }))).toBe(true);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousA11yViolations(page, 'history on a phone');

    // The reference opens the details, as in the table.
    await card.getByRole('link', { name: `View ${sent.referenceNumber as string}` }).click();
    await page
      .getByRole('dialog', { name: `Request ${sent.referenceNumber as string}` })
      .getByText('Sent to the payer')
      .waitFor();
    await expectNoSeriousA11yViolations(page, 'request details on a phone');
    await page.keyboard.press('Escape');

    for (const [path, name] of [
      ['/business/home', 'Welcome, Maya'],
      ['/business/payment', 'Manage Transactions and Request to pay'],
      ['/business/payment/request', 'Request to pay'],
      ['/business/payment/payers', 'Manage Payers'],
      ['/business/analytics', 'Analytics'],
      ['/business/analytics/billing/daily', 'Daily Billing Report'],
      ['/business/analytics/billing/monthly', 'Monthly Billing Report'],
      ['/business/setup/integrations', '3rd Party Integrations'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(PHONE.width);
      await expectNoSeriousA11yViolations(page, `${path} on a phone`);
    }

    // The payer's page, on the payer's phone.
    const link = (await outbox(payerEmail)).map((m) => m.text.match(/\/pay\/(?!verify\/)[\w-]+/)?.[0]).find(Boolean);
    expect(link).toBeDefined();
    const payerPage = await phonePage();
    await payerPage.goto(link!);
    await payerPage.getByRole('button', { name: /^Pay \$/ }).waitFor();
    await expectNoSeriousA11yViolations(payerPage, 'pay page on a phone');
  });

  it('on a desktop window the history’s filters are labelled and sit in one row', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('desk-filters'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment/transactions/history');
    const filters = page.getByRole('group', { name: 'Filters' });
    await filters.getByText('Status', { exact: true }).waitFor();
    const labels = ['Status', 'From', 'To', 'Smallest amount', 'Largest amount', 'Payer'];
    // Each label is shown, and all of them in one line.
    const tops = [];
    for (const label of labels) {
      const shown = filters.getByText(label, { exact: true });
      expect(await shown.isVisible(), label).toBe(true);
      tops.push(Math.round((await shown.boundingBox())!.y));
    }
    expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
    await page.getByText('No requests yet', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
