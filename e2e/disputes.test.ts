import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { ownerApi as api } from './support/owner-api';
import { payEmailedLink } from './support/pay';

// Disputes (ADR 051): a payer pays with the sandbox card their bank disputes once it settles. The
// owner is e-mailed, Home says a dispute needs a response, and the Disputes page under Payments In
// opens it: on a desktop the owner sends evidence with a file and the bank decides for them; on a
// 390 px phone another owner accepts one.

const browser = useBrowser();
const PASSWORD = 'Amber-Quarry-Lantern-4';
const PHONE = { width: 390, height: 844 };
const DISPUTED_CARD = '4000 0000 0000 0259';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A business whose payer paid $80.00 with the disputed card, and its dispute once the processor opened it. */
async function disputedPayment(prefix: string): Promise<{ owner: ApprovedAccount; referenceNumber: string }> {
  const owner = await approvedBusinessAccount(uniqueEmail(prefix), PASSWORD, { businessName: 'Harbor Music' });
  const email = uniqueEmail(`${prefix}-payer`);
  const { payerId } = await api<{ payerId: string }>(owner, 'POST', `/businesses/${owner.businessId}/payers`, { firstName: 'Nora', lastName: 'Quinn', email });
  const created = await api<{ referenceNumber: string }>(owner, 'POST', `/businesses/${owner.businessId}/payment-requests`, {
    payerId,
    amountCents: 8_000,
    memo: 'Cello lessons, June',
    dueDate: inDays(7),
    mode: 'send',
  });
  await payEmailedLink(() => browser.newPage(), email, DISPUTED_CARD);
  for (let i = 0; i < 150; i++) {
    const { items } = await api<{ items: unknown[] }>(owner, 'GET', `/businesses/${owner.businessId}/disputes`);
    if (items.length > 0) return { owner, referenceNumber: created.referenceNumber };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the processor opened no dispute');
}

async function signedIn(owner: ApprovedAccount, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  await signInThroughForm(page, owner.email, PASSWORD);
  await page.waitForURL(/\/business\/setup$/);
  return page;
}

async function mailTo(email: string, subject: RegExp): Promise<{ subject: string; text: string }> {
  for (let i = 0; i < 100; i++) {
    const found = (await outbox(email)).find((m) => subject.test(m.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail ${subject} to ${email}`);
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('disputes', () => {
  it('an owner is told, finds the dispute from Home, answers with evidence and a file, and wins it', async () => {
    const { owner, referenceNumber } = await disputedPayment('dispute-won');
    const opened = await mailTo(owner.email, /^Dispute: \$80\.00 from Nora Quinn/);
    expect(opened.text).toContain('the $15.00 dispute fee have left your available balance');

    const page = await signedIn(owner);
    await page.goto('/business/home');
    const notice = page.getByRole('region', { name: 'Disputes that need a response' });
    await notice.getByText(/A dispute needs your evidence — (21|20) days left\./).waitFor();
    await notice.getByRole('link', { name: 'Respond' }).click();
    await page.waitForURL(/\/business\/payment\/disputes\?state=NeedsResponse/);
    const row = page.getByRole('row').filter({ hasText: referenceNumber });
    await row.getByText('Needs response').waitFor();
    await row.getByText('$80.00').waitFor();
    await expectNoSeriousA11yViolations(page, 'the Disputes page');

    await row.getByText('Nora Quinn').click();
    const drawer = page.getByRole('dialog', { name: `Dispute of ${referenceNumber}` });
    await drawer.getByText(/Send evidence by .+, or accept the dispute/).waitFor();
    await drawer.getByRole('textbox', { name: 'What the payer paid for' }).fill('Four cello lessons in June, all attended.');
    await drawer.getByRole('textbox', { name: 'Your communication with the payer' }).fill('Nora confirmed the June dates by e-mail on May 28.');
    await drawer.locator('input[type="file"]').setInputFiles({ name: 'attendance.pdf', mimeType: 'application/pdf', buffer: PDF });
    await drawer.getByText('attendance.pdf').waitFor();
    await expectNoSeriousA11yViolations(page, 'the evidence form');
    await drawer.getByRole('button', { name: 'Send evidence' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this evidence?' });
    await confirm.getByRole('button', { name: 'Send evidence' }).click();
    await page.getByText('The dispute of $80.00 is under review.').waitFor();

    // The bank decides for the business (the sandbox's rule for evidence like this): Won, money back, e-mailed.
    await mailTo(owner.email, /^Dispute won: \$80\.00/);
    await page.goto('/business/payment/disputes');
    const decided = page.getByRole('row').filter({ hasText: referenceNumber });
    await decided.getByText('Won').waitFor();
    await decided.getByText('Nora Quinn').click();
    const done = page.getByRole('dialog', { name: `Dispute of ${referenceNumber}` });
    await done.getByText('The bank decided for you: $80.00 is back in your available balance.').waitFor();
    await done.getByRole('region', { name: 'Evidence sent' }).getByRole('button', { name: 'attendance.pdf' }).waitFor();
    await page.goto('/business/home');
    await page.getByText('Balances').waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Disputes that need a response' }).count()).toBe(0);
  });

  it('on a 390 px phone, an owner accepts a dispute after the warning', async () => {
    const { owner, referenceNumber } = await disputedPayment('dispute-phone');
    const page = await signedIn(owner, PHONE);
    await page.goto('/business/payment/disputes');
    await page.getByText(referenceNumber).first().waitFor();
    await page.getByRole('button', { name: 'Row actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Respond' }).click();
    const drawer = page.getByRole('dialog', { name: `Dispute of ${referenceNumber}` });
    await drawer.getByRole('button', { name: 'Accept dispute' }).click();
    const confirm = page.getByRole('dialog', { name: 'Accept this dispute?' });
    await confirm.getByText('$80.00 stays with Nora Quinn, and the $15.00 dispute fee is not returned. This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Accept dispute' }).click();
    await page.getByText('$80.00 stays with the payer.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByText('Accepted', { exact: true }).first().waitFor();
    await expectNoSeriousA11yViolations(page, 'the accepted dispute on a phone');
    const disputes = await api<{ items: { state: string }[] }>(owner, 'GET', `/businesses/${owner.businessId}/disputes`);
    expect(disputes.items.map((d) => d.state)).toEqual(['Accepted']);
  });
});
