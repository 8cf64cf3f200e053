import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, ops, outbox, registerAccount, uniqueEmail } from './support/app';
import { signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Copper-Kettle-Morning-7';

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Response> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: baseUrl(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} failed with ${res.status}: ${await res.text()}`);
  return res;
}

/** A confirmed person with a complete profile and a new, empty business. */
async function newBusinessOwner(email: string): Promise<void> {
  await registerAccount(email, PASSWORD);
  const signIn = await call('POST', '/api/auth/sign-in/email', null, { email, password: PASSWORD });
  const token = signIn.headers.get('set-auth-token');
  await call('PATCH', '/api/user', token, { firstName: 'Rosa', lastName: 'Diaz', mobileNumber: '+14155552671' });
  await call('POST', '/api/businesses', token, { businessName: 'Golden Gate Guitars', entityType: 'standard' });
}

async function choose(page: Page, label: string, search: string, option: RegExp) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

const path = (page: Page) => new URL(page.url()).pathname;

describe('setup: each save moves on to the next unfinished step', () => {
  it('profile → owners → address → configuration → bank account → overview, submitted, approved and e-mailed', async () => {
    const email = uniqueEmail('flow-owner');
    await newBusinessOwner(email);
    const page = await browser.newPage();
    await signInThroughForm(page, email, PASSWORD);
    await page.waitForURL(/\/business\/(setup|home)$/);
    await page.goto('/business/setup');

    // The overview counts all six cards; the banner does not repeat what the page says.
    await page.getByText('1 of 6 steps complete').waitFor();
    expect(await page.getByText('Finish setting up your business').count()).toBe(0);
    await page.getByRole('link', { name: /^Business profile:/ }).click();

    // Business profile → Owners.
    await page.waitForURL('**/business/setup/profile');
    await page.getByLabel('Legal name').fill('Golden Gate Guitars LLC');
    await page.getByLabel('EIN').fill('98-7654321');
    await choose(page, 'Merchant category (MCC)', '5733', /^5733/);
    await page.getByRole('combobox', { name: 'Corporate structure', exact: true }).click();
    await page.getByRole('option', { name: /LLC/ }).first().click();
    await page.getByLabel('Business phone').fill('(415) 555-0199');
    await page.getByLabel('Business e-mail').fill('hello@goldengate.example');
    await page.getByRole('button', { name: 'Save business profile' }).click();
    await page.waitForURL('**/business/owner');

    // Owners: the first one starts from the person's profile; the SSN digits are masked.
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Rosa');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Diaz');
    expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email);
    expect(await page.getByLabel('Last 4 digits of SSN').getAttribute('type')).toBe('password');
    await page.getByLabel('Title').fill('Owner');
    await page.getByLabel('Ownership (%)').fill('100');
    await page.getByLabel('Date of birth').fill('1984-09-30');
    await page.getByLabel('Last 4 digits of SSN').fill('4321');
    await page.getByRole('button', { name: 'Save owners' }).click();
    await page.waitForURL('**/business/setup/address');

    // Address: the state is found by part of its name.
    await page.getByLabel('Street address').fill('1 Ferry Building');
    await page.getByLabel('City').fill('San Francisco');
    await choose(page, 'State', 'Calif', /^California \(CA\)$/);
    await page.getByLabel('ZIP code').fill('94111');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL('**/business/setup/config');

    // Configuration: the time zone of the address is offered; saving it confirms it.
    await expect.poll(() => page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('America/Los_Angeles');
    await page.getByText('Suggested from your address in California', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    // Automations keep their defaults: on to the settlement account.
    await page.waitForURL('**/business/setup/payments');

    await page.getByRole('link', { name: 'Link your bank' }).click();
    await page.getByLabel('Find your bank').fill('sandbox');
    await page.getByRole('button', { name: 'Choose Tay Sandbox Bank' }).click();
    await page.getByLabel('Name on the account').fill('Golden Gate Guitars LLC');
    await page.getByLabel('Account number', { exact: true }).fill('000123456789');
    await page.getByLabel('Confirm account number').fill('000123456789');
    await page.getByRole('button', { name: 'Save bank account' }).click();

    // Nothing left: back on the overview, which offers to submit.
    await page.waitForURL(/\/business\/setup$/);
    await page.getByText('6 of 6 steps complete').waitFor();
    await page.getByText('Everything is in place').waitFor();
    expect(path(page)).toBe('/business/setup');

    // The settlement account shows the bank and masked numbers, not our directory id.
    await page.getByRole('link', { name: /^Settlement bank account:/ }).click();
    await page.getByRole('link', { name: 'View settlement account' }).click();
    await page.getByText('••••6789').waitFor();
    expect(await page.getByText('Directory id').count()).toBe(0);

    // Submit; operations approve; the e-mail the dialog promised arrives.
    await page.goto('/business/setup');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('dialog').getByText('we will e-mail you when the review is done', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Your business is being reviewed').waitFor();
    expect((await outbox(email)).filter((m) => m.subject.includes('approved'))).toEqual([]);
    await ops('approve-business', email);
    const approval = (await outbox(email)).find((m) => m.subject === 'Golden Gate Guitars is approved on Tay');
    expect(approval?.text).toContain(`${baseUrl()}/business/home`);
  });
});
