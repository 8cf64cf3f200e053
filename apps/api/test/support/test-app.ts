import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config';
import { startRuntime, startServer, type Runtime } from '../../src/runtime';
import { withDatabase } from './global-setup';
import { silentLogger } from './silent-logger';

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  /** On PostgreSQL, the URL of the test's database as its owner (the app logs in as its own role). */
  ownerUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * The real application over a fresh database of its own: in-memory PGlite by default, a copy of
 * the migrated template on PostgreSQL when DATABASE_URL is set. Jobs run in-process.
 */
export async function createTestApp(env: Record<string, string> = {}, options: { listen?: boolean } = {}): Promise<TestApp> {
  const databaseUrl = await freshDatabaseUrl();
  // `listen`: a real HTTP server on 127.0.0.1 whose address is PUBLIC_URL, so the sandbox
  // processor's webhooks (sent over HTTP by a job) reach this app.
  const port = options.listen ? await freePort() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '10000',
    WEB_DIST_DIR: '/nonexistent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(port ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...env,
  });
  const from = databaseUrl ? undefined : migratedSnapshot();
  const runtime = await startRuntime(config, {
    work: true,
    log: silentLogger,
    pollingIntervalSeconds: 0.5,
    ...(from ? { embeddedFrom: from } : {}),
  });
  const app = await startServer(runtime, { logger: false });
  await app.ready();
  if (port) await app.listen({ host: '127.0.0.1', port });
  return { app, runtime, ownerUrl: databaseUrl, close: () => app.close() };
}

let snapshot: Blob | undefined;

/** On PGlite, the migrated database the global setup wrote (read once per worker). */
function migratedSnapshot(): Blob | undefined {
  const file = inject('embeddedSnapshot');
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

/**
 * A TCP port on 127.0.0.1 nothing listens on now, below the range the system hands out to
 * outgoing connections (32768 and up on Linux): the app listens on it only after its start,
 * seconds later, and an ephemeral port could by then be another socket's (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A new database copied from the migrated template (PostgreSQL), or undefined on PGlite. */
export async function freshDatabaseUrl(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const template = inject('templateDatabase');
  const name = `tay_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return withDatabase(url, name);
}

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
