import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { ownerApi } from './support/owner-api';
import { payEmailedLink } from './support/pay';

const browser = useBrowser();
const PASSWORD = 'Silver-Lake-Sunrise-4';

const api = ownerApi;

/** A payer's invoice, sent and paid by card on the pay page from the e-mailed link. */
async function paidInvoice(owner: ApprovedAccount, firstName: string): Promise<{ number: string; payerName: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const payer = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName, lastName: 'Ledger', email });
  const issueDate = new Date().toISOString().slice(0, 10);
  const draft = await api<{ invoiceId: string }>(owner, 'POST', `/businesses/${owner.businessId}/invoices`, {
    payerId: payer.payerId,
    issueDate,
    terms: 'net30',
    items: [{ description: 'Bookkeeping, hours', quantity: 2, unitPriceCents: 4500, taxRate: 0 }],
    memo: 'November',
    footer: '',
    allowPartial: false,
  });
  const sent = await api<{ number: string }>(owner, 'POST', `/businesses/${owner.businessId}/invoices/${draft.invoiceId}/send`, {});
  await payEmailedLink(() => browser.newPage(), email);
  return { number: sent.number, payerName: `${firstName} Ledger` };
}

describe('accounting integrations', () => {
  it('connects QuickBooks on the stand-in’s consent page, syncs the payer, invoice and payment, lists them in the log, and disconnects', async () => {
    const email = uniqueEmail('books-owner');
    const owner = await approvedBusinessAccount(email, PASSWORD, { businessName: 'Ledger Lane Studio' });
    const invoice = await paidInvoice(owner, 'Quinn');

    const page = await browser.newPage();
    await signInThroughForm(page, email, PASSWORD);
    await page.waitForURL(/\/business/);
    // The nav item leads to the page (it was the 404 page before).
    await page.goto('/business/setup');
    await page.getByRole('link', { name: '3rd Party Integrations' }).first().click();
    await page.waitForURL(/\/business\/setup\/integrations/);
    await expect.poll(() => page.getByRole('heading', { name: '3rd Party Integrations', level: 1 }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    const quickbooks = page.getByRole('region', { name: 'QuickBooks Online' });
    await expect.poll(() => quickbooks.getByText('Not connected').isVisible()).toBe(true);
    await quickbooks.getByRole('button', { name: 'Connect' }).click();

    // The stand-in's consent page: a company name, Connect.
    await page.waitForURL(/\/sandbox\/quickbooks\/connect\/oauth2/);
    await expectNoSeriousA11yViolations(page, 'the QuickBooks stand-in’s consent page');
    await page.getByLabel('Company name').fill('Ledger Lane Books');
    await page.getByRole('button', { name: 'Connect' }).click();

    // Back through our callback, on the integrations page: connected, and the first sync runs by itself.
    await page.waitForURL((url) => url.pathname === '/business/setup/integrations');
    await page.getByText('QuickBooks Online connected').first().waitFor();
    await expect.poll(() => new URL(page.url()).search).not.toContain('connected=1');
    await expect.poll(() => quickbooks.getByText('Ledger Lane Books').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => quickbooks.getByText(/3 pushed, 0 failed/).isVisible(), { timeout: 30_000 }).toBe(true);

    // Sync now: nothing new to push, and nothing is pushed twice.
    await quickbooks.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => quickbooks.getByText(/0 pushed, 0 failed/).isVisible(), { timeout: 30_000 }).toBe(true);

    // The log lists the payer, the invoice and the payment, each created at QuickBooks.
    // (the log reads itself again when a run ends: no reload)
    const log = page.getByRole('tabpanel', { name: 'QuickBooks Online' });
    await expect.poll(() => log.getByText(invoice.payerName).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => log.getByText(`Invoice ${invoice.number}`, { exact: true }).first().isVisible()).toBe(true);
    await expect.poll(() => log.getByText(`Payment of $90.00 on Invoice ${invoice.number}`).first().isVisible()).toBe(true);
    expect(await log.getByText('Created', { exact: true }).count()).toBeGreaterThanOrEqual(3);

    // What QuickBooks' stand-in holds: one customer, one invoice, one payment.
    const integrations = await api<{ provider: string; accountId: string }[]>(owner, 'GET', `/businesses/${owner.businessId}/integrations`);
    const accountId = integrations.find((i) => i.provider === 'quickbooks')!.accountId;
    for (const type of ['customer', 'invoice', 'payment']) {
      const res = await fetch(`${baseUrl()}/sandbox/quickbooks/records?${new URLSearchParams({ accountId, type })}`);
      const body = (await res.json()) as unknown;
      const rows = Array.isArray(body) ? body : ((body as { records?: unknown[] }).records ?? []);
      expect(rows, type).toHaveLength(1);
    }

    // Disconnect, confirmed; the log stays.
    await quickbooks.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('QuickBooks Online disconnected').first().waitFor();
    await expect.poll(() => quickbooks.getByText('Not connected').isVisible()).toBe(true);
    await expect.poll(() => log.getByText(`Invoice ${invoice.number}`, { exact: true }).first().isVisible()).toBe(true);
    await page.close();
  });

  it('a state that is not ours lands on the page with "Invalid state in OAuth flow"; on a phone, FreshBooks’ consent page fits', async () => {
    const email = uniqueEmail('books-forged');
    await approvedBusinessAccount(email, PASSWORD, { businessName: 'Forged State Co' });
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughForm(page, email, PASSWORD);
    await page.waitForURL(/\/business/);
    await page.goto('/api/integrations/quickbooks/callback?code=made-up&state=made-up&realmId=1');
    await page.waitForURL((url) => url.pathname === '/business/setup/integrations');
    await expect.poll(() => page.getByRole('region', { name: 'QuickBooks Online' }).getByText('Invalid state in OAuth flow').isVisible()).toBe(true);

    // FreshBooks' consent page on a phone: readable without sideways scrolling; Cancel comes back saying nothing was connected.
    await page.getByRole('region', { name: 'FreshBooks' }).getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(/\/sandbox\/freshbooks\/oauth\/authorize/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page, 'the FreshBooks stand-in’s consent page on a phone');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/business/setup/integrations');
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'FreshBooks' }).getByText('The connection was cancelled at the provider: nothing was connected.').isVisible(),
      )
      .toBe(true);
    await page.close();
  });
});
