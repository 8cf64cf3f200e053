import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, FakeApi, renderAt } from '../../../test/page-harness';
import { LoginPage } from './login-page';

const SIGN_IN = '/api/auth/sign-in/email';
const CODE_SENT =
  'Someone has been trying to sign in to this account, so we need to check it is you. We have e-mailed a 6-digit code to this address: enter it with your password. It may take a minute to arrive.';
const CODE_SENT_EARLIER =
  'Someone has been trying to sign in to this account, so we need to check it is you. We e-mailed a 6-digit code to this address less than 5 minutes ago: enter the code from the newest e-mail from Tay with your password. You can ask for another in 4 minutes.';
const SIGNED_IN = {
  json: {
    redirect: false,
    token: 'tok',
    user: { id: 'usr_1', email: 'owner@biz.example', name: 'owner@biz.example', emailVerified: true, mustChangePassword: false },
  },
  headers: { 'content-type': 'application/json', 'set-auth-token': 'tok.sig' },
};

let api: FakeApi;
beforeEach(() => {
  api = new FakeApi();
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

function renderLogin() {
  renderAt('/login', { '/login': <LoginPage />, '/business/setup': <p>Setup page</p> });
}

async function fillAndSignIn(email = 'owner@biz.example', password = 'Correct-Horse-42') {
  await userEvent.type(screen.getByLabelText('E-mail address'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

// Typing into the form takes a few seconds when the machine is busy.
describe('signing in when someone has been guessing the password', { timeout: 30_000 }, () => {
  it('asks for the e-mailed code, refuses to go on without it, then signs in with password and code', async () => {
    api.on('POST', SIGN_IN, (call) => ((call.body as { code?: string }).code === '123456' ? SIGNED_IN : apiError(401, 'SIGN_IN_CODE_REQUIRED', CODE_SENT)));
    renderLogin();
    expect(screen.queryByLabelText('Sign-in code')).not.toBeInTheDocument();
    await fillAndSignIn();

    expect(await screen.findByText(CODE_SENT)).toBeInTheDocument();
    expect(screen.getByText(CODE_SENT).closest('[role="status"]')).toHaveTextContent('Check your e-mail');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter the 6-digit code from the e-mail.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Sign-in code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter all 6 digits of the code.')).toBeInTheDocument();
    expect(api.callsTo('POST', SIGN_IN)).toHaveLength(1);

    await userEvent.type(screen.getByLabelText('Sign-in code'), '456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Setup page')).toBeInTheDocument();
    expect(api.callsTo('POST', SIGN_IN)[1]!.body).toEqual({ email: 'owner@biz.example', password: 'Correct-Horse-42', code: '123456' });
  });

  it('says so when the password or the code is wrong, and keeps the code step', async () => {
    const message = 'The password or the code is not right, or the code has expired. Check both, or ask for a new code.';
    api.on('POST', SIGN_IN, (call) =>
      (call.body as { code?: string }).code ? apiError(401, 'INVALID_PASSWORD_OR_CODE', message) : apiError(401, 'SIGN_IN_CODE_REQUIRED', CODE_SENT),
    );
    renderLogin();
    await fillAndSignIn();
    await userEvent.type(await screen.findByLabelText('Sign-in code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Sign-in code')).toBeInTheDocument();
  });

  it('asks for a new code without one, and shows what the server says about it', async () => {
    let asked = 0;
    api.on('POST', SIGN_IN, () => apiError(401, 'SIGN_IN_CODE_REQUIRED', asked++ === 0 ? CODE_SENT : CODE_SENT_EARLIER));
    renderLogin();
    await fillAndSignIn();
    await userEvent.type(await screen.findByLabelText('Sign-in code'), '999999');
    await userEvent.click(screen.getByRole('button', { name: 'E-mail me a new code' }));
    expect(await screen.findByText(CODE_SENT_EARLIER)).toBeInTheDocument();
    expect(api.callsTo('POST', SIGN_IN)[1]!.body).toEqual({ email: 'owner@biz.example', password: 'Correct-Horse-42' });
    expect(screen.getByLabelText('Sign-in code')).toHaveValue('');
  });

  it('leaves the code step when another address is typed', async () => {
    api.on('POST', SIGN_IN, apiError(401, 'SIGN_IN_CODE_REQUIRED', CODE_SENT));
    renderLogin();
    await fillAndSignIn();
    await screen.findByLabelText('Sign-in code');
    await userEvent.type(screen.getByLabelText('E-mail address'), 'x');
    await waitFor(() => expect(screen.queryByLabelText('Sign-in code')).not.toBeInTheDocument());
  });

  it('shows the wait when this place has made too many attempts', async () => {
    const message = 'Too many attempts. For your security, please wait 15 minutes before trying again.';
    api.on('POST', SIGN_IN, apiError(429, 'RATE_LIMITED', message));
    renderLogin();
    await fillAndSignIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByLabelText('Sign-in code')).not.toBeInTheDocument();
  });
});
/** Puts text into a field in one go (typing it key by key is slow on a busy machine). */
async function enter(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}
const user = { id: 'usr_1', email: 'maya@harbor.example', name: 'maya@harbor.example', emailVerified: true, mustChangePassword: false };

describe('LoginPage', () => {
  it('names each empty field, focuses the first, and sends nothing', async () => {
    renderAt('/login', { '/login': <LoginPage /> });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username cannot be empty')).toBeInTheDocument();
    expect(screen.getByText('Password cannot be empty')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toHaveFocus();
    expect(api.callsTo('POST', SIGN_IN)).toHaveLength(0);
  });

  it('checks the fields again as they change once a sign-in was tried', async () => {
    renderAt('/login', { '/login': <LoginPage /> });
    await enter(screen.getByLabelText('E-mail address'), 'maya@');
    expect(screen.queryByText('Enter your e-mail address, like name@example.com.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address, like name@example.com.')).toBeInTheDocument();
    await enter(screen.getByLabelText('E-mail address'), 'harbor.example');
    await waitFor(() => expect(screen.queryByText('Enter your e-mail address, like name@example.com.')).not.toBeInTheDocument());
    expect(screen.getByText('Password cannot be empty')).toBeInTheDocument();
    await enter(screen.getByLabelText('Password', { exact: true }), 'x');
    await waitFor(() => expect(screen.queryByText('Password cannot be empty')).not.toBeInTheDocument());
  });

  it('signs in with the address trimmed and goes to the setup', async () => {
    api.on('POST', SIGN_IN, { json: { user }, headers: { 'content-type': 'application/json', 'set-auth-token': 'tok_1' } });
    renderAt('/login', { '/login': <LoginPage />, '/business/setup': <p>Setup</p> });
    await enter(screen.getByLabelText('E-mail address'), '  maya@harbor.example ');
    await enter(screen.getByLabelText('Password', { exact: true }), 'Harbor-Password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Setup')).toBeInTheDocument();
    expect(api.callsTo('POST', SIGN_IN).map((c) => c.body)).toEqual([{ email: 'maya@harbor.example', password: 'Harbor-Password-1' }]);
  });

  it('says why a sign-in was refused', async () => {
    api.on('POST', SIGN_IN, { status: 401, json: { status: 'Error', errorDetails: { code: 'INVALID_CREDENTIALS', message: 'Invalid e-mail or password.' } } });
    renderAt('/login', { '/login': <LoginPage /> });
    await enter(screen.getByLabelText('E-mail address'), 'maya@harbor.example');
    await enter(screen.getByLabelText('Password', { exact: true }), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid e-mail or password.', { exact: false })).toBeInTheDocument();
  });
});

describe('signing in with a second factor (ADR 052)', { timeout: 30_000 }, () => {
  const VERIFY = '/api/auth/two-factor/verify-totp';
  const RECOVER = '/api/auth/two-factor/verify-backup-code';
  const PENDING = {
    json: { twoFactorRedirect: true, twoFactorMethods: ['totp'] },
    headers: { 'content-type': 'application/json', 'set-two-factor-token': 'pending.sig' },
  };
  afterEach(() => window.localStorage.clear());

  it('asks for the app’s code after the password, sends it with the pending token, and keeps a trusted device for the next sign-in', async () => {
    api.on('POST', SIGN_IN, PENDING);
    api.on('POST', VERIFY, { ...SIGNED_IN, headers: { ...SIGNED_IN.headers, 'set-trust-device-token': 'trust.sig' } });
    renderLogin();
    await fillAndSignIn();
    const step = await screen.findByRole('form', { name: 'Second factor' });
    expect(step).toHaveTextContent('Open your authenticator app and enter the code for Tay (owner@biz.example).');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows.')).toBeInTheDocument();
    expect(api.callsTo('POST', VERIFY)).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByLabelText('Trust this device for 30 days'));
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('Setup page')).toBeInTheDocument();
    const verify = api.callsTo('POST', VERIFY)[0]!;
    expect(verify.body).toEqual({ code: '123456', trustDevice: true });
    expect(verify.headers['x-two-factor-token']).toBe('pending.sig');
    expect(window.localStorage.getItem('tay.trust-device.owner@biz.example')).toBe('trust.sig');
  });

  it('takes a recovery code instead, and shows a refused code without leaving the step', async () => {
    api.on('POST', SIGN_IN, PENDING);
    api.on('POST', RECOVER, (call) =>
      (call.body as { code: string }).code === 'abcde-12345'
        ? SIGNED_IN
        : apiError(401, 'INVALID_BACKUP_CODE', 'That recovery code is not right or was used already.'),
    );
    renderLogin();
    await fillAndSignIn();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'wrong-code');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('That recovery code is not right or was used already.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Recovery code'));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-12345');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('Setup page')).toBeInTheDocument();
    expect(api.callsTo('POST', RECOVER)[1]!.body).toEqual({ code: 'abcde-12345', trustDevice: false });
  });

  it('on a trusted device, signs in again with its token beside the password, without asking for the code', async () => {
    window.localStorage.setItem('tay.trust-device.owner@biz.example', 'trust.sig');
    api.on('POST', SIGN_IN, (call) =>
      call.headers['x-trust-device-token'] === 'trust.sig'
        ? { ...SIGNED_IN, headers: { ...SIGNED_IN.headers, 'set-trust-device-token': 'trust.renewed' } }
        : PENDING,
    );
    renderLogin();
    await fillAndSignIn();
    expect(await screen.findByText('Setup page')).toBeInTheDocument();
    const calls = api.callsTo('POST', SIGN_IN);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body).toEqual({ email: 'owner@biz.example', password: 'Correct-Horse-42' });
    // Each use renews the token.
    expect(window.localStorage.getItem('tay.trust-device.owner@biz.example')).toBe('trust.renewed');
    expect(api.callsTo('POST', '/api/auth/two-factor/verify-totp')).toHaveLength(0);
  });

  it('forgets a trusted device’s token the server no longer takes, and asks for the code', async () => {
    window.localStorage.setItem('tay.trust-device.owner@biz.example', 'stale.sig');
    api.on('POST', SIGN_IN, PENDING);
    renderLogin();
    await fillAndSignIn();
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('tay.trust-device.owner@biz.example')).toBeNull());
  });

  it('goes back to the password when the pending sign-in has lapsed, saying why', async () => {
    api.on('POST', SIGN_IN, PENDING);
    api.on('POST', VERIFY, apiError(401, 'INVALID_TWO_FACTOR_COOKIE', 'This sign-in has expired or is already complete. Sign in again with your password.'));
    renderLogin();
    await fillAndSignIn();
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('This sign-in has expired or is already complete. Sign in again with your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });
});
