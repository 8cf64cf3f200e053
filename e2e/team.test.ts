import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lights-3';

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

async function invite(page: Page, email: string, role: 'Admin' | 'Member' | 'Viewer') {
  await page.getByRole('button', { name: 'Invite a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a person' });
  await dialog.getByLabel('E-mail address').fill(email);
  await dialog.getByLabel(/^Role/).click();
  await page.getByRole('option', { name: new RegExp(`^${role} — `) }).click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
}

/** Waits for an e-mail to `to` whose subject matches, and returns its text. */
async function mail(to: string, subject: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = (await outbox(to)).find((m) => subject.test(m.subject));
    if (found) return found.text;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail to ${to} matching ${subject}`);
}

/** A new person's first sign-in: the temporary password, the new-password challenge, their profile. */
async function firstSignIn(page: Page, email: string, temporary: string, firstName: string) {
  await signInThroughForm(page, email, temporary);
  await page.waitForURL('**/new-password');
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm new password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await page.waitForURL('**/business/user/profile');
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill('Team');
  await page.getByLabel('Mobile number').fill('(415) 555-0142');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText(`Hi, ${firstName}`).waitFor();
}

describe('team members, roles and the audit log', () => {
  it('an owner invites an admin and a viewer; the viewer changes nothing and the API refuses them; the admin sends a request; the owner reads who did what', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('team-owner'), PASSWORD, { businessName: 'Harbor Music' });
    const adminEmail = uniqueEmail('team-admin');
    const viewerEmail = uniqueEmail('team-viewer');

    // The owner opens the Team page from Set-up and invites two people.
    const ownerPage = await browser.newPage();
    await signInThroughForm(ownerPage, owner.email, PASSWORD);
    await ownerPage.waitForURL(/\/business\/setup$/);
    await ownerPage.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Team' }).click();
    await ownerPage.waitForURL('**/business/setup/team');
    await ownerPage.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await row(ownerPage, `${owner.email} (you)`).getByText('Owner', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(ownerPage);

    // A bad address is caught before anything is sent.
    await ownerPage.getByRole('button', { name: 'Invite a person' }).click();
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Send invitation' }).click();
    await ownerPage.getByText('Enter a valid e-mail address.').waitFor();
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await invite(ownerPage, adminEmail, 'Admin');
    await toast(ownerPage, `${adminEmail} added to the team`);
    await invite(ownerPage, viewerEmail, 'Viewer');
    await toast(ownerPage, `${viewerEmail} added to the team`);
    await row(ownerPage, viewerEmail).getByText('Invited — not signed in yet').waitFor();

    // The viewer signs in with the e-mailed temporary password and meets the challenge.
    const viewerMail = await mail(viewerEmail, /added you to Harbor Music on Tay$/);
    const viewerTemporary = viewerMail.match(/temporary password: (\S+)/)?.[1];
    expect(viewerTemporary).toBeTruthy();
    const viewerPage = await browser.newPage();
    await firstSignIn(viewerPage, viewerEmail, viewerTemporary!, 'Vera');

    // No change buttons: the requests and payers pages say why, the team page offers nothing.
    await viewerPage.goto('/business/payment/payers');
    await viewerPage.getByText('Your role in this business is view only: you can read and export payers, not add or change them.').waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Add a payer' }).first().isDisabled()).toBe(true);
    await viewerPage.goto('/business/setup/team');
    await viewerPage.getByText('Only an owner or admin of this business can invite people, change roles or remove members.').waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Invite a person' }).isDisabled()).toBe(true);
    expect(await viewerPage.getByRole('button', { name: 'Row actions' }).count()).toBe(0);

    // …and the API refuses the viewer's write even when the screen is bypassed.
    const viewerToken = await viewerPage.evaluate(() => window.localStorage.getItem('tay.identityToken'));
    expect(viewerToken).toBeTruthy();
    const refused = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}/payers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl(), authorization: `Bearer ${viewerToken}` },
      body: JSON.stringify({ firstName: 'Sneaky', lastName: 'Write', email: 'sneaky@example.com' }),
    });
    expect(refused.status).toBe(403);
    await viewerPage.close();

    // The admin signs in the same way and sends a request.
    const adminMail = await mail(adminEmail, /added you to Harbor Music on Tay$/);
    const adminPage = await browser.newPage();
    await firstSignIn(adminPage, adminEmail, adminMail.match(/temporary password: (\S+)/)![1]!, 'Ada');
    const payerEmail = uniqueEmail('team-payer');
    await adminPage.goto('/business/payment/payers/add');
    await adminPage.getByLabel('First name').fill('Nora');
    await adminPage.getByLabel('Last name').fill('Quinn');
    await adminPage.getByLabel('E-mail').fill(payerEmail);
    await adminPage.getByRole('button', { name: 'Add payer' }).click();
    await adminPage.waitForURL('**/business/payment/payers');
    await adminPage.goto('/business/payment/request');
    await adminPage.getByPlaceholder('Search payers').fill('Nor');
    await adminPage.getByRole('option', { name: /Nora Quinn/ }).click();
    await adminPage.getByLabel('Amount (USD)').fill('80.00');
    await adminPage.getByLabel('Memo').fill('Guitar lessons');
    await adminPage.getByRole('button', { name: 'Send now' }).click();
    await adminPage.getByText('Request sent').waitFor();
    await adminPage.close();

    // The owner's Audit log shows who did what, filtered by person.
    await ownerPage.getByRole('navigation', { name: 'Business navigation' }).getByRole('link', { name: 'Audit log' }).click();
    await ownerPage.waitForURL('**/business/setup/audit');
    await row(ownerPage, `Invited ${viewerEmail} as viewer`).waitFor();
    await row(ownerPage, adminEmail)
      .filter({ hasText: /^.*Sent TRX-\d+/ })
      .first()
      .waitFor();
    await row(ownerPage, adminEmail).filter({ hasText: 'Payer created' }).first().waitFor();
    await expectNoSeriousA11yViolations(ownerPage);
    await ownerPage.getByLabel('Person').first().click();
    await ownerPage.getByRole('option', { name: adminEmail }).click();
    await ownerPage.waitForURL(/actor=/);
    await ownerPage.getByText(/^Showing 1 to \d+ of \d+ Results$/).waitFor();
    // Only the admin's entries: the owner's invitations leave the list.
    await row(ownerPage, `Invited ${viewerEmail}`).waitFor({ state: 'detached' });
    await row(ownerPage, adminEmail).filter({ hasText: 'Payer created' }).first().waitFor();
    await ownerPage.close();
  });

  it('a person with a Tay account accepts an invitation link after signing in, and switches between their businesses', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('team-owner2'), PASSWORD, { businessName: 'Harbor Music' });
    const other = await approvedBusinessAccount(uniqueEmail('team-other'), PASSWORD, { businessName: 'Bayside Dance' });

    const res = await fetch(`${baseUrl()}/api/businesses/${owner.businessId}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl(), authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ email: other.email, role: 'member' }),
    });
    expect(res.status).toBe(201);
    const text = await mail(other.email, /invites you to join Harbor Music on Tay$/);
    const link = text.match(/(http\S+\/invitation\?token=\S+)/)![1]!;

    const page = await browser.newPage();
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await page.getByLabel('E-mail address').fill(other.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/invitation?token=*');
    await page.getByText(/invites you to join Harbor Music as Member/).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Accept and join' }).click();
    await toast(page, 'You joined Harbor Music');
    await page.waitForURL('**/business/home');

    // Two businesses now: the header switches between them.
    await page.getByRole('button', { name: /your account/ }).click();
    await page.getByRole('menuitem', { name: 'Bayside Dance' }).click();
    await page.waitForURL('**/business/home');
    await page.getByRole('button', { name: /your account/ }).click();
    expect(await page.getByRole('menuitem', { name: 'Bayside Dance' }).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Escape');

    // The link worked once.
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByText(/You already accepted this invitation/).waitFor();
    await page.close();
  });
});
