// PostgreSQL pass: sessions stored in the database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUserByOperator } from '../../src/domain/users/create-user-by-operator';
import { confirm, errorOf, get, latestCode, post, registeredUser, signIn, signUp } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('sign-up, confirmation code, sign-in', () => {
  it('a new user signs up, confirms the e-mailed code, signs in and reads /api/user', async () => {
    const email = 'ana@example.com';
    const res = await signUp(t.app, 'Ana@Example.com');
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();

    const outbox = (await get(t.app, `/api/dev/outbox?to=${email}`)).json();
    expect(outbox).toHaveLength(1);
    expect(outbox[0].subject).toMatch(/^Your Tay confirmation code: \d{6}$/);
    expect(outbox[0].text).toContain('expires in 10 minutes');

    const unconfirmed = await signIn(t.app, email);
    expect(unconfirmed.statusCode).toBe(403);
    expect(errorOf(unconfirmed)).toEqual({
      code: 'EMAIL_NOT_VERIFIED',
      message: 'Confirm your e-mail address first: enter the 6-digit code we sent you, or ask for a new one.',
    });

    const code = await latestCode(t.app, email);
    expect((await confirm(t.app, email, code)).statusCode).toBe(200);

    const signedIn = await signIn(t.app, email);
    expect(signedIn.statusCode).toBe(200);
    const token = signedIn.headers['set-auth-token'] as string;
    expect(token).toMatch(/\./);

    const me = await get(t.app, '/api/user', token);
    expect(me.statusCode).toBe(200);
    const body = me.json();
    expect(body.status).toBe('Success');
    expect(body.data).toMatchObject({
      name: email,
      userState: 'Incomplete',
      firstName: null,
      lastName: null,
      mobileNumber: null,
      enrollNotificationViaEmail: true,
      enrollNotificationViaMobileNumber: false,
      businesses: [],
    });
    expect(body.data.userId).toMatch(/^usr_/);
    expect(Number.isNaN(Date.parse(body.data.createdAt))).toBe(false);
  });

  it('GET /api/user without a valid session is 401 in the error shape', async () => {
    for (const token of [undefined, 'not-a-token', 'abc.def']) {
      const res = await get(t.app, '/api/user', token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'Error', errorDetails: { code: 'UNAUTHORIZED', message: 'Sign in to continue.' } });
    }
  });

  it('stores codes hashed, never as typed', async () => {
    await signUp(t.app, 'hash@example.com');
    const code = await latestCode(t.app, 'hash@example.com');
    const rows = await t.runtime.database.db.selectFrom('verifications').select('value').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.value).not.toContain(code);
  });

  it('a wrong code is refused, and three wrong tries burn the code', async () => {
    const email = 'burn@example.com';
    await signUp(t.app, email);
    const code = await latestCode(t.app, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      const res = await confirm(t.app, email, wrong);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('INVALID_OTP');
    }
    const burned = await confirm(t.app, email, code);
    expect(burned.statusCode).toBe(403);
    expect(errorOf(burned)).toEqual({
      code: 'TOO_MANY_ATTEMPTS',
      message: 'That code was entered wrongly too many times and no longer works. Ask for a new one.',
    });
    // A resent code works.
    expect((await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' })).statusCode).toBe(200);
    const fresh = await latestCode(t.app, email);
    expect((await confirm(t.app, email, fresh)).statusCode).toBe(200);
  });

  it('an expired code is refused', async () => {
    const email = 'late@example.com';
    await signUp(t.app, email);
    const code = await latestCode(t.app, email);
    await t.runtime.database.db
      .updateTable('verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('identifier', '=', `email-verification-otp-${email}`)
      .execute();
    const res = await confirm(t.app, email, code);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('OTP_EXPIRED');
  });

  it('a resent code replaces the previous one', async () => {
    const email = 'resend@example.com';
    await signUp(t.app, email);
    const first = await latestCode(t.app, email);
    await new Promise((r) => setTimeout(r, 5));
    await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' });
    const second = await latestCode(t.app, email);
    if (first !== second) expect((await confirm(t.app, email, first)).statusCode).toBe(400);
    expect((await confirm(t.app, email, second)).statusCode).toBe(200);
  });

  it('refuses weak and common passwords at sign-up', async () => {
    const short = await signUp(t.app, 'weak@example.com', 'Ab1!');
    expect(short.statusCode).toBe(400);
    expect(errorOf(short)).toEqual({ code: 'WEAK_PASSWORD', message: 'Use at least 8 characters.' });
    const common = await signUp(t.app, 'weak@example.com', 'password123');
    expect(errorOf(common).code).toBe('WEAK_PASSWORD');
    expect(errorOf(common).message).toMatch(/commonly used/);
    const long = await signUp(t.app, 'weak@example.com', 'a quite long but perfectly memorable pass phrase'.repeat(2));
    expect(long.statusCode).toBe(200);
  });

  it('a refused password is answered, not written to the console as an error', async () => {
    const consoleLines = (['error', 'warn', 'log'] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
    try {
      const common = await signUp(t.app, 'quiet@example.com', 'password123');
      expect(errorOf(common).code).toBe('WEAK_PASSWORD');
      const wrongCode = await confirm(t.app, 'quiet@example.com', '000000');
      expect(wrongCode.statusCode).toBe(400);
      for (const spy of consoleLines) expect(spy.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      for (const spy of consoleLines) spy.mockRestore();
    }
  });

  it('sign-up with an address that already has an account reveals nothing and tells the owner by e-mail', async () => {
    const email = 'owner@example.com';
    await registeredUser(t.app, email);
    const again = await signUp(t.app, email, 'Another-Password-9');
    expect(again.statusCode).toBe(200);
    const mail = (await get(t.app, `/api/dev/outbox?to=${email}`)).json();
    expect(mail[0].subject).toBe('You already have a Tay account');
    expect((await signIn(t.app, email, 'Another-Password-9')).statusCode).toBe(401);
    expect((await signIn(t.app, email)).statusCode).toBe(200);
  });

  it('only the endpoints the product uses are reachable', async () => {
    for (const [method, url] of [
      ['POST', '/api/auth/sign-in/email-otp'],
      ['POST', '/api/auth/update-user'],
      ['POST', '/api/auth/delete-user'],
      ['GET', '/api/auth/list-sessions'],
      ['GET', '/api/auth/sign-in/email'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().status).toBe('Error');
    }
    const signInCode = await post(t.app, '/api/auth/email-otp/send-verification-otp', { email: 'a@example.com', type: 'sign-in' });
    expect(errorOf(signInCode).code).toBe('UNSUPPORTED_CODE_TYPE');
  });
});

describe('the real owner of an e-mail always wins', () => {
  it("a squatter's unconfirmed sign-up is replaced, and their password never works", async () => {
    const email = 'victim@example.com';
    expect((await signUp(t.app, email, 'Squatter-Pass-1')).statusCode).toBe(200);
    expect((await signUp(t.app, email, 'Owner-Pass-77')).statusCode).toBe(200);
    const code = await latestCode(t.app, email);
    expect((await confirm(t.app, email, code, 'Owner-Pass-77')).statusCode).toBe(200);
    expect((await signIn(t.app, email, 'Squatter-Pass-1')).statusCode).toBe(401);
    expect((await signIn(t.app, email, 'Owner-Pass-77')).statusCode).toBe(200);
  });

  it('a code cannot confirm a sign-up the mailbox owner did not make', async () => {
    const email = 'victim2@example.com';
    await signUp(t.app, email, 'Owner-Pass-77');
    // The squatter signs up again after the owner; the owner then types the newest code.
    await signUp(t.app, email, 'Squatter-Pass-1');
    const code = await latestCode(t.app, email);
    const res = await confirm(t.app, email, code, 'Owner-Pass-77');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('CONFIRMATION_PASSWORD_MISMATCH');
    expect((await signIn(t.app, email, 'Squatter-Pass-1')).statusCode).toBe(403);
  });
});

describe('sign-out', () => {
  it('ends the session on the server: the token stops working', async () => {
    const token = await registeredUser(t.app, 'bye@example.com');
    expect((await get(t.app, '/api/user', token)).statusCode).toBe(200);
    expect((await post(t.app, '/api/auth/sign-out', {}, token)).statusCode).toBe(200);
    expect((await get(t.app, '/api/user', token)).statusCode).toBe(401);
  });
});

describe('forgot password', () => {
  it('answers the same for unknown and known addresses', async () => {
    await registeredUser(t.app, 'known@example.com');
    const known = await post(t.app, '/api/auth/email-otp/request-password-reset', { email: 'known@example.com' });
    const unknown = await post(t.app, '/api/auth/email-otp/request-password-reset', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    expect((await get(t.app, '/api/dev/outbox?to=nobody@example.com')).json()).toEqual([]);
  });

  it('a code and a new password reset it, end every session, and the code works once', async () => {
    const email = 'forgot@example.com';
    const token = await registeredUser(t.app, email);
    await post(t.app, '/api/auth/email-otp/request-password-reset', { email });
    const code = await latestCode(t.app, email, 'reset');

    const weak = await post(t.app, '/api/auth/email-otp/reset-password', { email, otp: code, password: 'qwerty123' });
    expect(errorOf(weak).code).toBe('WEAK_PASSWORD');

    const reset = await post(t.app, '/api/auth/email-otp/reset-password', { email, otp: code, password: 'Brand-New-Secret-5' });
    expect(reset.statusCode).toBe(200);
    expect((await get(t.app, '/api/user', token)).statusCode).toBe(401);
    expect((await signIn(t.app, email)).statusCode).toBe(401);
    expect((await signIn(t.app, email, 'Brand-New-Secret-5')).statusCode).toBe(200);

    const reused = await post(t.app, '/api/auth/email-otp/reset-password', { email, otp: code, password: 'Another-Secret-6' });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused).code).toBe('INVALID_OTP');
  });
});

describe('new-password-required challenge', () => {
  it('holds a user created by someone else until they choose a password', async () => {
    const created = await createUserByOperator({ db: t.runtime.database.db, email: 'invited@example.com', firstName: 'Ivy' });
    const res = await signIn(t.app, 'invited@example.com', created.temporaryPassword);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.mustChangePassword).toBe(true);
    const token = res.headers['set-auth-token'] as string;

    const held = await get(t.app, '/api/user', token);
    expect(held.statusCode).toBe(403);
    expect(errorOf(held)).toEqual({ code: 'NEW_PASSWORD_REQUIRED', message: 'Choose a new password to continue.' });

    const empty = await post(t.app, '/api/auth/complete-new-password', { newPassword: '' }, token);
    expect(errorOf(empty).fields).toEqual({ newPassword: 'Challenge response cannot be empty' });
    const weak = await post(t.app, '/api/auth/complete-new-password', { newPassword: 'letmein1' }, token);
    expect(weak.statusCode).toBe(400);

    const done = await post(t.app, '/api/auth/complete-new-password', { newPassword: 'My-Own-Secret-3' }, token);
    expect(done.statusCode).toBe(200);
    expect((await get(t.app, '/api/user', token)).statusCode).toBe(200);
    expect((await signIn(t.app, 'invited@example.com', created.temporaryPassword)).statusCode).toBe(401);
    expect((await signIn(t.app, 'invited@example.com', 'My-Own-Secret-3')).statusCode).toBe(200);

    const again = await post(t.app, '/api/auth/complete-new-password', { newPassword: 'Yet-Another-4' }, token);
    expect(again.statusCode).toBe(409);
  });

  it('refuses an expired temporary password', async () => {
    const created = await createUserByOperator({ db: t.runtime.database.db, email: 'stale@example.com' });
    await t.runtime.database.db
      .updateTable('users')
      .set({ temporary_password_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', created.userId)
      .execute();
    const res = await signIn(t.app, 'stale@example.com', created.temporaryPassword);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('TEMPORARY_PASSWORD_EXPIRED');
  });

  it('a password reset also meets the challenge', async () => {
    await createUserByOperator({ db: t.runtime.database.db, email: 'resetter@example.com' });
    await post(t.app, '/api/auth/email-otp/request-password-reset', { email: 'resetter@example.com' });
    const code = await latestCode(t.app, 'resetter@example.com', 'reset');
    await post(t.app, '/api/auth/email-otp/reset-password', { email: 'resetter@example.com', otp: code, password: 'Chosen-By-Me-12' });
    const res = await signIn(t.app, 'resetter@example.com', 'Chosen-By-Me-12');
    expect(res.json().user.mustChangePassword).toBe(false);
    expect((await get(t.app, '/api/user', res.headers['set-auth-token'] as string)).statusCode).toBe(200);
  });
});
