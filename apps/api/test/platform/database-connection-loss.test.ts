// PostgreSQL pass: a lost database connection under load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { approvedBusiness } from '../support/approved-business';
import { call } from '../support/requests';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The database goes away under load (ADR 046): connections reset while statements run on them,
 * the embedded database's thread dies, PostgreSQL ends the app's sessions. Every request is
 * answered — a read again on a new connection, whatever cannot be tried again with 503 — the
 * process lives on, and it answers as before once the database is back.
 */

const opened: { app: TestApp; dir?: string }[] = [];
afterEach(async () => {
  for (const { app, dir } of opened.splice(0)) {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

interface Answer {
  what: 'read' | 'write';
  status: number;
  code?: string;
  retryAfter?: string | string[] | undefined;
}

/**
 * Callers in a loop until `stop()`: reads of the history (one SELECT), and calls that write — the
 * person's name, and `GET /api/user`, which notes the session's use.
 */
function load(t: TestApp, owner: { token: string; businessId: string }, callers = 6) {
  const answers: Answer[] = [];
  let stopped = false;
  const loops = Array.from({ length: callers }, async (_, n) => {
    for (let i = 0; !stopped; i++) {
      const write = n < 2;
      const res =
        n === 0
          ? await call(t.app, 'PATCH', '/api/user', owner.token, { firstName: `Owner${i % 10}`, lastName: 'Person', mobileNumber: '+14155552671' })
          : n === 1
            ? await call(t.app, 'GET', '/api/user', owner.token)
            : await call(t.app, 'GET', `/api/businesses/${owner.businessId}/payment-requests?page=1&pageSize=25`, owner.token);
      answers.push({
        what: write ? 'write' : 'read',
        status: res.statusCode,
        ...(res.statusCode === 503 ? { code: res.json<{ errorDetails: { code: string } }>().errorDetails.code, retryAfter: res.headers['retry-after'] } : {}),
      });
    }
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server answers as before: ready, a read, a write. */
async function answersAgain(t: TestApp, owner: { token: string; businessId: string }) {
  expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  const read = await call(t.app, 'GET', `/api/businesses/${owner.businessId}/payment-requests?page=1`, owner.token);
  expect(read.statusCode, read.body).toBe(200);
  const write = await call(t.app, 'PATCH', '/api/user', owner.token, { firstName: 'After', lastName: 'Person', mobileNumber: '+14155552671' });
  expect(write.statusCode, write.body).toBe(200);
}

/** Only 200 and 503 (SERVICE_UNAVAILABLE, with Retry-After); never a 500. */
function expectAnsweredOr503(answers: Answer[]) {
  expect(answers.length).toBeGreaterThan(20);
  const statuses = [...new Set(answers.map((a) => a.status))].sort();
  expect(
    statuses.every((s) => s === 200 || s === 503),
    `statuses: ${statuses.join(', ')}`,
  ).toBe(true);
  for (const a of answers.filter((a) => a.status === 503)) expect(a).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: '1' });
}

describe('when the database connections are lost under load', { timeout: 120_000 }, () => {
  it('a connection reset under a statement fails that statement only: reads go again, the rest is 503, the server lives', async () => {
    const t = await createTestApp();
    opened.push({ app: t });
    const owner = await approvedBusiness(t.app, t.runtime.database.db, 'reset-owner@example.com');
    const pool = t.runtime.database.pool;
    const inUse = new Set<pg.PoolClient>();
    pool.on('acquire', (client) => inUse.add(client));
    pool.on('release', (_error, client) => inUse.delete(client));
    let connects = 0;
    pool.on('connect', () => connects++);

    const running = load(t, owner);
    await sleep(500);
    // What `read ECONNRESET` on the embedded database's socket did: every connection in use dies at once.
    let reset = 0;
    for (let round = 0; round < 1; round++) {
      for (const client of inUse) {
        const socket = (client as unknown as { connection: { stream: { destroy(error: Error): void } } }).connection.stream;
        socket.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' }));
        reset++;
      }
      await sleep(150);
    }
    await sleep(300);
    const answers = await running.stop();

    expect(reset).toBeGreaterThan(0);
    expectAnsweredOr503(answers);
    // The reads were sent again on new connections: none failed.
    expect(answers.filter((a) => a.what === 'read' && a.status !== 200)).toEqual([]);
    expect(connects).toBeGreaterThan(0);
    await answersAgain(t, owner);
  });

  it('the database ending every session (the embedded thread dies; PostgreSQL terminates the backends): 503 or answered while it comes back, then as before', async () => {
    // On the embedded database, a directory of its own (started from the migrated files): one in memory is not restarted.
    const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'tay-loss-'));
    const t = await createTestApp(dir ? { DATA_DIR: dir } : {});
    opened.push({ app: t, ...(dir ? { dir } : {}) });
    const owner = await approvedBusiness(t.app, t.runtime.database.db, 'restart-owner@example.com');
    await answersAgain(t, owner);

    const running = load(t, owner);
    await sleep(500);
    const thread = t.runtime.database.embeddedThread;
    if (thread) {
      await thread.crash();
      for (let i = 0; i < 600 && (thread.state !== 'up' || thread.restarts === 0); i++) await sleep(100);
      expect(thread.restarts).toBe(1);
    } else {
      const owner = new pg.Client({ connectionString: t.ownerUrl });
      await owner.connect();
      try {
        await owner.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      } finally {
        await owner.end();
      }
    }
    await sleep(1000);
    const answers = await running.stop();

    expectAnsweredOr503(answers);
    await answersAgain(t, owner);
  });
});
