// PostgreSQL pass: each code is claimed once by one conditional UPDATE, and wrong codes are counted in rate_limits, across replicas.
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { secretConfigOf } from '../../src/auth/better-auth';
import { resealTwoFactors } from '../../src/domain/users/reseal-two-factors';
import { COMMANDS } from '../../src/ops/commands';
import { errorOf, get, GOOD_PASSWORD, post, registeredUser } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';
import { currentStep, keyOfUri, totpAt, totpOfStep } from '../support/totp';

/**
 * The second factor (ADR 052) through the real server: an authenticator app, whose codes the
 * test computes from the enrolment's secret with its own RFC 6238, and ten recovery codes.
 */

let t: TestApp;
beforeAll(async () => {
  // Every sign-in here comes from one address: the per-address limits are not what is tested.
  t = await createTestApp({ AUTH_IP_RATE_LIMIT_SCALE: '20' });
});
afterAll(async () => t?.close());

// Password hashing on a busy two-core machine: each test signs up and in several times.
const SLOW = 120_000;

interface Enrolled {
  email: string;
  userId: string;
  /** The session the enrolment left (enabling replaced the one it started with). */
  token: string;
  key: Buffer;
  backupCodes: string[];
  /** The newest time step this test has used a code of: the server accepts each step once. */
  lastStep: number;
}

const db = () => t.runtime.database.db;

async function mail(email: string) {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json() as { subject: string; text: string }[];
}

async function securityEvents(userId: string) {
  return db().selectFrom('user_security_events').select(['action', 'details']).where('user_id', '=', userId).orderBy('seq').execute();
}

