import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirm, errorOf, get, latestCode, post, registeredUser, signUp } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

/** Issue 35 point 15: confirming the sign-up code signs the person in; no second sign-in. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function sessionsOf(email: string): Promise<number> {
  const rows = await t.runtime.database.db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.id')
    .where('u.email', '=', email)
    .execute();
  return rows.length;
}

describe('confirming a sign-up', () => {
  it('answers with a session usable on /api/user, as a sign-in would', async () => {
    const email = 'confirmed-in@example.com';
    expect((await signUp(t.app, email)).statusCode).toBe(200);
    const res = await confirm(t.app, email, await latestCode(t.app, email));
    expect(res.statusCode, res.body).toBe(200);
    // The bearer token travels as a header, never as a cookie.
    expect(res.headers['set-cookie']).toBeUndefined();
    const token = res.headers['set-auth-token'];
    expect(typeof token).toBe('string');
    expect(token).toMatch(/\./);
    expect(res.json()).toMatchObject({ status: true, token: expect.any(String), user: { email, emailVerified: true } });

    const me = await get(t.app, '/api/user', token as string);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data).toMatchObject({ name: email, userState: 'Incomplete', businesses: [] });
    const session = await get(t.app, '/api/auth/get-session', token as string);
    expect(session.json()).toMatchObject({ user: { email, mustChangePassword: false } });
    // A real session: it counts as a sign-in, and signing out ends it.
    const user = await t.runtime.database.db.selectFrom('users').select('last_signed_in_at').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.last_signed_in_at).not.toBeNull();
    expect((await post(t.app, '/api/auth/sign-out', {}, token as string)).statusCode).toBe(200);
    expect((await get(t.app, '/api/user', token as string)).statusCode).toBe(401);
  });

  it('opens no session without the registration’s password', async () => {
    const email = 'confirm-wrong@example.com';
    await signUp(t.app, email, 'Owner-Pass-77');
    const res = await confirm(t.app, email, await latestCode(t.app, email), 'Not-The-Pass-1');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('CONFIRMATION_PASSWORD_MISMATCH');
    expect(res.headers['set-auth-token']).toBeUndefined();
    expect(await sessionsOf(email)).toBe(0);
  });

  it('a code asked for an address that is already confirmed signs nobody in', async () => {
    const email = 'already-confirmed@example.com';
    await registeredUser(t.app, email);
    const before = await sessionsOf(email);
    // Anyone may ask for a confirmation code for any address; only the mailbox gets it.
    expect((await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' })).statusCode).toBe(200);
    const res = await post(t.app, '/api/auth/email-otp/verify-email', { email, otp: await latestCode(t.app, email) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: true, token: null });
    expect(res.headers['set-auth-token']).toBeUndefined();
    expect(await sessionsOf(email)).toBe(before);
  });
});
