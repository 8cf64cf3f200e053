import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { ownerApi as api } from './support/owner-api';
import { payEmailedLink } from './support/pay';

// Refunds (ADR 051): an owner refunds a paid request from the history's row, from the request's
// details on a phone and a paid invoice from its details; the request says Partially refunded, the
// Refunds page lists the refund, the invoice counts it, the payer's page says what came back and
// the payer is e-mailed a refund receipt.

const browser = useBrowser();
const PASSWORD = 'Amber-Quarry-Lantern-4';
const PHONE = { width: 390, height: 844 };

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A business whose payer was sent $80.00 and paid it by card on the hosted page. */
async function paidRequest(prefix: string): Promise<{ owner: ApprovedAccount; email: string; transactionId: string; referenceNumber: string }> {
  const owner = await approvedBusinessAccount(uniqueEmail(prefix), PASSWORD, { businessName: 'Harbor Music' });
  const email = uniqueEmail(`${prefix}-payer`);
  const { payerId } = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Nora', lastName: 'Quinn', email });
  const created = await api<{ transactionId: string; referenceNumber: string }>(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
    payerId,
    amountCents: 8_000,
    memo: 'Cello lessons, June',
    dueDate: inDays(7),
    mode: 'send',
  });
  await payEmailedLink(() => browser.newPage(), email);
  return { owner, email, ...created };
}

async function signedIn(owner: ApprovedAccount, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  await signInThroughForm(page, owner.email, PASSWORD);
  await page.waitForURL(/\/business\/setup$/);
  return page;
}