async function userIdOf(email: string) {
  return (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

function inject(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

const verifyTotp = (code: string, pending?: string, extra: Record<string, unknown> = {}) =>
  inject('/api/auth/two-factor/verify-totp', { code, ...extra }, pending ? { 'x-two-factor-token': pending } : {});
const verifyRecovery = (code: string, pending: string, extra: Record<string, unknown> = {}) =>
  inject('/api/auth/two-factor/verify-backup-code', { code, ...extra }, { 'x-two-factor-token': pending });
const signIn = (email: string, headers: Record<string, string> = {}) => inject('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD }, headers);

/**
 * A code of a step the server has not accepted yet and still accepts: now or the next one, never
 * the previous (the server's clock may step on between here and its check).
 */
async function freshCode(user: Enrolled): Promise<string> {
  for (;;) {
    const step = Math.max(user.lastStep + 1, currentStep());
    if (step <= currentStep() + 1) {
      user.lastStep = step;
      return totpOfStep(user.key, step);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Six digits that are no code of any step the server accepts now. */
function wrongCode(user: Enrolled): string {
  const accepted = new Set([-1, 0, 1, 2].map((d) => totpOfStep(user.key, currentStep() + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}

/** Signs up and enrols an authenticator app: the first code turns the second factor on. */
async function enrolled(email: string): Promise<Enrolled> {
  const started = await registeredUser(t.app, email);
  const res = await post(t.app, '/api/auth/two-factor/enable', { password: GOOD_PASSWORD }, started);
  expect(res.statusCode, res.body).toBe(200);
  const { totpURI, backupCodes } = res.json() as { totpURI: string; backupCodes: string[] };
  const user: Enrolled = { email, userId: await userIdOf(email), token: started, key: keyOfUri(totpURI), backupCodes, lastStep: 0 };
  const verified = await post(t.app, '/api/auth/two-factor/verify-totp', { code: await freshCode(user) }, started);
  expect(verified.statusCode, verified.body).toBe(200);
  user.token = verified.headers['set-auth-token'] as string;
  return user;
}

/** A sign-in with the right password that now waits for its second factor; its pending token. */
async function pendingSignIn(email: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await signIn(email, headers);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
  expect(res.headers['set-auth-token']).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  const pending = res.headers['set-two-factor-token'];
  expect(typeof pending).toBe('string');
  return pending as string;
}

describe('the RFC 6238 helper the tests compute codes with', () => {
  it('gives the SHA-1 test vectors of RFC 6238 Appendix B (8 digits)', () => {
    const key = Buffer.from('12345678901234567890', 'ascii');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) expect(totpAt(key, time, 8), `T = ${time}`).toBe(code);
  });
});

describe('enrolling an authenticator app', () => {
  it(
    'takes the password, gives the otpauth URI and ten recovery codes, and is on only once a first code checks out',
    async () => {
      const email = 'enrol@example.com';
      const token = await registeredUser(t.app, email);
      const userId = await userIdOf(email);

      const wrong = await post(t.app, '/api/auth/two-factor/enable', { password: 'Not-My-Password-1' }, token);
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong).code).toBe('INVALID_PASSWORD');
      expect((await post(t.app, '/api/auth/two-factor/enable', { password: GOOD_PASSWORD })).statusCode).toBe(401);

      const res = await post(t.app, '/api/auth/two-factor/enable', { password: GOOD_PASSWORD }, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { method: string; totpURI: string; backupCodes: string[] };
      expect(body.method).toBe('totp');
      expect(body.totpURI).toMatch(/^otpauth:\/\/totp\/Tay:enrol%40example\.com\?secret=[A-Z2-7]+&issuer=Tay&digits=6&period=30$/);
      expect(body.backupCodes).toHaveLength(10);
      expect(new Set(body.backupCodes).size).toBe(10);
      const user: Enrolled = { email, userId, token, key: keyOfUri(body.totpURI), backupCodes: body.backupCodes, lastStep: 0 };

      // At rest: the secret and the codes are encrypted with the auth secret, never in clear.
      const row = await db().selectFrom('two_factors').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
      const base32 = new URL(body.totpURI).searchParams.get('secret')!;
      const secret = user.key.toString('utf8');
      expect(row.verified).toBe(false);
      expect(row.secret).not.toContain(secret);
      expect(row.secret).not.toContain(base32);
      for (const code of body.backupCodes) expect(row.backup_codes).not.toContain(code);
      // XChaCha20-Poly1305 under a key derived from AUTH_SECRET, marked with that key's number.
      const key = secretConfigOf([t.runtime.config.authSecret]);
      expect(row.secret.startsWith(`$ba$${key.currentVersion}$`)).toBe(true);
      expect(await symmetricDecrypt({ key, data: row.secret })).toBe(secret);
      expect(JSON.parse(await symmetricDecrypt({ key, data: row.backup_codes }))).toEqual(body.backupCodes);
      await expect(symmetricDecrypt({ key: secretConfigOf(['some-other-secret-of-at-least-32-chars']), data: row.secret })).rejects.toThrow();

      // Not on yet: sign-in asks for no code.
      const before = await signIn(email);
      expect(before.statusCode).toBe(200);
      expect(typeof before.headers['set-auth-token']).toBe('string');
      expect((await db().selectFrom('users').select('two_factor_enabled').where('id', '=', userId).executeTakeFirstOrThrow()).two_factor_enabled).toBe(false);

      const refused = await post(t.app, '/api/auth/two-factor/verify-totp', { code: wrongCode(user) }, token);
      expect(refused.statusCode).toBe(401);
      expect(errorOf(refused).code).toBe('INVALID_CODE');
      const malformed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: '12345' }, token);
      expect(malformed.statusCode).toBe(400);
      expect(errorOf(malformed).fields).toEqual({ code: 'Enter the 6 digits your authenticator app shows.' });

      const on = await post(t.app, '/api/auth/two-factor/verify-totp', { code: await freshCode(user) }, token);
      expect(on.statusCode, on.body).toBe(200);
      // Enabling replaced the session: the old token is gone, the new one works and is the body's too.
      const next = on.headers['set-auth-token'] as string;
      expect(next).not.toBe(token);
      expect(next.split('.')[0]).toBe((on.json() as { token: string }).token);
      expect((on.json() as { user: { twoFactorEnabled: boolean } }).user.twoFactorEnabled).toBe(true);
      expect((await get(t.app, '/api/user', token)).statusCode).toBe(401);
      expect((await get(t.app, '/api/user', next)).statusCode).toBe(200);
      expect((await get(t.app, '/api/auth/get-session', next)).json()).toMatchObject({ user: { email, twoFactorEnabled: true } });

      const again = await post(t.app, '/api/auth/two-factor/enable', { password: GOOD_PASSWORD }, next);
      expect(errorOf(again).code).toBe('TOTP_ALREADY_ENABLED');
      // The same URI again, with the password.
      const uri = await post(t.app, '/api/auth/two-factor/get-totp-uri', { password: GOOD_PASSWORD }, next);
      expect(uri.json()).toEqual({ totpURI: body.totpURI });

      expect(await securityEvents(userId)).toEqual([{ action: 'two_factor.enabled', details: { method: 'totp', recoveryCodes: 10 } }]);
      const notice = (await mail(email)).filter((m) => m.subject === 'Two-step sign-in is on for your Tay account');
      expect(notice).toHaveLength(1);
      expect(notice[0]!.text).toContain('10 recovery codes');
      // The person's security log is append-only, for the app's own session too.
      await expect(db().updateTable('user_security_events').set({ action: 'two_factor.disabled' }).where('user_id', '=', userId).execute()).rejects.toThrow();
    },
    SLOW,
  );
});

describe('signing in with the second factor on', () => {
  it(
    'answers twoFactorRedirect instead of a session; a wrong code is refused, the right one opens a session, and no code works twice',
    async () => {
      const user = await enrolled('signin-2fa@example.com');
      expect((await post(t.app, '/api/auth/sign-out', {}, user.token)).statusCode).toBe(200);
      const sessions = () => db().selectFrom('sessions').select('id').where('user_id', '=', user.userId).execute();

      const before = (await sessions()).length;
      const pending = await pendingSignIn(user.email);
      // The password opened no session: the one it made was ended at once.
      expect((await sessions()).length).toBe(before);

      expect(errorOf(await verifyTotp('123456')).code).toBe('INVALID_TWO_FACTOR_COOKIE');
      expect(errorOf(await verifyTotp('123456', `${pending.split('.')[0]}.Zm9yZ2Vk`)).code).toBe('INVALID_TWO_FACTOR_COOKIE');

      const wrong = await verifyTotp(wrongCode(user), pending);
      expect(wrong.statusCode).toBe(401);
      expect(errorOf(wrong)).toEqual({ code: 'INVALID_CODE', message: 'That code is not right. Enter the 6 digits your authenticator app shows now.' });

      const code = await freshCode(user);
      const ok = await verifyTotp(code, pending);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.headers['set-cookie']).toBeUndefined();
      const token = ok.headers['set-auth-token'] as string;
      expect(token).toMatch(/\./);
      // The same shape as a sign-in's: the token (header and body) and the user.
      expect(ok.json()).toMatchObject({ token: token.split('.')[0], user: { email: user.email, twoFactorEnabled: true, mustChangePassword: false } });
      const me = await get(t.app, '/api/user', token);
      expect(me.statusCode).toBe(200);
      expect(me.json().data.name).toBe(user.email);

      // The pending sign-in is used up.
      expect(errorOf(await verifyTotp(code, pending)).code).toBe('INVALID_TWO_FACTOR_COOKIE');
      // The same code on a new sign-in (someone who saw it, and knows the password) is refused.
      const second = await pendingSignIn(user.email);
      const replay = await verifyTotp(code, second);
      expect(replay.statusCode).toBe(401);
      expect(errorOf(replay).code).toBe('TOTP_CODE_USED');
      expect(replay.headers['set-auth-token']).toBeUndefined();
      // And so is an older code the server would still take by its time alone.
      const older = await verifyTotp(totpOfStep(user.key, user.lastStep - 1), second);
      expect(older.statusCode).toBe(401);
      expect((await sessions()).length).toBe(before + 1);
    },
    SLOW,
  );

  it(
    'after 5 wrong codes the person waits, even with the right code or a recovery code; the burst is logged and e-mailed once',
    async () => {
      const user = await enrolled('burst@example.com');
      const pending = await pendingSignIn(user.email);
      for (let i = 0; i < 5; i++) {
        const res = await verifyTotp(wrongCode(user), pending);
        expect(res.statusCode, `wrong code ${i + 1}`).toBe(401);
        expect(errorOf(res).code).toBe('INVALID_CODE');
      }
      // One right code, never accepted until the end: every refusal comes before its check.
      const code = await freshCode(user);
      const right = await verifyTotp(code, pending);
      expect(right.statusCode).toBe(429);
      expect(errorOf(right).code).toBe('RATE_LIMITED');
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect(right.headers['set-auth-token']).toBeUndefined();
      // Per person, not per sign-in: a new sign-in with the password waits too, recovery codes included.
      const again = await pendingSignIn(user.email);
      expect((await verifyTotp(code, again)).statusCode).toBe(429);
      expect((await verifyRecovery(user.backupCodes[0]!, again)).statusCode).toBe(429);

      expect(await securityEvents(user.userId)).toEqual([
        { action: 'two_factor.enabled', details: { method: 'totp', recoveryCodes: 10 } },
        { action: 'two_factor.codes_refused', details: { failures: 5 } },
      ]);
      const warnings = (await mail(user.email)).filter((m) => m.subject === 'Wrong sign-in codes were entered for your Tay account');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.text).toContain('entered 5 wrong codes');

      // The limit is the database's (every replica shares it): once its window ends, the code works.
      await db()
        .updateTable('rate_limits')
        .set({ window_ends_at: new Date(Date.now() - 1000) })
        .where('key', '=', `auth:two-factor:user:${user.userId}`)
        .execute();
      const later = await verifyTotp(code, again);
      expect(later.statusCode, later.body).toBe(200);
    },
    SLOW,
  );

  it(
    'a recovery code signs in once and never again; new recovery codes replace the old ones',
    async () => {
      const user = await enrolled('recovery@example.com');
      const [first, second] = user.backupCodes as [string, string];

      const used = await verifyRecovery(first, await pendingSignIn(user.email));
      expect(used.statusCode, used.body).toBe(200);
      const token = used.headers['set-auth-token'] as string;
      expect(used.json()).toMatchObject({ token: token.split('.')[0], user: { email: user.email } });
      expect((await get(t.app, '/api/user', token)).statusCode).toBe(200);

      const twice = await verifyRecovery(first, await pendingSignIn(user.email));
      expect(twice.statusCode).toBe(401);
      expect(errorOf(twice).code).toBe('INVALID_BACKUP_CODE');
      expect(twice.headers['set-auth-token']).toBeUndefined();
      expect((await verifyRecovery(second, await pendingSignIn(user.email))).statusCode).toBe(200);

      const events = await securityEvents(user.userId);
      expect(events.filter((e) => e.action === 'two_factor.recovery_code_used').map((e) => e.details)).toEqual([
        { remaining: 9, signIn: true },
        { remaining: 8, signIn: true },
      ]);
      const notices = (await mail(user.email)).filter((m) => m.subject === 'A recovery code was used on your Tay account');
      expect(notices.map((m) => m.text.match(/(\d+) are left/)?.[1])).toEqual(expect.arrayContaining(['9', '8']));

      const replaced = await post(t.app, '/api/auth/two-factor/generate-backup-codes', { password: GOOD_PASSWORD }, token);
      expect(replaced.statusCode, replaced.body).toBe(200);
      const fresh = (replaced.json() as { backupCodes: string[] }).backupCodes;
      expect(fresh).toHaveLength(10);
      expect(errorOf(await verifyRecovery(user.backupCodes[2]!, await pendingSignIn(user.email))).code).toBe('INVALID_BACKUP_CODE');
      expect((await verifyRecovery(fresh[0]!, await pendingSignIn(user.email))).statusCode).toBe(200);
      expect((await securityEvents(user.userId)).map((e) => e.action)).toContain('two_factor.recovery_codes_replaced');
      expect((await mail(user.email)).map((m) => m.subject)).toContain('New recovery codes for your Tay account');
    },
    SLOW,
  );

  it(
    '"trust this device" skips the code on that device for 30 days, and nowhere else',
    async () => {
      const user = await enrolled('trusted@example.com');
      const trusted = await verifyTotp(await freshCode(user), await pendingSignIn(user.email), { trustDevice: true });
      expect(trusted.statusCode, trusted.body).toBe(200);
      const device = trusted.headers['set-trust-device-token'];
      expect(typeof device).toBe('string');
      const record = await db()
        .selectFrom('verifications')
        .select('expires_at')
        .where('identifier', 'like', 'trust-device-%')
        .where('value', '=', user.userId)
        .executeTakeFirstOrThrow();
      const days = (record.expires_at.getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);

      // On the trusted device: the password alone signs in, and the device's token is renewed.
      const direct = await signIn(user.email, { 'x-trust-device-token': device as string });
      expect(direct.statusCode, direct.body).toBe(200);
      expect(direct.json()).not.toHaveProperty('twoFactorRedirect');
      expect((await get(t.app, '/api/user', direct.headers['set-auth-token'] as string)).statusCode).toBe(200);
      const renewed = direct.headers['set-trust-device-token'] as string;
      expect(typeof renewed).toBe('string');
      expect(renewed).not.toBe(device);
      // The token it replaced, another device, a made-up token: the code again.
      await pendingSignIn(user.email, { 'x-trust-device-token': device as string });
      await pendingSignIn(user.email);
      await pendingSignIn(user.email, { 'x-trust-device-token': `${renewed.split('.')[0]}x.Zm9yZ2Vk` });
      // Another person's device is not theirs.
      const other = await enrolled('trusted-other@example.com');
      await pendingSignIn(other.email, { 'x-trust-device-token': renewed });
      // After 30 days the device is asked again.
      const latest = await signIn(user.email, { 'x-trust-device-token': renewed });
      expect(latest.headers['set-auth-token']).toBeDefined();
      const newest = latest.headers['set-trust-device-token'] as string;
      const current = (
        await db().selectFrom('verifications').select('id').where('identifier', 'like', 'trust-device-%').where('value', '=', user.userId).execute()
      ).map((r) => r.id);
      await db()
        .updateTable('verifications')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', 'in', current)
        .execute();
      await pendingSignIn(user.email, { 'x-trust-device-token': newest });
    },
    SLOW,
  );

  it(
    'turning it off takes the password, and then sign-in asks for no code and no device is trusted any more',
    async () => {
      const user = await enrolled('disable@example.com');
      const trusted = await verifyTotp(await freshCode(user), await pendingSignIn(user.email), { trustDevice: true });
      const token = trusted.headers['set-auth-token'] as string;
      const device = trusted.headers['set-trust-device-token'] as string;

      const wrong = await post(t.app, '/api/auth/two-factor/disable', { password: 'Not-My-Password-1' }, token);
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong).code).toBe('INVALID_PASSWORD');
      expect((await post(t.app, '/api/auth/two-factor/disable', { password: GOOD_PASSWORD })).statusCode).toBe(401);
      await pendingSignIn(user.email);

      const off = await post(t.app, '/api/auth/two-factor/disable', { password: GOOD_PASSWORD }, token);
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toEqual({ status: true });
      // The session was replaced.
      const next = off.headers['set-auth-token'] as string;
      expect((await get(t.app, '/api/user', token)).statusCode).toBe(401);
      expect((await get(t.app, '/api/user', next)).statusCode).toBe(200);
      expect(await db().selectFrom('two_factors').select('id').where('user_id', '=', user.userId).execute()).toEqual([]);
      expect(
        await db().selectFrom('verifications').select('id').where('identifier', 'like', 'trust-device-%').where('value', '=', user.userId).execute(),
      ).toEqual([]);

      const plain = await signIn(user.email, { 'x-trust-device-token': device });
      expect(plain.statusCode).toBe(200);
      expect(plain.json()).not.toHaveProperty('twoFactorRedirect');
      expect((await get(t.app, '/api/user', plain.headers['set-auth-token'] as string)).statusCode).toBe(200);

      expect((await securityEvents(user.userId)).map((e) => e.action)).toEqual(['two_factor.enabled', 'two_factor.disabled']);
      expect((await mail(user.email)).map((m) => m.subject)).toContain('Two-step sign-in is off for your Tay account');

      // Turned on again later, the old device is not trusted.
      const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: GOOD_PASSWORD }, next);
      user.key = keyOfUri((enabled.json() as { totpURI: string }).totpURI);
      user.lastStep = 0;
      expect((await post(t.app, '/api/auth/two-factor/verify-totp', { code: await freshCode(user) }, next)).statusCode).toBe(200);
      await pendingSignIn(user.email, { 'x-trust-device-token': device });
    },
    SLOW,
  );
});

