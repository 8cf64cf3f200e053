import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { currentStep, fromBase32, totpOfStep } from '../apps/api/test/support/totp';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { outbox, uniqueEmail } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

// The second factor (ADR 052): a person turns an authenticator app on from the Security page (the
// QR code, the key as text, the recovery codes, confirmed with the app's first code), signs out,
// and signs in again with a code; on a 390 px phone, with a recovery code.

const browser = useBrowser();
const PASSWORD = 'Amber-Quarry-Lantern-4';
const PHONE = { width: 390, height: 844 };

/** The code an authenticator app shows for `key` in the next time step: a step the enrolment's code did not use. */
function nextCode(key: Buffer, after: number): string {
  return totpOfStep(key, Math.max(currentStep(), after + 1));
}

/** Turns the app on from the Security page; answers the key, the step its first code used, and the recovery codes. */
async function enrol(page: Page): Promise<{ key: Buffer; step: number; codes: string[] }> {
  await page.goto('/business/settings/security');
  const card = page.getByRole('region', { name: 'Authenticator app' });
  await card.getByText('Off', { exact: true }).waitFor();
  await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const prompt = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await prompt.getByLabel('Your password').fill(PASSWORD);
  await prompt.getByRole('button', { name: 'Continue' }).click();
  const form = page.getByRole('form', { name: 'Set up the authenticator app' });
  await form.getByRole('img', { name: 'QR code of your authenticator secret' }).waitFor();
  const secret = (await form.locator('code').first().innerText()).replace(/\s+/g, '');
  const codes = (await form.getByRole('region', { name: 'Recovery codes' }).locator('code').allInnerTexts()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await expectNoSeriousA11yViolations(page, 'the authenticator set-up');
  const key = fromBase32(secret);
  const step = currentStep();
  await form.getByLabel('Authentication code').fill(totpOfStep(key, step));
  await form.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Signing in now asks for a code from the app.').waitFor();
  await card.getByText('On', { exact: true }).waitFor();
  return { key, step, codes };
}

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => window.localStorage.removeItem('tay.identityToken'));
  await page.goto('/login');
}

describe('a second factor', () => {
  it('an owner turns on an authenticator app, signs out, and signs in with a code from it', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('totp'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    const { key, step } = await enrol(page);
    const mail = (await outbox(owner.email)).find((m) => /authenticator|two-step|second factor/i.test(m.subject));
    expect(mail, 'the person is e-mailed that it was turned on').toBeTruthy();

    await signOut(page);
    await signInThroughForm(page, owner.email, PASSWORD);
    const step2 = page.getByRole('form', { name: 'Second factor' });
    await step2.getByText(`Open your authenticator app and enter the code for Tay (${owner.email}).`).waitFor();
    await expectNoSeriousA11yViolations(page, 'the second-factor step');
    // The enrolment's code was accepted once: a sign-in takes the next one (the app's clock may run a step ahead).
    await step2.getByLabel('Authentication code').fill(nextCode(key, step));
    await step2.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(/\/business\/setup$/);
  });

  it('on a 390 px phone, a recovery code signs in once', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('totp-phone'), PASSWORD, { businessName: 'Harbor Music' });
    const page = await browser.newPage({ viewport: PHONE });
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    const { codes } = await enrol(page);
    await signOut(page);
    await signInThroughForm(page, owner.email, PASSWORD);
    const step = page.getByRole('form', { name: 'Second factor' });
    await step.getByRole('button', { name: 'Use a recovery code' }).click();
    await step.getByLabel('Recovery code').fill(codes[0]!);
    await step.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(/\/business\/setup$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The same code a second time is refused.
    await signOut(page);
    await signInThroughForm(page, owner.email, PASSWORD);
    const again = page.getByRole('form', { name: 'Second factor' });
    await again.getByRole('button', { name: 'Use a recovery code' }).click();
    await again.getByLabel('Recovery code').fill(codes[0]!);
    await again.getByRole('button', { name: 'Verify and sign in' }).click();
    await again.getByRole('alert').waitFor();
    expect(page.url()).toMatch(/\/login/);
  });

  it('an owner signs the other devices out from the Security page, and the other device is signed out', async () => {
    const owner = await approvedBusinessAccount(uniqueEmail('devices'), PASSWORD, { businessName: 'Harbor Music' });
    const other = await browser.newPage({ viewport: PHONE });
    await signInThroughForm(other, owner.email, PASSWORD);
    await other.waitForURL(/\/business\/setup$/);
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    await page.goto('/business/settings/security');
    const devices = page.getByRole('region', { name: 'Signed-in devices' });
    await devices.getByText('This device').waitFor();
    await expectNoSeriousA11yViolations(page, 'the signed-in devices');
    await devices.getByRole('button', { name: 'Sign out all other devices' }).click();
    await page.getByRole('dialog', { name: 'Sign out every other device?' }).getByRole('button', { name: 'Sign out the others' }).click();
    await page.getByText(/other devices? (is|are) signed out\.$/).waitFor();
    await expect.poll(() => devices.getByRole('row').count()).toBe(2);
    // The other device's next page asks it to sign in again.
    await other.goto('/business/home');
    await other.waitForURL(/\/login/);
  });
});
