import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedThread, type EmbeddedThread } from './embedded-thread';

const started: EmbeddedThread[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((thread) => thread.stop()));
});

async function open(from?: Blob) {
  const thread = await startEmbeddedThread({ dataDir: 'memory://', ...(from ? { from } : {}) });
  started.push(thread);
  const { port } = await thread.listen({ host: '127.0.0.1', port: 0 });
  const client = new pg.Client({ host: '127.0.0.1', port: port!, user: 'postgres', database: 'postgres' });
  await client.connect();
  return { thread, client };
}

// A new embedded database (PGlite's start) takes seconds while the other test worker is busy.
describe('the embedded database on its own thread', { timeout: 60_000 }, () => {
  it('answers SQL over its socket while the main thread keeps running', async () => {
    const { client } = await open();
    // A statement that keeps PGlite busy for a second: on the main thread, no timer could fire meanwhile.
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      const { rows } = await client.query<{ n: number }>('SELECT pg_sleep(1), 42 AS n');
      expect(rows[0]!.n).toBe(42);
    } finally {
      clearInterval(timer);
      await client.end();
    }
    expect(ticks).toBeGreaterThan(10);
    expect(longestGap).toBeLessThan(600);
  });

  it('hands over its files, and a new thread opens them', async () => {
    const first = await open();
    await first.client.query('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$from the first$$)');
    await first.client.end();
    const files = await first.thread.snapshot();
    expect(files.size).toBeGreaterThan(0);

    const second = await open(files);
    const { rows } = await second.client.query<{ v: string }>('SELECT v FROM kept');
    await second.client.end();
    expect(rows).toEqual([{ v: 'from the first' }]);
  });

  it('locks the session to a role that cannot take the superuser back', async () => {
    const { thread, client } = await open();
    await client.query('CREATE ROLE locked_app NOLOGIN');
    await client.end();
    await thread.lockDown('locked_app');
    const { port } = await thread.listen({ host: '127.0.0.1', port: 0 });
    const again = new pg.Client({ host: '127.0.0.1', port: port!, user: 'postgres', database: 'postgres' });
    await again.connect();
    try {
      const { rows } = await again.query<{ who: string }>('SELECT current_user AS who');
      expect(rows[0]!.who).toBe('locked_app');
      await expect(again.query('RESET SESSION AUTHORIZATION')).rejects.toThrow();
    } finally {
      await again.end();
    }
  });

  it('refuses to start on a data directory it cannot open, with the reason', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tay-embedded-'));
    const file = path.join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    try {
      await expect(startEmbeddedThread({ dataDir: file })).rejects.toThrow(/not-a-directory|ENOTDIR|EEXIST/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops once, and a second stop does nothing', async () => {
    const { thread, client } = await open();
    await client.end();
    await thread.stop();
    await thread.stop();
    started.splice(0);
  });
});

describe('a thread that dies', { timeout: 120_000 }, () => {
  const lines: { message: string; object: object }[] = [];
  const log = {
    info: (object: object, message: string) => lines.push({ object, message }),
    warn: (object: object, message: string) => lines.push({ object, message }),
    error: (object: object, message: string) => lines.push({ object, message }),
  };

  it('is started again on its directory, as the app’s role, on the same socket, and says why', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tay-embedded-'));
    try {
      const thread = await startEmbeddedThread({ dataDir: path.join(dir, 'pglite') }, { log, restartDelayMs: 10 });
      started.push(thread);
      const socket = path.join(dir, '.s.PGSQL.5432');
      await thread.listen({ path: socket });
      const connection = { host: dir, port: 5432, user: 'postgres', database: 'postgres' };
      const owner = new pg.Client(connection);
      await owner.connect();
      await owner.query(
        'CREATE ROLE restarted_app NOLOGIN; CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$before$$); GRANT SELECT ON kept TO restarted_app',
      );
      await owner.end();
      await thread.lockDown('restarted_app');

      const held = new pg.Client(connection);
      held.on('error', () => {});
      await held.connect();
      await thread.crash();
      // The client that was connected loses its connection; the process goes on.
      await expect(held.query('SELECT 1')).rejects.toThrow();

      for (let i = 0; i < 600 && (thread.state !== 'up' || thread.restarts === 0); i++) await new Promise((r) => setTimeout(r, 100));
      expect(thread.state).toBe('up');
      expect(thread.restarts).toBe(1);
      const again = new pg.Client(connection);
      await again.connect();
      try {
        const { rows } = await again.query<{ who: string; v: string }>('SELECT current_user AS who, v FROM kept');
        expect(rows).toEqual([{ who: 'restarted_app', v: 'before' }]);
        await expect(again.query('RESET SESSION AUTHORIZATION')).rejects.toThrow();
      } finally {
        await again.end();
      }
      expect(lines.map((l) => l.message)).toContain("the embedded database's thread ended; restarting it");
      expect(lines.map((l) => l.message)).toContain("the embedded database's thread was restarted and answers again");
    } finally {
      await Promise.all(started.splice(0).map((t) => t.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in memory, is not restarted: its contents ended with it', async () => {
    lines.length = 0;
    const thread = await startEmbeddedThread({ dataDir: 'memory://' }, { log, restartDelayMs: 10 });
    started.push(thread);
    await thread.crash();
    for (let i = 0; i < 100 && thread.state === 'up'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(thread.state).toBe('down');
    expect(thread.restarts).toBe(0);
    expect(lines.at(-1)!.message).toMatch(/in-memory database's contents ended with it/);
  });
});
