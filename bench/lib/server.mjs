// Starts the built Tay server (as `npm start` runs it, with its Node flags) on a free port with a fresh data
// directory, or a fresh PostgreSQL database when DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

/** Reads a child's output as it comes and counts it, as whoever runs the process would read its log. */
export function drain(stream) {
  const counted = { bytes: 0 };
  stream.on('data', (chunk) => {
    counted.bytes += chunk.length;
  });
  return counted;
}

/** The Node flags `npm start` gives the server (package.json), so the bench runs it the same way. */
export function startFlags() {
  const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

export async function startTay({ env = {} } = {}) {
  const build = spawnSync('node', ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const port = await freePort();
  // BENCH_KEEP_DB=1 without DATABASE_URL keeps the embedded database's directory for the next run.
  const keptDir = !process.env.DATABASE_URL && process.env.BENCH_KEEP_DB ? path.join(tmpdir(), 'tay-bench-kept') : null;
  if (keptDir) mkdirSync(keptDir, { recursive: true, mode: 0o700 });
  const dataDir = keptDir ?? mkdtempSync(path.join(tmpdir(), 'tay-bench-'));
  let databaseUrl;
  let dbName;
  if (process.env.DATABASE_URL) {
    dbName = process.env.BENCH_KEEP_DB ? 'tay_bench_kept' : `tay_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    admin.on('error', () => {});
    await admin.connect();
    // BENCH_KEEP_DB=1 keeps the seeded database between runs and reuses it (no second seeding).
    const kept = process.env.BENCH_KEEP_DB && (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount > 0;
    if (!kept) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${dbName}`);
    }
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const serverEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    PUBLIC_URL: baseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT_MAX: '100000000',
    AUTH_IP_RATE_LIMIT_SCALE: '1000',
    SANDBOX_AUTO_APPROVE: 'false',
    // The jobs run in the server's process, as under `npm start` (JOBS_IN_PROCESS defaults to true).
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
    ...env,
  };
  const flags = process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean) : startFlags();
  // Its log goes to a real pipe, read as fast as it comes, as a process manager or a container
  // runtime reads it: writing to /dev/null would cost the server nothing.
  const child = spawn('node', [...flags, 'apps/api/dist/main.js', 'serve'], { cwd: root, env: serverEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const logged = drain(child.stdout);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) break;
    } catch {
      // starting
    }
    if (child.exitCode !== null) throw new Error('the server exited');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    pid: child.pid,
    env: serverEnv,
    /** How a client reaches the same database (the embedded one through the server's socket). */
    connection: databaseUrl ? { connectionString: databaseUrl } : { host: dataDir, port: 5432, user: 'postgres', database: 'postgres' },
    database: databaseUrl ? 'postgres' : 'pglite',
    /** Bytes the server has written to its log so far. */
    loggedBytes: () => logged.bytes,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
      // BENCH_KEEP_DB=1 leaves the database behind for EXPLAIN and friends.
      if (dbName && !process.env.BENCH_KEEP_DB) {
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        admin.on('error', () => {});
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}
