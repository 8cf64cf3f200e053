import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserSession } from '@tay/contract';
import { describeDevice, networkOf } from '../../src/domain/users/sessions';
import { errorOf, GOOD_PASSWORD, registeredUser } from '../support/identity';
import { call, outbox } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * A person's signed-in devices (ADR 052): listed with the browser, the address and when each was
 * last active, this one marked; another device is signed out at once (its next call is 401), or
 * every other; the person's own device and another person's sessions cannot be; each is in the
 * person's security log and e-mailed to them.
 */

let t: TestApp;
const db = () => t.runtime.database.db;
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp({ AUTH_IP_RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => t?.close());

async function signInAs(email: string, userAgent: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    payload: JSON.stringify({ email, password: GOOD_PASSWORD }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.headers['set-auth-token'] as string;
}

const sessions = async (token: string) => {
  const res = await call(t.app, 'GET', '/api/user/sessions', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.items as UserSession[];
};

describe('describing a device', () => {
  it('names the browser and the system, and tells a private network from a public one', () => {
    expect(describeDevice(CHROME_MAC)).toBe('Chrome on macOS');
    expect(describeDevice(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Windows');
    expect(describeDevice(null)).toBe('Unknown browser');
    expect(networkOf('127.0.0.1')).toBe('private');
    expect(networkOf('192.168.1.20')).toBe('private');
    expect(networkOf('::ffff:10.0.0.1')).toBe('private');
    expect(networkOf('203.0.113.9')).toBe('public');
    expect(networkOf(null)).toBe('unknown');
  });
});

describe('signed-in devices', () => {
  it('lists them with this one marked, signs another out at once, and says so in the log and by e-mail', async () => {
    await registeredUser(t.app, 'devices@sessions.example');
    const laptop = await signInAs('devices@sessions.example', CHROME_MAC);
    const phone = await signInAs('devices@sessions.example', SAFARI_IPHONE);
    const listed = await sessions(laptop);
    const mine = listed.find((s) => s.current)!;
    expect(mine).toMatchObject({ device: 'Chrome on macOS', network: 'private' });
    const other = listed.find((s) => s.device === 'Safari on iOS')!;
    expect(other.current).toBe(false);

    const res = await call(t.app, 'DELETE', `/api/user/sessions/${other.sessionId}`, laptop);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ revoked: 1 });
    expect((await call(t.app, 'GET', '/api/user', phone)).statusCode).toBe(401);
    expect((await call(t.app, 'GET', '/api/user', laptop)).statusCode).toBe(200);
    expect((await sessions(laptop)).some((s) => s.sessionId === other.sessionId)).toBe(false);

    const user = await db().selectFrom('users').select('id').where('email', '=', 'devices@sessions.example').executeTakeFirstOrThrow();
    const log = await db().selectFrom('user_security_events').select(['action', 'details']).where('user_id', '=', user.id).execute();
    expect(log).toContainEqual({ action: 'session.revoked', details: { device: 'Safari on iOS' } });
    const mail = await outbox(t.app, 'devices@sessions.example');
    expect(mail.some((m) => m.subject === 'A device was signed out of your Tay account' && m.text.includes('Safari on iOS was signed out'))).toBe(true);
  });

  it('refuses to sign out this device (409) and another person’s sessions (404)', async () => {
    await registeredUser(t.app, 'mine@sessions.example');
    await registeredUser(t.app, 'theirs@sessions.example');
    const me = await signInAs('mine@sessions.example', CHROME_MAC);
    const them = await signInAs('theirs@sessions.example', SAFARI_IPHONE);
    const own = (await sessions(me)).find((s) => s.current)!;
    const self = await call(t.app, 'DELETE', `/api/user/sessions/${own.sessionId}`, me);
    expect(self.statusCode).toBe(409);
    expect(errorOf(self).message).toBe('This is the device you are using: sign out instead.');
    const theirs = (await sessions(them)).find((s) => s.current)!;
    expect((await call(t.app, 'DELETE', `/api/user/sessions/${theirs.sessionId}`, me)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/api/user', them)).statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/user/sessions', 'not-a-token')).statusCode).toBe(401);
  });

  it('signs every other device out, keeping this one', async () => {
    const first = await registeredUser(t.app, 'all@sessions.example');
    const second = await signInAs('all@sessions.example', SAFARI_IPHONE);
    const here = await signInAs('all@sessions.example', CHROME_MAC);
    const res = await call(t.app, 'POST', '/api/user/sessions/revoke-others', here);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.revoked).toBeGreaterThanOrEqual(2);
    for (const gone of [first, second]) expect((await call(t.app, 'GET', '/api/user', gone)).statusCode).toBe(401);
    expect((await sessions(here)).map((s) => s.current)).toEqual([true]);
    expect((await outbox(t.app, 'all@sessions.example')).some((m) => m.subject === 'Your other devices were signed out of your Tay account')).toBe(true);
  });
});