describe('rotating AUTH_SECRET', () => {
  // AUTH_SECRET was OLD and is now NEW (ADR 018): what OLD encrypted still opens, until resealed.
  const OLD = 'the-secret-before-the-rotation-0123456789';
  const NEW = 'the-secret-after-the-rotation-9876543210';
  const GONE = 'a-secret-nobody-configured-any-more-000000';
  let rotated: TestApp;
  beforeAll(async () => {
    rotated = await createTestApp({ AUTH_SECRET: NEW, AUTH_SECRET_PREVIOUS: OLD, AUTH_IP_RATE_LIMIT_SCALE: '20' });
  });
  afterAll(async () => rotated?.close());

  /** A person whose second factor was enrolled while `secret` was AUTH_SECRET. */
  async function enrolledUnder(email: string, secret: string) {
    await registeredUser(rotated.app, email);
    const key = secretConfigOf([secret]);
    const totpSecret = `totp-secret-${email}`.padEnd(32, 'x').slice(0, 32);
    const userId = (await rotated.runtime.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    await rotated.runtime.database.db
      .insertInto('two_factors')
      .values({
        id: `tfa_${userId}`,
        user_id: userId,
        secret: await symmetricEncrypt({ key, data: totpSecret }),
        backup_codes: await symmetricEncrypt({ key, data: JSON.stringify(['aaaaa-bbbbb']) }),
        verified: true,
      })
      .execute();
    await rotated.runtime.database.db.updateTable('users').set({ two_factor_enabled: true }).where('id', '=', userId).execute();
    return { userId, key: Buffer.from(totpSecret) };
  }

  async function signInWithCode(email: string, key: Buffer, step: number) {
    const res = await rotated.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: GOOD_PASSWORD } });
    expect(res.json()).toMatchObject({ twoFactorRedirect: true });
    return rotated.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      payload: { code: totpOfStep(key, step) },
      headers: { 'x-two-factor-token': res.headers['set-two-factor-token'] as string },
    });
  }

  it(
    'an authenticator enrolled under the earlier secret still works, and reseal-secrets moves it to the new one',
    async () => {
      const email = 'rotated-2fa@example.com';
      const person = await enrolledUnder(email, OLD);
      const step = currentStep();
      expect((await signInWithCode(email, person.key, step)).statusCode).toBe(200);

      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        await COMMANDS['reseal-secrets']!.run(rotated.runtime, []);
        expect(log.mock.calls.map((call) => String(call[0]))).toContain(
          'Authenticator apps and recovery codes: 1 encrypted again under the current AUTH_SECRET, 0 already under it.',
        );
      } finally {
        log.mockRestore();
      }
      const row = await rotated.runtime.database.db.selectFrom('two_factors').selectAll().where('user_id', '=', person.userId).executeTakeFirstOrThrow();
      expect(await symmetricDecrypt({ key: secretConfigOf([NEW]), data: row.secret })).toBe(person.key.toString());
      await expect(symmetricDecrypt({ key: secretConfigOf([OLD]), data: row.secret })).rejects.toThrow();
      // Still the person's: their next code signs in, and a second run changes nothing.
      expect((await signInWithCode(email, person.key, step + 1)).statusCode).toBe(200);
      expect(await resealTwoFactors({ db: rotated.runtime.database.db, secrets: [NEW, OLD] })).toEqual({ resealed: 0, current: 1, unreadable: [] });

      // One under a secret nobody configures any more is named and left as it is.
      const lost = await enrolledUnder('lost-2fa@example.com', GONE);
      expect(await resealTwoFactors({ db: rotated.runtime.database.db, secrets: [NEW, OLD] })).toEqual({ resealed: 0, current: 1, unreadable: [lost.userId] });
    },
    SLOW,
  );
});

describe('the OpenAPI document', () => {
  it('lists the second factor’s endpoints with their answers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
    };
    for (const path of ['enable', 'get-totp-uri', 'verify-totp', 'verify-backup-code', 'generate-backup-codes', 'disable']) {
      const operation = doc.paths[`/api/auth/two-factor/${path}`]?.post;
      expect(operation, path).toBeDefined();
      expect(Object.keys(operation!.responses).sort(), path).toEqual(
        path === 'verify-backup-code' ? ['200', '400', '401', '409', '429'] : ['200', '400', '401', '429'],
      );
      expect(Boolean(operation!.security), path).toBe(!path.startsWith('verify-'));
    }
    // better-auth's other two-factor endpoints stay unreachable.
    expect((await post(t.app, '/api/auth/two-factor/send-otp', {})).statusCode).toBe(404);
  });
});
