// PostgreSQL pass: sign-in limits counted in the database across replicas.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { startRuntime, startServer } from '../../src/runtime';
import { errorOf, post, registeredUser, signIn } from '../support/identity';
import { silentLogger } from '../support/silent-logger';
import { createTestApp, freshDatabaseUrl, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('identity rate limits', () => {
  it('per account and source: the 11th sign-in within 15 minutes from one source is refused there, even with the right password', async () => {
    const email = 'target@example.com';
    await registeredUser(t.app, email);
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: `Wrong-Guess-${i}` },
        remoteAddress: '10.0.0.1',
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: 'Correct-Horse-42' },
      remoteAddress: '10.0.0.1',
    });
    expect(blocked.statusCode).toBe(429);
    expect(errorOf(blocked).code).toBe('RATE_LIMITED');
    expect(errorOf(blocked).message).toMatch(/^Too many attempts\. For your security, please wait \d+ minutes? before trying again\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);

  it('per account from all sources: past 20 wrong passwords in 15 minutes, the right one also needs the e-mailed code', async () => {
    const email = 'spread@example.com';
    await registeredUser(t.app, email);
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: `Wrong-Guess-${i}` },
        remoteAddress: `10.0.1.${i + 1}`,
      });
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('INVALID_EMAIL_OR_PASSWORD');
    }
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: 'Correct-Horse-42' },
      remoteAddress: '10.0.2.1',
    });
    expect(asked.statusCode).toBe(401);
    expect(errorOf(asked).code).toBe('SIGN_IN_CODE_REQUIRED');
  }, 180_000);

  it('a successful sign-in clears the failed-attempt count of that account', async () => {
    const email = 'forgetful@example.com';
    await registeredUser(t.app, email);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 8; i++) expect((await signIn(t.app, email, `Nope-${i}-xxxx`)).statusCode).toBe(401);
      expect((await signIn(t.app, email)).statusCode).toBe(200);
    }
  }, 120_000);

  it('per IP: one client cannot spray code requests over many accounts', async () => {
    const from = { remoteAddress: '192.0.2.7' };
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/email-otp/send-verification-otp',
        payload: { email: `spray${i}@example.com`, type: 'email-verification' },
        ...from,
      });
      expect(res.statusCode).toBe(200);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-otp/send-verification-otp',
      payload: { email: 'spray-last@example.com', type: 'email-verification' },
      ...from,
    });
    expect(blocked.statusCode).toBe(429);
    // Another client is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-otp/send-verification-otp',
      payload: { email: 'spray-last@example.com', type: 'email-verification' },
      remoteAddress: '192.0.2.8',
    });
    expect(other.statusCode).toBe(200);
  });

  it('per account on forgot password and on confirmation codes', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post(t.app, '/api/auth/email-otp/request-password-reset', { email: 'reset-me@example.com' })).statusCode).toBe(200);
    }
    expect((await post(t.app, '/api/auth/email-otp/request-password-reset', { email: 'reset-me@example.com' })).statusCode).toBe(429);

    for (let i = 0; i < 10; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/email-otp/verify-email',
        payload: { email: 'guess@example.com', otp: String(100000 + i), password: 'whatever-123' },
        remoteAddress: `198.51.100.${i}`,
      });
    }
    const blocked = await post(t.app, '/api/auth/email-otp/verify-email', { email: 'guess@example.com', otp: '123456', password: 'x-y-z-1-2-3' });
    expect(blocked.statusCode).toBe(429);
  });
});

describe('rate limits are held in the database', () => {
  it('two server processes on one database share the counts', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tay-rl-'));
    const databaseUrl = await freshDatabaseUrl();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      AUTH_SECRET: 'z'.repeat(40),
      WEB_DIST_DIR: '/nonexistent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const one = await startRuntime(loadConfig(env), { work: false, log: silentLogger });
    const two = await startRuntime(loadConfig(env), { work: false, log: silentLogger });
    const appOne = await startServer(one, { logger: false });
    const appTwo = await startServer(two, { logger: false });
    try {
      const reset = (app: typeof appOne) => post(app, '/api/auth/email-otp/request-password-reset', { email: 'shared@example.com' });
      for (let i = 0; i < 5; i++) expect((await reset(i % 2 ? appOne : appTwo)).statusCode).toBe(200);
      expect((await reset(appOne)).statusCode).toBe(429);
      expect((await reset(appTwo)).statusCode).toBe(429);
    } finally {
      await appTwo.close();
      await appOne.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
