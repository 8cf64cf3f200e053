import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';
import { payByCard } from './support/pay';

/**
 * The healthcare template (issue 22), a practice from nothing: 10 patients with their guarantors
 * from a CSV file → a file of charges with one unknown MRN → the review names it → the rest are
 * sent, one statement per patient → a guarantor pays their statement in part from the e-mail, then
 * the rest → Paid, on the patient's transactions; the patient's page lists who viewed the record.
 */

const browser = useBrowser();
const PASSWORD = 'Cedar-Clinic-Lantern-4';

const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Business navigation' });

async function api<T>(owner: ApprovedAccount, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}`, origin: baseUrl() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function rowAction(page: Page, text: string | RegExp, action: string) {
  await row(page, text).first().getByRole('button', { name: 'Row actions' }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('the healthcare template', () => {
  it('a practice imports 10 patients, bills a file of charges with one unknown MRN, and a guarantor pays a statement in part, then the rest', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('clinic-owner'), PASSWORD, { businessName: 'Cedar Physio', entityType: 'healthCare' });
    const tag = owner.businessId.slice(-6).toLowerCase();
    const email = (n: number) => `patient${n}.${tag}@mail.example`;
    // 10 patients MRN-201…MRN-210; MRN-202 is a child whose parent pays, the others pay for themselves.
    const patients = ['MRN,First name,Last name,Date of birth,Guarantor,Guarantor e-mail,Guarantor first name,Guarantor last name'];
    for (let i = 1; i <= 10; i++) {
      patients.push(
        i === 2 ? `MRN-202,Pia,Child${i},2016-04-02,parent,${email(i)},Paula,Parent` : `MRN-${200 + i},Pat${i},Family${i},1980-02-${10 + i},self,${email(i)},,`,
      );
    }

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/payment');
    // The template dropdown offers Standard and the business's own; the healthcare menu follows.
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'Healthcare' }).click();
    await page.getByRole('heading', { name: 'Requesting Payments', level: 1 }).waitFor();
    await nav(page).getByRole('link', { name: 'Manage Clients' }).click();
    await page.waitForURL('**/business/healthcare-clients');
    await page.getByRole('heading', { name: 'Patients', level: 1 }).waitFor();

    // Import through upload → map → review.
    await page
      .getByRole('link', { name: /Import patients/ })
      .first()
      .click();
    await page.waitForURL('**/business/healthcare-clients/import');
    await page.locator('input[type="file"]').setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(patients.join('\r\n'), 'utf8') });
    await page.waitForURL(/\/business\/healthcare-clients\/import\/map\?batchId=bat_/);
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await page.waitForURL(/\/business\/healthcare-clients\/import\/review\?batchId=bat_/);
    await page.getByText('Showing 1 to 10 of 10 Results').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Import patients' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Import' }).click();
    await page.getByText('All sent').waitFor({ timeout: 30_000 });

    // The list masks the date of birth.
    await page.goto('/business/healthcare-clients');
    await page.getByText('Showing 1 to 10 of 10 Results').waitFor();
    await row(page, 'MRN-201').getByText('Pat1 Family1').first().waitFor();
    expect(await page.getByText('1980-02-11').count()).toBe(0);
    expect(await page.getByText('02/11/1980').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // A file of charges: two for Pat1, one for Pia (billed to her parent), one for an unknown MRN.
    const charges = [
      'MRN,Date of service,Description,Billed,Insurance paid,Adjustment,Patient responsibility',
      'MRN-201,2026-11-20,Office visit,250.00,180.00,20.00,50.00',
      'MRN-201,2026-11-20,X-ray,$120.00,100.00,0,20.00',
      'MRN-202,11/18/2026,Physiotherapy session,90.00,0,,90.00',
      'MRN-999,2026-11-18,Office visit,100.00,0,0,100.00',
    ];
    await nav(page).getByRole('link', { name: 'Request to Pay Multiple' }).click();
    await page.waitForURL('**/business/entity/billing/healthcare-clients/bulk');
    await page.getByRole('link', { name: 'New bulk statement' }).first().click();
    await page.waitForURL('**/business/entity/billing/healthcare-clients/bulk/upload');
    await page.locator('input[type="file"]').setInputFiles({ name: 'charges.csv', mimeType: 'text/csv', buffer: Buffer.from(charges.join('\r\n'), 'utf8') });
    await page.waitForURL(/\/healthcare-clients\/bulk\/map\?batchId=bat_/);
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await page.waitForURL(/\/business\/entity\/billing\/healthcare-clients\/review-bulk-request\?batchId=bat_/);
    const batchId = new URL(page.url()).searchParams.get('batchId')!;
    await page.getByText('Showing 1 to 4 of 4 Results').waitFor({ timeout: 30_000 });
    // The review names the unknown MRN; two statements for $160.00 will go out.
    await page.getByRole('radiogroup', { name: 'Show rows' }).getByText('With errors').click();
    await page.getByText('Showing 1 to 1 of 1 Results').waitFor();
    await page
      .getByText(/No patient has MRN MRN-999/)
      .first()
      .waitFor();
    await page.getByText('$160.00').first().waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Submit and send' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    const batch = await until('the batch to be sent', async () => {
      const b = await api<{ state: string; counts: { sent: number; invalid: number } }>(owner, 'GET', `/businesses/${owner.businessId}/batches/${batchId}`);
      return b.state !== 'Draft' && b.state !== 'Submitted' && b;
    });
    expect(batch.counts.sent).toBe(3);

    // Pat1's statement: one e-mail with both lines, the first name only.
    const link = await until('the statement e-mail', async () => (await outbox(email(1))).map((m) => m.text.match(/(\/pay\/[\w-]+)/)?.[1]).find(Boolean));
    const mail = (await outbox(email(1))).find((m) => m.text.includes(link))!;
    expect(mail.text).toContain('Statement for Pat1');
    expect(mail.text).toContain('Office visit');
    expect(mail.text).toContain('X-ray');
    expect(mail.text).not.toContain('MRN-201');
    expect(mail.text).not.toMatch(/1980|02\/11/);
    // Pia's parent is billed for Pia: the e-mail names Pia by her first name only.
    const piaMail = await until('the parent’s statement e-mail', async () => (await outbox(email(2))).find((m) => m.text.includes('/pay/')));
    expect(piaMail.text).toContain('Statement for Pia');
    expect(piaMail.text).not.toContain('Child2');
    expect(piaMail.text).not.toContain('2016');

    // The guarantor pays part of the statement, then the rest.
    const payer = await browser.newPage();
    await payer.goto(link);
    await payer.getByRole('heading', { name: '$70.00' }).waitFor();
    await payer.getByText('Office visit').first().waitFor();
    await payer.getByText('X-ray').first().waitFor();
    expect(await payer.getByText('MRN-201').count()).toBe(0);
    await expectNoSeriousA11yViolations(payer);
    await payer.getByLabel('Amount to pay (USD)').fill('30');
    await payByCard(payer, '4242 4242 4242 4242');
    await payer.getByText('Payment received').waitFor({ timeout: 30_000 });
    await payer.getByText('$40.00 remains to pay.').waitFor();
    await payer.goto(link);
    await payer.getByRole('heading', { name: '$40.00' }).waitFor();
    await payByCard(payer, '4242 4242 4242 4242');
    await payer.getByText('Nothing remains to pay.').waitFor({ timeout: 30_000 });
    await payer.close();

    // The practice: Pat1's transactions show the statement Paid; the patient's page lists the views.
    const list = await api<{ items: { clientId: string; mrn: string }[] }>(owner, 'GET', `/businesses/${owner.businessId}/healthcare-clients?search=MRN-201`);
    const pat1 = list.items.find((p) => p.mrn === 'MRN-201')!;
    await until(
      'the statement to be paid',
      async () => {
        const requests = await api<{ items: { transactionState: string; clientId: string | null }[] }>(
          owner,
          'GET',
          `/businesses/${owner.businessId}/payment-requests?clientId=${pat1.clientId}`,
        );
        return requests.items.length === 1 && requests.items[0]!.clientId === pat1.clientId && requests.items[0]!.transactionState === 'Paid';
      },
      240,
    );
    await page.goto('/business/healthcare-clients');
    await rowAction(page, 'MRN-201', 'Transactions');
    await page.waitForURL(/\/business\/payment\/transactions\/history\?.*clientId=/);
    await row(page, 'Pat1 Family1').getByText('Paid').first().waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/business/healthcare-clients');
    await rowAction(page, 'MRN-201', 'Edit');
    await page.waitForURL(/\/business\/healthcare-clients\/edit\?clientId=/);
    await page.getByText('Record views').first().waitFor();
    await page.getByText(owner.email).first().waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
