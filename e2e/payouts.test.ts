import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, ops, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

/**
 * Payments out (issue 20): operations turn payouts on; the business adds a receiver, who enters
 * their own bank account on the e-mailed link; the business pays them $40 and sees it Processed
 * with the balance down by $40 and the fee; then an event's QR code is scanned by two receivers
 * and both are paid from Event Check-Ins.
 */

const browser = useBrowser();
const PASSWORD = 'Copper-Kite-Harbor-6';
const PHONE = { width: 390, height: 844 };
const FEE_CENTS = 25;

async function api<T>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, origin: baseUrl() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, tries = 160): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The newest link of this kind e-mailed to `to`. */
async function linkIn(to: string, pattern: RegExp): Promise<string> {
  return until(`a link e-mailed to ${to}`, async () => (await outbox(to)).map((m) => m.text.match(pattern)?.[1]).find(Boolean));
}

/** Money into the business: a payer pays a $200 request by card, and it settles. */
async function fund(owner: ApprovedAccount): Promise<void> {
  const email = uniqueEmail('funder');
  const payer = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Fay', lastName: 'Funder', email });
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await api(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
    payerId: payer.payerId,
    amountCents: 20_000,
    memo: 'Season tickets',
    dueDate,
    mode: 'send',
  });
  const link = await linkIn(email, /(\/pay\/[\w-]+)/);
  const page = await browser.newPage();
  await page.goto(link);
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  const card = page.frameLocator('iframe[title^="Card details"]');
  await card.getByLabel('Card number').fill('4242424242424242');
  await card.getByLabel('Expiry (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page
    .getByText(/payment (was )?received|thank you/i)
    .first()
    .waitFor({ timeout: 30_000 });
  await page.close();
  await until('the payment to settle', async () => (await available(owner)) >= 19_000);
}

async function available(owner: ApprovedAccount): Promise<number> {
  return (await api<{ availableCents: number }>(owner, 'GET', `/businesses/${owner.businessId}/balances`)).availableCents;
}