/** The refund dialog: the amount (what is refundable unless changed), a reason, and the button that names the amount. */
async function refundIn(page: Page, referenceNumber: string, amount: string | null, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: `Refund ${referenceNumber}` });
  const field = dialog.getByRole('textbox', { name: /Amount to refund/ });
  await expect.poll(() => field.inputValue()).toBe('80.00');
  await dialog.getByText('Up to $80.00').waitFor();
  if (amount) await field.fill(amount);
  await dialog.getByRole('combobox', { name: /^Reason/ }).click();
  await page.getByRole('option', { name: reason }).click();
  await expectNoSeriousA11yViolations(page, 'the refund dialog');
  await dialog.getByRole('button', { name: new RegExp(`^Refund \\$${(amount ?? '80.00').replace('.', '\\.')}`) }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The payer's refund receipt, once the processor says the refund went through. */
async function refundReceipt(email: string): Promise<{ subject: string; text: string }> {
  for (let i = 0; i < 100; i++) {
    const found = (await outbox(email)).find((m) => m.subject.startsWith('Refund:'));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no refund receipt e-mailed to ${email}`);
}

describe('refunds', () => {
  it('an owner refunds part of a paid request from its row; the history, the Refunds page, the payer’s page and e-mail say so', async () => {
    const { owner, email, transactionId, referenceNumber } = await paidRequest('refund-row');
    const page = await signedIn(owner);
    await page.goto('/business/payment/transactions/history');
    const row = page.getByRole('row').filter({ hasText: referenceNumber });
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Refund', exact: true }).click();
    await refundIn(page, referenceNumber, '20.00', 'Requested by the payer');
    await page.getByText(`$20.00 to Visa •••• 4242 for ${referenceNumber}.`).waitFor();

    // Beside its paid state, in the row and in the history's refund filter.
    await row.getByText('Partially refunded').waitFor();
    await page.goto('/business/payment/transactions/history?refunded=Refunded');
    await page
      .getByText('Showing 0 to 0 of 0 Results')
      .or(page.getByText(/No .* match/))
      .first()
      .waitFor();
    await page.goto('/business/payment/transactions/history?refunded=PartiallyRefunded');
    await page.getByRole('row').filter({ hasText: referenceNumber }).waitFor();

    // The Refunds page under Payments In lists it.
    await page.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Refunds' }).click();
    await page.waitForURL('**/business/payment/refunds');
    const listed = page.getByRole('row').filter({ hasText: referenceNumber });
    await listed.getByText('$20.00').waitFor();
    await listed.getByText('Requested by the payer').waitFor();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    await expectNoSeriousA11yViolations(page, 'the Refunds page');

    // The payer's receipt e-mail, and their page.
    const receipt = await refundReceipt(email);
    expect(receipt.subject).toBe(`Refund: $20.00 from Harbor Music (${referenceNumber})`);
    expect(receipt.text).toContain('Amount refunded: $20.00 of the $80.00 you paid');
    const link = (await outbox(email)).flatMap((m) => m.text.match(/\/pay\/(?!verify\/)[\w-]+/)?.[0] ?? [])[0]!;
    const payer = await browser.newPage();
    await payer.goto(link);
    await payer.getByText('Harbor Music refunded $20.00 of the $80.00 you paid.').waitFor();
    await payer.getByText('Paid in full', { exact: true }).waitFor();

    // The API agrees: one refund, of the one payment.
    const refunds = await api<{ items: { requestId: string; amountCents: number; state: string }[] }>(owner, 'GET', `/businesses/${owner.businessId}/refunds`);
    expect(refunds.items).toEqual([expect.objectContaining({ requestId: transactionId, amountCents: 2_000, state: 'Succeeded' })]);
  });

  it('on a 390 px phone, the request’s details refund it and then count it', async () => {
    const { owner, transactionId, referenceNumber } = await paidRequest('refund-phone');
    const page = await signedIn(owner, PHONE);
    await page.goto(`/business/payment/transactions/history?transid=${transactionId}`);
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Cello lessons, June').waitFor();
    await drawer.getByRole('button', { name: 'Refund', exact: true }).click();
    await refundIn(page, referenceNumber, '15.00', 'Duplicate');
    await page.getByText(`$15.00 to Visa •••• 4242 for ${referenceNumber}.`).waitFor();
    // Nothing on the phone's screen runs off its right edge.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The history behind it says so beside Paid, and the request's details count it.
    await page.getByText('Partially refunded').first().waitFor();
    await page.goto(`/business/payment/transactions/history?transid=${transactionId}`);
    await page.getByRole('dialog').getByRole('row', { name: 'Refunded $15.00' }).waitFor();
    await page.getByRole('dialog').getByText('Refunded', { exact: true }).last().waitFor();
    await expectNoSeriousA11yViolations(page, 'the refunded request on a phone');
  });

  it('an owner refunds part of a paid invoice from its details; the invoice says what came back and the payer is e-mailed the refund receipt', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('refund-invoice'), PASSWORD, { businessName: 'Harbor Music' });
    const email = uniqueEmail('refund-invoice-payer');
    const { payerId } = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, {
      firstName: 'Nora',
      lastName: 'Quinn',
      email,
    });
    const draft = await api<{ invoiceId: string }>(owner, 'POST', `/businesses/${owner.businessId}/invoices`, {
      payerId,
      issueDate: inDays(0),
      terms: 'net30',
      items: [{ description: 'Cello lessons, June', quantity: 4, unitPriceCents: 2_000, taxRate: 0 }],
      memo: 'June',
      footer: '',
      allowPartial: false,
    });
    const sent = await api<{ number: string }>(owner, 'POST', `/businesses/${owner.businessId}/invoices/${draft.invoiceId}/send`, {});
    await payEmailedLink(() => browser.newPage(), email);

    const page = await signedIn(owner);
    await page.goto(`/business/payment/invoices/details?invoiceid=${draft.invoiceId}`);
    await page.getByText(sent.number).first().waitFor();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Refund TRX-/ });
    // The dialog's title names the request that collected the invoice.
    const referenceNumber = (await dialog.locator('h2').first().innerText()).replace(/^Refund /, '');
    await refundIn(page, referenceNumber, '30.00', 'Requested by the payer');
    await page.getByText(`$30.00 to Visa •••• 4242 for ${referenceNumber}.`).waitFor();
    // The invoice's totals say what was refunded.
    await page.getByText('Refunded', { exact: true }).first().waitFor();
    await page.getByText('$30.00').first().waitFor();
    await expectNoSeriousA11yViolations(page, 'the refunded invoice');

    const receipt = await refundReceipt(email);
    expect(receipt.subject).toBe(`Refund: $30.00 from Harbor Music (${referenceNumber})`);
    expect(receipt.text).toContain('Amount refunded: $30.00 of the $80.00 you paid');
  });
});
