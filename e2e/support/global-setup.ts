import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts the built server (`apps/api/dist/main.js`, as `npm start` runs it) on a free port with
 * a fresh data directory, or a fresh PostgreSQL database when DATABASE_URL is set.
 */
export default async function setup(project: TestProject) {
  const build = spawnSync('node', ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('Building the app for the browser tests failed');

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tay-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `tay_e2e_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // development, not test: better-auth keeps its origin checks on, as in production.
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000',
    // Every browser here shares 127.0.0.1; the per-account limits stay as they are.
    AUTH_IP_RATE_LIMIT_SCALE: '100',
    // Journeys that play someone signing in from elsewhere say where with X-Forwarded-For.
    TRUST_PROXY: 'true',
    SANDBOX_AUTO_APPROVE: 'false',
    // Sandbox settlement in 1 s instead of 5, so journeys see Paid quickly.
    SANDBOX_SETTLEMENT_SECONDS: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const server: ChildProcess = spawn('node', ['--enable-source-maps', 'apps/api/dist/main.js', 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(`${baseUrl}/api/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The server did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('serverEnv', env as Record<string, string>);

  return async () => {
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's environment, for operator commands run against the same database. */
    serverEnv: Record<string, string>;
  }
}