/** The receiver's own phone: the secure link, their bank account, saved. */
async function enterBankAccount(link: string, holder: string): Promise<void> {
  const page = await browser.newPage();
  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl()}${link}`);
  await page.getByLabel('Name on the account').fill(holder);
  await page.getByLabel('Routing number').fill('222096656');
  await expect.poll(() => page.getByText('Tay Sandbox Bank').count()).toBeGreaterThan(0);
  await page.getByLabel(/^Account number/).fill('000123456789');
  await page.getByLabel('Confirm account number').fill('000123456789');
  await expectNoSeriousA11yViolations(page, '/receiver/bank-account/:token');
  await page.getByRole('button', { name: 'Save my bank account' }).click();
  await page
    .getByText(/saved|all set|thank you/i)
    .first()
    .waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.close();
}

async function nav(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: label }).click();
}

/** What an event's QR code says, as a phone camera reads the downloaded PNG (zbar). */
async function scanDownloadedCode(page: Page, eventName: string): Promise<string> {
  await page.getByRole('button', { name: `Download the QR code of ${eventName}` }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'PNG image' }).click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'tay-e2e-')), download.suggestedFilename());
  await download.saveAs(file);
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim();
}

interface PayoutRow {
  payoutId: string;
  state: string;
  amountCents: number;
  receiverName: string;
}

describe('payments out', () => {
  it('payouts on → a receiver enters their bank account from the e-mailed link → paid $40 → Processed, the balance down by $40 and the fee', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('payout-owner'), PASSWORD, { businessName: 'Harbor Events' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    // Off: no Payments out in the menu, and the API says why.
    await expect.poll(() => page.getByRole('navigation', { name: 'Business navigation' }).getByText('Payments out').count()).toBe(0);
    await expect(api(owner, 'GET', `/businesses/${owner.businessId}/payouts/summary`)).rejects.toThrow(/403.*Payouts are not enabled/);

    await ops('enable-payouts', owner.businessId);
    await fund(owner);
    await page.reload();

    // A receiver, added by the business, gets the secure link by e-mail.
    const ria = uniqueEmail('ria');
    await nav(page, 'Manage Receivers');
    await page.waitForURL('**/business/payouts/receivers');
    await page.getByRole('button', { name: 'Add receiver' }).first().click();
    const form = page.getByRole('dialog');
    await form.getByLabel('First name').fill('Ria');
    await form.getByLabel('Last name').fill('Stone');
    await form.getByLabel('E-mail').fill(ria);
    await form.getByRole('button', { name: 'Add and send link' }).click();
    await page
      .getByRole('cell', { name: /Ria Stone/ })
      .first()
      .waitFor();
    await expectNoSeriousA11yViolations(page);

    const link = await linkIn(ria, /(\/receiver\/bank-account\/[\w-]+)/);
    await enterBankAccount(link, 'Ria Stone');
    // The business sees the bank masked, never the number.
    await page.reload();
    await page.getByText('•••• 6789').first().waitFor();
    expect(await page.content()).not.toContain('000123456789');

    const before = await available(owner);
    await nav(page, 'Send a Payment - Single Receiver');
    await page.waitForURL('**/business/payouts/payment/request');
    await page.getByRole('combobox', { name: 'Receiver' }).click();
    await page.getByRole('combobox', { name: 'Receiver' }).fill('Ria');
    await page.getByRole('option', { name: /Ria Stone/ }).click();
    await page.getByLabel('Amount').fill('40.00');
    await page.getByLabel('Memo').fill('Stage crew, Friday');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit payout' });
    await expect.poll(() => dialog.textContent()).toContain('$40.25');
    await dialog.getByRole('button', { name: 'Submit' }).click();

    const paid = await until('the payout to be Processed', async () => {
      const { items } = await api<{ items: PayoutRow[] }>(owner, 'GET', `/businesses/${owner.businessId}/payouts`);
      return items.find((p) => p.state === 'Processed' && p.amountCents === 4000);
    });
    expect(paid.receiverName).toBe('Ria Stone');
    expect(await available(owner)).toBe(before - 4000 - FEE_CENTS);

    await nav(page, 'Transaction Dashboard');
    await page.waitForURL(/\/business\/payouts$/);
    await page.getByText('Paid out this month').waitFor();
    await page.getByRole('link', { name: 'All payouts' }).click();
    await page.getByText('Processed').first().waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.close();
  });

  it('an event whose QR code two receivers scan (one known, one new) → both paid from Event Check-Ins', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('event-owner'), PASSWORD, { businessName: 'Harbor Fair' });
    await ops('enable-payouts', owner.businessId);
    await fund(owner);
    // A receiver the business already has, with a bank account.
    const known = uniqueEmail('kai');
    await api(owner, 'POST', `/businesses/${owner.businessId}/receivers`, { firstName: 'Kai', lastName: 'Known', email: known });
    await enterBankAccount(await linkIn(known, /(\/receiver\/bank-account\/[\w-]+)/), 'Kai Known');

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await nav(page, 'Manage Events');
    await page.waitForURL('**/business/payouts/qrcode');
    await page.getByRole('button', { name: 'New event' }).first().click();
    const eventForm = page.getByRole('dialog');
    await eventForm.getByLabel('Event name').fill('Spring Fair');
    await eventForm.getByLabel('Date').fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    await eventForm.getByLabel('Amount per check-in').fill('25.00');
    await eventForm.getByLabel('Place').fill('Pier 3');
    await eventForm.getByRole('button', { name: 'Create event' }).click();
    await page
      .getByRole('cell', { name: /Spring Fair/ })
      .first()
      .waitFor();
    await expectNoSeriousA11yViolations(page);
    const checkInUrl = await scanDownloadedCode(page, 'Spring Fair');
    expect(checkInUrl).toMatch(/\/checkin\/[\w-]+$/);

    // Two phones scan it: the known receiver by e-mail, a new one with their name.
    const newcomer = uniqueEmail('nia');
    for (const who of [
      { email: known, names: null },
      { email: newcomer, names: ['Nia', 'Newcomer'] as const },
    ]) {
      const phone = await browser.newPage();
      await phone.setViewportSize(PHONE);
      await phone.goto(checkInUrl);
      await phone.getByRole('heading', { name: 'Spring Fair' }).waitFor();
      await phone.getByLabel('Your e-mail address').fill(who.email);
      await phone.getByRole('button', { name: 'Check in' }).click();
      if (who.names) {
        await phone.getByLabel('First name').fill(who.names[0]);
        await phone.getByLabel('Last name').fill(who.names[1]);
        await phone.getByRole('button', { name: 'Check in' }).click();
      }
      await phone.getByText('You’re checked in').waitFor();
      await expectNoSeriousA11yViolations(phone, '/checkin/:token');
      await phone.close();
    }
    // The newcomer is e-mailed the bank-account link, and enters it.
    await enterBankAccount(await linkIn(newcomer, /(\/receiver\/bank-account\/[\w-]+)/), 'Nia Newcomer');

    await page.reload();
    await page.getByRole('button', { name: 'Row actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Event Check-Ins', exact: true }).click();
    await page.waitForURL('**/business/payouts/qrcode/check-ins?*');
    await page
      .getByRole('cell', { name: /Kai Known/ })
      .first()
      .waitFor();
    await page
      .getByRole('cell', { name: /Nia Newcomer/ })
      .first()
      .waitFor();
    await expectNoSeriousA11yViolations(page);
    const before = await available(owner);
    await page.getByRole('button', { name: 'Pay checked-in receivers' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make the batch' }).click();
    await page.waitForURL('**/business/payouts/payment/request/bulkreview?batchId=*');
    await page.getByRole('button', { name: 'Submit payouts' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    // The newcomer came by a check-in, not from the business: their row waits, left out, until
    // the owner has looked at them and includes it.
    const newcomerRow = page.getByRole('row', { name: /Nia Newcomer/ });
    await newcomerRow
      .getByText(/review/i)
      .first()
      .waitFor();
    await newcomerRow.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Include (mark the receiver reviewed)' }).click();
    await page.getByText(/^Line \d+ is included$/).waitFor();
    await page.getByRole('button', { name: 'Submit payouts' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByText('All sent').waitFor({ timeout: 30_000 });

    const both = await until('both check-ins to be paid', async () => {
      const { items } = await api<{ items: PayoutRow[] }>(owner, 'GET', `/businesses/${owner.businessId}/payouts`);
      const processed = items.filter((p) => p.state === 'Processed' && p.amountCents === 2500);
      return processed.length === 2 ? processed : null;
    });
    expect(both.map((p) => p.receiverName).sort()).toEqual(['Kai Known', 'Nia Newcomer']);
    expect(await available(owner)).toBe(before - 2 * (2500 + FEE_CENTS));
    await page.close();
  });
});
