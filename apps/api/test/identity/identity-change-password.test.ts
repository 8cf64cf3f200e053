import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, get, GOOD_PASSWORD, post, registeredUser, signIn } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

// Each test hashes and checks several passwords (about a second each on a busy machine).
const SLOW = 120_000;

describe('change password', () => {
  it(
    'needs the current password, then the new one is the only one that works',
    async () => {
      const email = 'change@example.com';
      const token = await registeredUser(t.app, email);
      const wrong = await post(t.app, '/api/auth/change-password', { currentPassword: 'nope-nope-nope', newPassword: 'Next-Secret-88' }, token);
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong)).toEqual({
        code: 'INVALID_PASSWORD',
        message: 'Your current password is not right.',
        fields: { currentPassword: 'Your current password is not right.' },
      });
      const weak = await post(t.app, '/api/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'password123' }, token);
      expect(weak.statusCode).toBe(400);
      expect(errorOf(weak).code).toBe('WEAK_PASSWORD');
      expect(errorOf(weak).fields?.newPassword).toMatch(/commonly used/);
      const empty = await post(t.app, '/api/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: '' }, token);
      expect(empty.statusCode).toBe(400);
      expect(errorOf(empty).fields).toEqual({ newPassword: 'Password cannot be empty' });
      expect((await post(t.app, '/api/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'Next-Secret-88' })).statusCode).toBe(401);

      const ok = await post(t.app, '/api/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'Next-Secret-88' }, token);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ status: true });
      expect((await signIn(t.app, email)).statusCode).toBe(401);
      expect((await signIn(t.app, email, 'Next-Secret-88')).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'ends every other session by default; the one that changed it stays signed in',
    async () => {
      const email = 'two-devices@example.com';
      const laptop = await registeredUser(t.app, email);
      const phone = (await signIn(t.app, email)).headers['set-auth-token'] as string;
      expect((await get(t.app, '/api/user', phone)).statusCode).toBe(200);

      const ok = await post(t.app, '/api/auth/change-password', { currentPassword: GOOD_PASSWORD, newPassword: 'Next-Secret-88' }, laptop);
      expect(ok.statusCode).toBe(200);
      expect((await get(t.app, '/api/user', phone)).statusCode).toBe(401);
      expect((await get(t.app, '/api/user', laptop)).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'keeps the other sessions when asked to with revokeOtherSessions: false',
    async () => {
      const email = 'keep-devices@example.com';
      const laptop = await registeredUser(t.app, email);
      const phone = (await signIn(t.app, email)).headers['set-auth-token'] as string;
      const ok = await post(
        t.app,
        '/api/auth/change-password',
        { currentPassword: GOOD_PASSWORD, newPassword: 'Next-Secret-88', revokeOtherSessions: false },
        laptop,
      );
      expect(ok.statusCode).toBe(200);
      expect((await get(t.app, '/api/user', phone)).statusCode).toBe(200);
      expect((await get(t.app, '/api/user', laptop)).statusCode).toBe(200);
      const bad = await post(
        t.app,
        '/api/auth/change-password',
        { currentPassword: 'Next-Secret-88', newPassword: 'Third-Secret-77', revokeOtherSessions: 'no' },
        laptop,
      );
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(errorOf(bad).fields ?? {})).toEqual(['revokeOtherSessions']);
    },
    SLOW,
  );
});
