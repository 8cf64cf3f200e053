import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm, type ApprovedAccount } from './support/approved-business';
import { useBrowser } from './support/browser';

/**
 * The student template (issue 21), a school from nothing: 30 students with their guardians from a
 * CSV file → a monthly program → 20 of them enrolled → the billing cycle runs → its batch is
 * reviewed and submitted → a guardian pays from the e-mail → the student's outstanding drops and
 * Billing Transactions shows the request Paid.
 */

const browser = useBrowser();
const PASSWORD = 'Maple-Violin-Orchard-8';

const toast = (page: Page, title: string | RegExp) => page.getByText(title).first().waitFor({ timeout: 20_000 });
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

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, tries = 160): Promise<T> {
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

describe('the student template', () => {
  it('a school imports 30 students, enrolls 20 in a monthly program, runs the cycle, submits its batch, and a guardian pays', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('school-owner'), PASSWORD, { businessName: 'Maple Music School', entityType: 'student' });
    const tag = owner.businessId.slice(-6).toLowerCase();
    const guardian = (n: number) => `guardian${n}.${tag}@families.example`;
    // 30 students: S-101…S-120 in Year 5, S-121…S-130 in Year 7; siblings S-101 and S-102 share a guardian.
    const lines = ['Student id,First name,Last name,Grade,Date of birth,Guardian e-mail,Guardian first name,Guardian last name'];
    for (let i = 1; i <= 30; i++) {
      const family = i === 2 ? 1 : i;
      lines.push(
        `S-${100 + i},Kid${i},Family${family},${i <= 20 ? 'Year 5' : 'Year 7'},2015-0${1 + (i % 9)}-1${i % 10},${guardian(family)},Parent${family},Family${family}`,
      );
    }

    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/entity/billing');
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    // The template dropdown offers Standard and the business's own; a school opens on its own (choosing it again changes nothing).
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'School' }).click();
    await nav(page).getByRole('link', { name: 'Manage Students' }).click();
    await page.waitForURL('**/business/entity/students');
    await page.getByRole('heading', { name: 'Manage Students', level: 1 }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // Import through upload → map → review.
    await page
      .getByRole('link', { name: /Import students/ })
      .first()
      .click();
    await page.waitForURL('**/business/entity/students/import');
    await page.locator('input[type="file"]').setInputFiles({ name: 'students.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n'), 'utf8') });
    await page.waitForURL(/\/business\/entity\/students\/import\/map\?batchId=bat_/);
    await page.getByRole('button', { name: 'Check the rows' }).click();
    await page.waitForURL(/\/business\/entity\/students\/import\/review\?batchId=bat_/);
    await page.getByText('Showing 1 to 25 of 30 Results').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Import students' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Import' }).click();
    await page.getByText('All sent').waitFor({ timeout: 30_000 });
    // Siblings share one guardian: 29 payers, never a copy.
    const payers = await api<{ total: number }>(owner, 'GET', `/businesses/${owner.businessId}/payers?pageSize=100`);
    expect(payers.total).toBe(29);

    // A monthly program.
    await nav(page).getByRole('link', { name: 'Manage Programs' }).click();
    await page.waitForURL('**/business/entity/program');
    await page.getByRole('button', { name: 'Add program' }).first().click();
    await page.getByLabel('Name').fill('Piano');
    await page.getByLabel('Fee').fill('120');
    await page.getByRole('radio', { name: 'Monthly' }).check();
    await page.getByLabel('Start date').fill('2026-09-01');
    await page.getByRole('button', { name: 'Add program' }).click();
    await toast(page, 'Program added');

    // Enroll the 20 Year 5 students.
    await page.goto('/business/entity/program');
    await rowAction(page, 'Piano', 'Enroll');
    await page.getByRole('heading', { name: 'Enroll in Piano' }).waitFor();
    await page.getByRole('combobox', { name: 'Grade' }).click();
    await page.getByRole('option', { name: 'Year 5' }).click();
    await page.getByText('Showing 1 to 20 of 20 Results').waitFor();
    await page.getByLabel('Select all on this page').check();
    await page.getByLabel('Start date').fill('2026-09-01');
    await page.getByRole('button', { name: /^Enroll 20/ }).click();
    await toast(page, 'Students enrolled');
    const piano = (await api<{ items: { programId: string; enrolledCount: number }[] }>(owner, 'GET', `/businesses/${owner.businessId}/programs`)).items[0]!;
    expect(piano.enrolledCount).toBe(20);

    // The billing cycle, run now: its batch waits in review.
    await nav(page).getByRole('link', { name: 'Manage Billing Cycles' }).click();
    await page.waitForURL('**/business/entity/billingcycle');
    await page
      .getByRole('button', { name: /New billing cycle/ })
      .first()
      .click();
    const form = page.getByRole('dialog', { name: 'New billing cycle' });
    await form.getByLabel('Name').fill('Monthly tuition');
    await form.getByRole('radio', { name: 'Monthly' }).check();
    await form.getByLabel('Day of the month').fill('1');
    await form.getByRole('combobox', { name: 'Programs' }).click();
    await page.getByRole('option', { name: 'Piano' }).click();
    await form.getByRole('button', { name: 'Create billing cycle' }).click();
    await toast(page, 'Billing cycle created');
    await rowAction(page, 'Monthly tuition', 'Run now');
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, run now' }).click();
    await toast(page, '“Monthly tuition” ran');
    // The run's drawer opens on its own, with the link to the batch's review.
    const runs = page.getByRole('dialog', { name: 'Runs of “Monthly tuition”' });
    await runs.getByRole('link', { name: /^Review / }).click();
    await page.waitForURL(/\/business\/entity\/program\/billing\/review\?batchId=bat_/);
    await page.getByText('Showing 1 to 20 of 20 Results').waitFor({ timeout: 30_000 });
    await page.getByText('$2,400.00').first().waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Submit and send' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await page.getByText('All sent').waitFor({ timeout: 60_000 });

    // Guardian 3 pays Kid3's request from the e-mail.
    const link = await until('the request e-mail', async () => (await outbox(guardian(3))).map((m) => m.text.match(/(\/pay\/[\w-]+)/)?.[1]).find(Boolean));
    const mail = (await outbox(guardian(3))).find((m) => m.text.includes(link))!;
    expect(mail.text).toContain('Kid3 Family3');
    const payerTab = await browser.newPage();
    await payerTab.goto(link);
    await payerTab
      .getByText(/Kid3 Family3/)
      .first()
      .waitFor();
    await payerTab.getByRole('button', { name: /^Pay \$/ }).waitFor();
    const card = payerTab.frameLocator('iframe[title^="Card details"]');
    await card.getByLabel('Card number').fill('4242424242424242');
    await card.getByLabel('Expiry (MM/YY)').fill('12/34');
    await card.getByLabel('CVC').fill('123');
    await payerTab.getByRole('button', { name: /^Pay \$/ }).click();
    await payerTab.getByRole('heading', { level: 1, name: '$120.00 paid' }).waitFor({ timeout: 30_000 });
    await payerTab.close();

    // The student's outstanding drops; Billing Transactions shows Paid.
    const students = await api<{ items: { studentId: string; studentNumber: string }[] }>(
      owner,
      'GET',
      `/businesses/${owner.businessId}/students?search=S-103`,
    );
    const kid3Id = students.items.find((s) => s.studentNumber === 'S-103')!.studentId;
    await until(
      'the request to settle',
      async () => {
        const list = await api<{ items: { transactionState: string; student: { name: string } | null }[] }>(
          owner,
          'GET',
          `/businesses/${owner.businessId}/payment-requests?studentId=${kid3Id}`,
        );
        return list.items.length === 1 && list.items[0]!.student?.name === 'Kid3 Family3' && list.items[0]!.transactionState === 'Paid';
      },
      240,
    );
    await page.goto('/business/billing/students');
    await page.getByRole('heading', { name: 'Students’ balances', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: /Search/ }).fill('Kid3');
    const kid3 = row(page, 'S-103');
    await kid3.getByText('$0.00').first().waitFor();
    await row(page, 'S-104').getByText('$120.00').first().waitFor();
    await expectNoSeriousA11yViolations(page);

    await nav(page).getByRole('link', { name: 'Transactions History' }).click();
    await page.waitForURL('**/business/entity/billing/transactions');
    await page.getByRole('heading', { name: 'Billing transactions', level: 1 }).waitFor();
    await row(page, 'Kid3 Family3').getByText('Paid').first().waitFor();
    await row(page, 'Kid3 Family3').getByText('Piano').first().waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
