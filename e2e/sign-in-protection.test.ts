import { describe, expect, it } from 'vitest';
import { baseUrl, outbox, registerAccount, uniqueEmail, waitForCode } from './support/app';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Quiet-Harbor-Lantern-4';

/** A sign-in attempt from another place on the internet (the server trusts X-Forwarded-For here). */
function signInFrom(source: string, email: string, password: string) {
  return fetch(`${baseUrl()}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl(), 'x-forwarded-for': source },
    body: JSON.stringify({ email, password }),
  });
}

describe('signing in while someone guesses the password', () => {
  it('the owner signs in with the e-mailed code while strangers are refused, and is warned once', async () => {
    const email = uniqueEmail('besieged');
    await registerAccount(email, PASSWORD);

    // Twenty wrong passwords from four places: the account's limit from everywhere.
    for (let source = 1; source <= 4; source++) {
      for (let i = 0; i < 5; i++) expect((await signInFrom(`198.51.100.${source}`, email, `Guess-${source}-${i}-zzz`)).status).toBe(401);
    }

    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const askedAt = new Date(Date.now() - 1000);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Check your e-mail').waitFor();
    await page.getByText('Someone has been trying to sign in to this account').waitFor();

    // Without the code nothing happens; a wrong code gets the same answer as a wrong password.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter the 6-digit code from the e-mail.').waitFor();
    const code = await waitForCode(email, 'sign-in', askedAt);
    await page.getByLabel('Sign-in code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The password or the code is not right').waitFor();

    // Asking again within 5 minutes sends nothing new: the code already e-mailed still works.
    await page.getByRole('button', { name: 'E-mail me a new code' }).click();
    await page.getByText('less than 5 minutes ago').waitFor();

    await page.getByLabel('Sign-in code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/business/user/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();

    // The places that kept guessing are refused; the owner was told once.
    for (let i = 0; i < 5; i++) await signInFrom('198.51.100.1', email, `Guess-more-${i}-zzz`);
    const refused = await signInFrom('198.51.100.1', email, PASSWORD);
    expect(refused.status).toBe(429);
    const mail = await outbox(email);
    expect(mail.filter((m) => m.subject === 'Someone is trying to sign in to your Tay account')).toHaveLength(1);
    expect(mail.filter((m) => m.subject.startsWith('Your Tay sign-in code:'))).toHaveLength(1);
  });
});
