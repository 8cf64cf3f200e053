import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { ops, registerAccount, uniqueEmail } from './support/app';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lights-3';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function choose(page: Page, label: string, search: string, option: RegExp) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (await input.isEditable()) await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

async function saved(page: Page, title: string) {
  await page.getByText(title, { exact: true }).first().waitFor();
}

const header = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const sideNav = (page: Page) => page.getByRole('navigation', { name: 'Business navigation' });

describe('onboarding: from a new account to an approved business', () => {
  it('profile → business → every setup page → prepare-submit → submit → Pending → approved → menus unlock', async () => {
    const email = uniqueEmail('owner');
    await registerAccount(email, PASSWORD);
    const page = await browser.newPage();
    await signIn(page, email);
    await page.waitForURL('**/business/user/profile');

    // User profile: the left navigation is hidden here (full width).
    expect(await sideNav(page).count()).toBe(0);
    await page.getByLabel('First name').fill('Maya');
    await page.getByLabel('Last name').fill('Lopez');
    await page.getByLabel('Mobile number').fill('12');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Enter a valid mobile number').waitFor();
    await page.getByLabel('Mobile number').fill('(415) 555-2671');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await saved(page, 'Profile saved');
    await page.getByText('Hi, Maya').waitFor();
    await page.getByRole('link', { name: 'Next: create your business' }).click();

    // Create the business with the School template.
    await page.waitForURL('**/business/profile');
    await page.getByLabel('Business name').fill('Sunrise Tutoring');
    await page.getByText('School', { exact: true }).click();
    await page.getByRole('button', { name: 'Create business' }).click();
    await page.waitForURL('**/business/home');
    await page.getByRole('heading', { name: 'Welcome, Maya' }).waitFor();
    await page.getByRole('heading', { name: 'Next steps' }).waitFor();
    await page.getByText('Finish setting up your business').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Business setup' }).click();
    await page.waitForURL('**/business/setup');
    await page.getByRole('heading', { name: 'Business setup' }).waitFor();
    await page.getByText('Still needed before you can submit').waitFor();
    // The setup page is the banner's "setup steps": it does not repeat it.
    expect(await page.getByText('Finish setting up your business').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    expect(await sideNav(page).getByRole('link').count()).toBe(0);
    expect(await header(page).getByRole('link', { name: 'Payments In' }).count()).toBe(0);

    // Business profile, with a logo.
    await page.getByRole('link', { name: /^Business profile:/ }).click();
    await page.waitForURL('**/business/setup/profile');
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await saved(page, 'Logo updated');
    await page.getByLabel('Legal name').fill('Sunrise Tutoring LLC');
    await page.getByLabel('EIN').fill('12-345');
    await page.getByRole('button', { name: 'Save business profile' }).click();
    await page.getByText('Enter the 9-digit EIN, like 12-3456789.').waitFor();
    await page.getByLabel('EIN').fill('12-3456789');
    await choose(page, 'Merchant category (MCC)', '8299', /^8299/);
    await choose(page, 'Corporate structure', 'LLC', /LLC/);
    await page.getByLabel('Business phone').fill('(415) 555-0100');
    await page.getByLabel('Business e-mail').fill('hello@sunrise.example');
    await page.getByLabel('Website').fill('https://sunrise.example');
    await page.getByRole('button', { name: 'Save business profile' }).click();
    await saved(page, 'Business profile saved');

    // Owners (the first one starts from the profile): over 100 % is refused.
    await page.goto('/business/owner');
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Maya');
    await page.getByLabel('First name').fill('Maya');
    await page.getByLabel('Last name').fill('Lopez');
    await page.getByLabel('Title').fill('Owner');
    await page.getByLabel('Ownership (%)').fill('100');
    await page.getByLabel('Date of birth').fill('1985-04-12');
    await page.getByLabel('Last 4 digits of SSN').fill('1234');
    await page.getByLabel('E-mail', { exact: true }).fill('maya@sunrise.example');
    await page.getByRole('button', { name: 'Add an owner' }).click();
    await page.getByLabel('Ownership (%)').nth(1).fill('10');
    await page.getByRole('button', { name: 'Save owners' }).click();
    await page.getByText('Ownership adds up to more than 100 %.').waitFor();
    await page.getByRole('button', { name: 'Remove owner 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Save owners' }).click();
    await saved(page, 'Owners saved');

    // Address.
    await page.goto('/business/setup/address');
    await page.getByLabel('Street address').fill('100 Market Street');
    await page.getByLabel('City').fill('San Francisco');
    await choose(page, 'State', 'CA', /\(CA\)$/);
    await page.getByLabel('ZIP code').fill('94105');
    await page.getByRole('button', { name: 'Save address' }).click();
    await saved(page, 'Address saved');

    // Configuration and automations.
    await page.goto('/business/setup/config');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await saved(page, 'Configuration saved');
    await page.goto('/business/setup/automations');
    await page.getByLabel('Send reminders automatically').click();
    await page.getByRole('button', { name: 'Save automations' }).click();
    await saved(page, 'Automations saved');

    // Settlement account: a bad routing number first, then a bank from the directory.
    await page.goto('/business/setup/payment/add-bank-account');
    await page.getByLabel('Routing number').fill('123456789');
    await page.getByLabel('Name on the account').fill('Sunrise Tutoring LLC');
    await page.getByLabel('Account number', { exact: true }).fill('000123456789');
    await page.getByLabel('Confirm account number').fill('000123456789');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByText('This routing number is not valid').waitFor();

    await page.goto('/business/setup/payment/link-account');
    await page.getByLabel('Find your bank').fill('sandbox');
    await page.getByRole('button', { name: 'Choose Tay Sandbox Bank' }).click();
    await page.getByLabel('Name on the account').fill('Sunrise Tutoring LLC');
    await page.getByLabel('Account number', { exact: true }).fill('000123456789');
    await page.getByLabel('Confirm account number').fill('000123456780');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByText('The account numbers do not match.').waitFor();
    await page.getByLabel('Confirm account number').fill('000123456789');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    // Every step is done: the save goes back to the overview.
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/setup/payment/profile');
    await page.getByText('Tay Sandbox Bank').waitFor();
    await page.getByText('••••6789').waitFor();
    expect(await page.getByText('000123456789').count()).toBe(0);

    // Prepare-submit says nothing is missing; submit → Pending.
    await page.goto('/business/setup');
    await page.getByText('Everything is in place').waitFor();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Your business is being reviewed').waitFor();
    expect(await sideNav(page).getByRole('link').count()).toBe(0);
    expect(await header(page).getByRole('link', { name: 'Payments In' }).count()).toBe(0);

    // Operations approve it: the menus unlock.
    const approved = await ops('approve-business', email);
    expect(approved).toMatch(/approved/i);
    await page.goto('/business/home');
    await header(page).getByRole('link', { name: 'Payments In' }).waitFor();
    for (const label of ['Analytics', 'Setup & Administration']) {
      expect(await header(page).getByRole('link', { name: label }).isVisible()).toBe(true);
    }
    expect(await header(page).getByRole('link', { name: 'Payouts' }).count()).toBe(0);
    expect(await page.getByText('Your business is being reviewed').count()).toBe(0);
    expect(await sideNav(page).getByRole('link', { name: 'Manage Payers' }).isVisible()).toBe(true);

    // Created with the School template, the portal is on it (docs/product.md §1); a switch survives a reload.
    await sideNav(page).getByRole('link', { name: 'Manage Students' }).waitFor();
    expect(await sideNav(page).getByRole('combobox', { name: 'Template' }).inputValue()).toBe('School');
    expect(await page.evaluate(() => window.localStorage.getItem('template'))).toBe('student');
    await sideNav(page).getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'Standard' }).click();
    await sideNav(page).getByRole('link', { name: 'Manage Invoices' }).waitFor();
    await page.reload();
    await sideNav(page).getByRole('link', { name: 'Manage Invoices' }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('template'))).toBe('standard');
    await sideNav(page).getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'School' }).click();
    await sideNav(page).getByRole('link', { name: 'Manage Students' }).waitFor();

    // payoutEnabled shows and hides Payouts.
    await ops('enable-payouts', email);
    await page.reload();
    await header(page).getByRole('link', { name: 'Payouts' }).waitFor();
    await sideNav(page).getByText('Payments out').waitFor();
    await ops('disable-payouts', email);
    await page.reload();
    await header(page).getByRole('link', { name: 'Payments In' }).waitFor();
    expect(await header(page).getByRole('link', { name: 'Payouts' }).count()).toBe(0);
    expect(await sideNav(page).getByText('Payments out').count()).toBe(0);
  });
});
