import type { Page } from 'playwright-core';
import { baseUrl, ops, registerAccount } from './app';

/** A complete setup (every section prepare-submit asks for), as the onboarding journey fills it in. */
const SETUP = {
  businessProfile: {
    legalName: 'Harbor Music School LLC',
    dbaName: 'Harbor Music',
    ein: '12-3456789',
    mcc: '8299',
    corporateStructure: 'llc',
    phone: '(415) 555-0100',
    email: 'hello@harbor.example',
    website: 'https://harbor.example',
  },
  address: { line1: '100 Market Street', line2: null, city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  owners: [
    {
      firstName: 'Maya',
      lastName: 'Lopez',
      title: 'Owner',
      ownershipPercent: 100,
      dateOfBirth: '1985-04-12',
      ssnLast4: '1234',
      email: 'maya@harbor.example',
      phone: null,
    },
  ],
};
const BANK = {
  routingNumber: '123456780',
  accountNumber: '000123456789',
  confirmAccountNumber: '000123456789',
  accountType: 'checking',
  accountHolderName: 'Harbor Music School LLC',
};

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Response> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: baseUrl(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} failed with ${res.status}: ${await res.text()}`);
  return res;
}

export interface ApprovedAccount {
  email: string;
  token: string;
  businessId: string;
}

/**
 * The fast way to a signed-up person with a complete profile and an approved business, through
 * the API (the onboarding journey proves the screens): sign up and confirm, sign in, PATCH
 * /api/user, create the business, fill every setup section, link the bank account, submit, and
 * `ops approve-business`.
 */
export async function approvedBusinessAccount(
  email: string,
  password: string,
  business: { businessName: string; entityType?: 'standard' | 'student' | 'healthCare' } = { businessName: 'Harbor Music' },
): Promise<ApprovedAccount> {
  const account = await submittedBusinessAccount(email, password, business);
  await ops('approve-business', account.businessId);
  return account;
}

/** The same up to the review: the business is submitted and Pending. */
export async function submittedBusinessAccount(
  email: string,
  password: string,
  business: { businessName: string; entityType?: 'standard' | 'student' | 'healthCare' } = { businessName: 'Harbor Music' },
): Promise<ApprovedAccount> {
  await registerAccount(email, password);
  const signIn = await call('POST', '/api/auth/sign-in/email', null, { email, password });
  const token = signIn.headers.get('set-auth-token');
  if (!token) throw new Error('sign-in returned no token');
  await call('PATCH', '/api/user', token, { firstName: 'Maya', lastName: 'Lopez', mobileNumber: '+14155552671' });
  const created = (await (
    await call('POST', '/api/businesses', token, { businessName: business.businessName, entityType: business.entityType ?? 'standard' })
  ).json()) as { data: { businessId: string } };
  const businessId = created.data.businessId;
  await call('PATCH', `/api/businesses/${businessId}/update`, token, SETUP);
  await call('POST', `/api/businesses/${businessId}/bank-accounts`, token, BANK);
  await call('PATCH', `/api/businesses/${businessId}/update/submit`, token, {});
  return { email, token, businessId };
}

/** Signs in through the login form, as a person would. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
