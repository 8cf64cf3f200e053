import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { baseUrl, ops, registerAccount, uniqueEmail, waitForCode } from './support/app';
import { approvedBusinessAccount, signInThroughForm } from './support/approved-business';
import { useBrowser } from './support/browser';

const browser = useBrowser();
const PASSWORD = 'Blue-Canyon-Morning-7';

describe('identity journeys', () => {
  it('sign up → code from the outbox → confirm, signed in → profile → sign out → sign in again', async () => {
    const page = await browser.newPage();
    const email = uniqueEmail('journey');
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/signup');

    // Empty inputs are refused before any request, with the spec's messages.
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Username cannot be empty').waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('password');
    await page.getByLabel('Confirm password').fill('password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('This password is one of the most commonly used').waitFor();

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    const code = await waitForCode(email, 'confirmation');
    await page.getByLabel('Confirmation code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    await page.getByText('That code is not right').waitFor();

    // The code (with the password typed at sign-up) signs the person in: straight on to the
    // profile they complete first, no second sign-in.
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    await page.waitForURL('**/business/user/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);

    // The session survives a reload: the token is kept and sent as a bearer token.
    const userCall = page.waitForRequest((r) => r.url().endsWith('/api/user'));
    await page.reload();
    const request = await userCall;
    expect(request.headers().authorization).toMatch(/^Bearer .+\..+/);
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();

    // Any business page is held on the profile until it is complete.
    await page.goto('/business/home');
    await page.waitForURL('**/business/user/profile');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.goto('/business/user/profile');
    await page.waitForURL('**/login');

    // Signing in later: a wrong password is refused, the right one goes back to the profile.
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-Password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Authentication Error').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByText('The e-mail address or password is not right.').waitFor();

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/business/user/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
  });

  it('an unconfirmed account can ask for a new code from the sign-in page', async () => {
    const email = uniqueEmail('unconfirmed');
    const started = new Date(Date.now() - 1000);
    const res = await fetch(`${baseUrl()}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl() },
      body: JSON.stringify({ email, password: PASSWORD, name: email }),
    });
    expect(res.ok).toBe(true);
    const first = await waitForCode(email, 'confirmation', started);

    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Confirm your e-mail address first').waitFor();
    const resentAt = new Date(Date.now() - 500);
    await page.getByRole('button', { name: 'Send me a new code' }).click();
    await page.waitForURL('**/signup/confirmation');
    await page.getByRole('heading', { name: 'We sent you a new code' }).waitFor();
    const second = await waitForCode(email, 'confirmation', resentAt);
    expect(second).toMatch(/^\d{6}$/);
    if (second !== first) expect(second).not.toBe(first);
    await page.getByLabel('Confirmation code').fill(second);
    await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
    // The password typed on the sign-in page came along: confirmed and signed in.
    await page.waitForURL('**/business/user/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
  });

  it('forgot password: code by e-mail, new password, then sign in with it', async () => {
    const email = uniqueEmail('forgot');
    await registerAccount(email, PASSWORD);
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const requested = new Date(Date.now() - 500);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.waitForURL('**/new-password');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();

    const code = await waitForCode(email, 'reset', requested);
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByLabel('New password', { exact: true }).fill('Fresh-River-Stone-9');
    await page.getByLabel('Confirm new password').fill('Fresh-River-Stone-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Password changed').waitFor();

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The e-mail address or password is not right.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('Fresh-River-Stone-9');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/business/user/profile');
  });

  it('new-password challenge: a user created by an operator is held until they choose a password', async () => {
    const email = uniqueEmail('invited');
    const output = await ops('create-user', '--email', email, '--first-name', 'Ivy');
    const temporary = output.match(/Temporary password: (\S+)/)?.[1];
    expect(temporary).toBeTruthy();

    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(temporary!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/new-password');
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();

    // Held: no business page is reachable meanwhile.
    await page.goto('/business/user/profile');
    await page.waitForURL('**/new-password');

    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByText('Password cannot be empty').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('My-Own-Choice-42');
    await page.getByLabel('Confirm new password').fill('My-Own-Choice-42');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.waitForURL('**/business/user/profile');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
  });

  it('reloading or typing an address while requests are in flight keeps the person signed in', async () => {
    // Chromium cancels a leaving page's requests as network failures; they must not count as
    // "no response" and sign the person out (this failed about one load in two before).
    const owner = await approvedBusinessAccount(uniqueEmail('reload'), PASSWORD, { businessName: 'Reload Studio' });
    const page = await browser.newPage();
    await signInThroughForm(page, owner.email, PASSWORD);
    await page.waitForURL(/\/business\/setup$/);
    // Hold the setup page's own requests so that each navigation cancels some in flight.
    await page.route('**/api/businesses/*/update/prepareSubmit', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue().catch(() => {});
    });
    const paths = ['/business/setup', '/business/payment/transactions/history'];
    for (let i = 0; i < 6; i++) {
      const path = paths[i % 2]!;
      const held = path === '/business/setup' ? page.waitForRequest('**/update/prepareSubmit') : null;
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === path);
      await page
        .getByRole('heading', { name: path.endsWith('history') ? 'Transaction history' : 'Business setup' })
        .first()
        .waitFor();
      await held;
      expect(new URL(page.url()).pathname).toBe(path);
    }
    const stillValid = await fetch(`${baseUrl()}/api/user`, {
      headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('tay.identityToken'))}` },
    });
    expect(stillValid.status).toBe(200);
  });
});
