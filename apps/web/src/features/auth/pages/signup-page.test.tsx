import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@tay/contract';
import { useSession } from '../../../lib/session';
import { readIdentityToken, writeIdentityToken } from '../../../lib/session-token';
import { fakeApiPerTest, renderAt } from '../../../test/page-harness';
import { SignupConfirmationPage } from './signup-confirmation-page';
import { SignupPage } from './signup-page';
import { SignupVerifiedPage } from './signup-verified-page';

const SIGN_UP = '/api/auth/sign-up/email';
const VERIFY = '/api/auth/email-otp/verify-email';
const SIGN_IN = '/api/auth/sign-in/email';
const EMAIL = 'new.person@biz.example';
const PASSWORD = 'Correct-Horse-42';
const USER = { id: 'usr_new', email: EMAIL, name: EMAIL, emailVerified: true, mustChangePassword: false };

/** Who the session says is signed in, on the page the person lands on. */
function ProfileProbe() {
  const session = useSession();
  return <p>Profile page for {session.user?.email ?? 'nobody'}</p>;
}

const routes = {
  [paths.signup]: <SignupPage />,
  [paths.signupConfirmation]: <SignupConfirmationPage />,
  [paths.signupVerified]: <SignupVerifiedPage />,
  [paths.business.userProfile]: <ProfileProbe />,
};

const fake = fakeApiPerTest();

async function signUpAndEnterCode() {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText('E-mail address'), EMAIL);
  await u.type(screen.getByLabelText('Password'), PASSWORD);
  await u.type(screen.getByLabelText('Confirm password'), PASSWORD);
  await u.click(screen.getByRole('button', { name: 'Create account' }));
  await u.type(await screen.findByLabelText('Confirmation code'), '123456');
  await u.click(screen.getByRole('button', { name: 'Confirm my e-mail address' }));
}

// Typing into the form takes a few seconds when the machine is busy.
describe('confirming a sign-up', { timeout: 30_000 }, () => {
  it('signs the person in with the code and goes on to their profile: no second sign-in', async () => {
    writeIdentityToken(null);
    fake.on('POST', SIGN_UP, { json: { token: null, user: { ...USER, emailVerified: false } } });
    fake.on('POST', VERIFY, { json: { status: true, token: 'tok', user: USER }, headers: { 'content-type': 'application/json', 'set-auth-token': 'tok.sig' } });
    renderAt(paths.signup, routes);
    await signUpAndEnterCode();

    expect(await screen.findByText(`Profile page for ${EMAIL}`)).toBeInTheDocument();
    expect(screen.getByLabelText('Location')).toHaveTextContent(paths.business.userProfile);
    expect(readIdentityToken()).toBe('tok.sig');
    expect(fake.callsTo('POST', VERIFY)[0]!.body).toEqual({ email: EMAIL, otp: '123456', password: PASSWORD });
    expect(fake.callsTo('POST', SIGN_IN)).toHaveLength(0);
  });

  it('without a session in the answer, confirms and asks the person to sign in', async () => {
    writeIdentityToken(null);
    fake.on('POST', SIGN_UP, { json: { token: null, user: { ...USER, emailVerified: false } } });
    fake.on('POST', VERIFY, { json: { status: true, token: null, user: USER } });
    renderAt(paths.signup, routes);
    await signUpAndEnterCode();

    expect(await screen.findByText('Your e-mail address is confirmed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', paths.login);
    expect(readIdentityToken()).toBeNull();
  });

  it('in another browser, asks for the password with the code, then signs in the same way', async () => {
    writeIdentityToken(null);
    fake.on('POST', VERIFY, { json: { status: true, token: 'tok', user: USER }, headers: { 'content-type': 'application/json', 'set-auth-token': 'tok.sig' } });
    const u = userEvent.setup();
    renderAt(paths.signupConfirmation, routes);
    await u.type(screen.getByLabelText('E-mail address'), EMAIL);
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    await u.type(await screen.findByLabelText('Confirmation code'), '654321');
    await u.click(screen.getByRole('button', { name: 'Confirm my e-mail address' }));
    expect(await screen.findByText('Password cannot be empty')).toBeInTheDocument();
    expect(fake.callsTo('POST', VERIFY)).toHaveLength(0);

    await u.type(screen.getByLabelText('Password'), PASSWORD);
    await u.click(screen.getByRole('button', { name: 'Confirm my e-mail address' }));
    expect(await screen.findByText(`Profile page for ${EMAIL}`)).toBeInTheDocument();
    expect(fake.callsTo('POST', VERIFY)[0]!.body).toEqual({ email: EMAIL, otp: '654321', password: PASSWORD });
    expect(readIdentityToken()).toBe('tok.sig');
  });
});
