// PostgreSQL pass: limits counted in the database across replicas.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { tokenFromBearer } from '../../src/plugins/authenticate';
import { registeredUser } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

// Issue 35, point 8 (ADR 044): the web app's files and pages are never counted; API calls count
// per session (per address without one), in the database, so every replica shares the budgets.

const MAX = 40;
let t: TestApp;
let webDir: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'tay-web-limits-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Tay</title></head><body><div id="root"></div></body></html>');
  writeFileSync(path.join(webDir, 'assets/index-abc123.js'), 'export const answer = 42;\n');
  writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ WEB_DIST_DIR: webDir, RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_SECONDS: '600' });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** A browser's fetch of an API endpoint from `address`, signed in with `token` or not. */
function call(app: FastifyInstance, address: string, url: string, token?: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url,
    remoteAddress: address,
    headers: { 'sec-fetch-mode': 'cors', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** A browser loading a page (or a script) from `address`. */
function load(address: string, url: string, dest: 'document' | 'script' = 'document') {
  return t.app.inject({
    method: 'GET',
    url,
    remoteAddress: address,
    headers: {
      'sec-fetch-mode': dest === 'document' ? 'navigate' : 'no-cors',
      'sec-fetch-dest': dest,
      accept: dest === 'document' ? 'text/html,application/xhtml+xml,*/*;q=0.8' : '*/*',
    },
  });
}

/** The budget of a signed-in person's session: a hash of the token their bearer header carries. */
function sessionKey(bearer: string): string {
  const token = tokenFromBearer(`Bearer ${bearer}`, t.runtime.config.authSecret);
  if (!token) throw new Error('not a signed token');
  return `session:${createHash('sha256').update(token).digest('base64url')}`;
}

/** Calls until the first refusal; how many went through. */
async function spend(app: FastifyInstance, address: string, url: string, token?: string): Promise<number> {
  for (let n = 0; n < MAX * 3; n++) {
    const res = await call(app, address, url, token);
    if (res.statusCode === 429) return n;
  }
  throw new Error(`never refused after ${MAX * 3} calls`);
}

describe('the web app is never rate limited', () => {
  it('700 requests for a hashed script, a page, a client route and the favicon from one address all succeed', async () => {
    const address = '198.51.100.1';
    for (let i = 0; i < 700; i++) {
      const script = await load(address, '/assets/index-abc123.js', 'script');
      expect(script.statusCode).toBe(200);
      const page = await load(address, '/business/home');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    }
    for (let i = 0; i < 700; i++) expect((await load(address, '/favicon.svg', 'script')).statusCode).toBe(200);
    // Nothing of it was counted.
    await t.app.requestBudgets.flush();
    expect(await db().selectFrom('request_budgets').select('key').where('key', 'like', `%${address}%`).execute()).toEqual([]);
  });

  it("still serves pages and scripts to an address whose API budget is spent, and refuses its API calls: JSON to a script's fetch, a page to a navigation", async () => {
    const address = '198.51.100.2';
    expect(await spend(t.app, address, '/api/public-config')).toBe(MAX);

    const api = await call(t.app, address, '/api/public-config');
    expect(api.statusCode).toBe(429);
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toEqual({ status: 'Error', errorDetails: { code: 'RATE_LIMITED', message: expect.stringMatching(/Too many requests/) } });

    // A navigation to a limited address gets a page that says so, never raw JSON.
    const navigated = await load(address, '/api/public-config');
    expect(navigated.statusCode).toBe(429);
    expect(Number(navigated.headers['retry-after'])).toBeGreaterThan(0);
    expect(navigated.headers['content-type']).toMatch(/^text\/html/);
    expect(navigated.body).toMatch(/Too many requests/);
    expect(() => JSON.parse(navigated.body)).toThrow();

    for (const url of ['/business/home', '/login', '/pay/some-token', '/no-such-page']) {
      const page = await load(address, url);
      expect([200, 404]).toContain(page.statusCode);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
    }
    expect((await load(address, '/assets/index-abc123.js', 'script')).statusCode).toBe(200);
    // Health checks are never limited either.
    expect((await call(t.app, address, '/api/health')).statusCode).toBe(200);
  });
});

describe("a payer's page (ADR 047)", () => {
  it('counts its first screen as the API read it replaces; past the budget the page still comes, without the screen, and reads nothing', async () => {
    const address = '198.51.100.3';
    const first = await load(address, '/pay/no-such-link-anywhere');
    expect(first.statusCode).toBe(404);
    expect(first.body).toContain('This link does not work');
    // The screen's read was counted: one call fewer is left for the API.
    expect(await spend(t.app, address, '/api/public-config')).toBe(MAX - 1);
    const past = await load(address, '/pay/no-such-link-anywhere');
    expect(past.statusCode).toBe(200);
    expect(past.headers['content-type']).toMatch(/^text\/html/);
    expect(past.body).toContain('<div id="root"></div>');
    expect(past.body).not.toContain('first-screen');
  });
});

describe('API calls count per session, and per address without one', () => {
  const office = '203.0.113.7';
  let ana: string;
  let ben: string;

  beforeAll(async () => {
    ana = await registeredUser(t.app, 'ana@office-limits.example');
    ben = await registeredUser(t.app, 'ben@office-limits.example');
  });

  it('two people behind one address each get the whole budget of their session', async () => {
    expect(await spend(t.app, office, '/api/user', ana)).toBe(MAX);
    expect(await spend(t.app, office, '/api/user', ben)).toBe(MAX);
    const refused = await call(t.app, office, '/api/user', ana);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().errorDetails.code).toBe('RATE_LIMITED');
  });

  it("an anonymous flood from a person's address leaves their session's budget alone, and forged tokens count as the address", async () => {
    const cafe = '203.0.113.8';
    const cleo = await registeredUser(t.app, 'cleo@office-limits.example');
    const stranger = ['Bearer not-a-session-but-long-enough', `Bearer ${cleo.split('.')[0]}.forged-signature`];
    let anonymous = 0;
    for (let i = 0; ; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/user', remoteAddress: cafe, headers: { authorization: stranger[i % 2]! } });
      if (res.statusCode === 429) break;
      expect(res.statusCode).toBe(401);
      anonymous++;
    }
    expect(anonymous).toBe(MAX);
    expect((await call(t.app, cafe, '/api/public-config')).statusCode).toBe(429);
    // Cleo, signed in from the same address, has her whole budget.
    expect(await spend(t.app, cafe, '/api/user', cleo)).toBe(MAX);
  });

  it('keys a session by a hash of its token, never the token itself', async () => {
    const token = tokenFromBearer(`Bearer ${ana}`, t.runtime.config.authSecret)!;
    expect(token).toBeTruthy();
    await call(t.app, office, '/api/public-config');
    await t.app.requestBudgets.flush();
    const keys = (await db().selectFrom('request_budgets').select('key').execute()).map((r) => r.key);
    expect(keys).toContain(sessionKey(ana));
    expect(keys).toContain(`address:${office}`);
    expect(keys.some((k) => k.includes(token))).toBe(false);
  });

  it('holds across replicas: a budget spent on one server is spent on another over the same database', async () => {
    const dana = await registeredUser(t.app, 'dana@office-limits.example');
    const replica = await buildApp(t.runtime, { logger: false });
    try {
      await replica.ready();
      for (let i = 0; i < MAX / 2; i++) expect((await call(t.app, office, '/api/user', dana)).statusCode).toBe(200);
      await t.app.requestBudgets.flush(); // each process adds its count four times a second
      for (let i = 0; i < MAX / 2; i++) expect((await call(replica, office, '/api/user', dana)).statusCode).toBe(200);
      await replica.requestBudgets.flush();
      // The replica now knows both halves: spent.
      expect((await call(replica, office, '/api/user', dana)).statusCode).toBe(429);
      // The first server learns it with its next addition: until then it may let through what it
      // takes in a quarter second (here one call), never more.
      expect((await call(t.app, office, '/api/user', dana)).statusCode).toBe(200);
      await t.app.requestBudgets.flush();
      expect((await call(t.app, office, '/api/user', dana)).statusCode).toBe(429);
      const row = await db().selectFrom('request_budgets').select('count').where('key', '=', sessionKey(dana)).executeTakeFirstOrThrow();
      expect(row.count).toBe(MAX + 1);
    } finally {
      await replica.close();
    }
  });
});
