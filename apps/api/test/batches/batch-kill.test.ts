// PostgreSQL pass: a job killed and taken over: row locks and leases.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, repoRoot } from '../../src/config';
import { STALLED_AFTER_SECONDS } from '../../src/domain/batches/submit-batch';
import { startRuntime, startServer, type Runtime } from '../../src/runtime';
import { approvedBusiness, insertPayer, type ApprovedBusiness } from '../support/approved-business';
import { dayIn } from '../support/requests';
import { silentLogger } from '../support/silent-logger';
import { eventually, freePort, freshDatabaseUrl } from '../support/test-app';

/**
 * A real `kill -9` of the server in the middle of sending a batch (PostgreSQL only: the embedded
 * PGlite lives inside one process). The server runs as `npm start` runs it (`scripts/start.mjs`),
 * in a child process over a fresh database; the batch is uploaded, mapped and submitted over
 * HTTP; the child is killed with SIGKILL once some rows went and others had not; a new server
 * starts on the same database and finishes the batch. Every row must be sent exactly once.
 */

const ROWS = 5000;
const PAYERS = 50;
const root = repoRoot();
const postgres = Boolean(process.env.DATABASE_URL);

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

let databaseUrl: string;
let authSecret: string;
let dataDir: string;
let setup: { app: FastifyInstance; runtime: Runtime } | undefined;
let owner: ApprovedBusiness;
let admin: pg.Client;
const servers: Server[] = [];

/** `node scripts/start.mjs` on a free port over the test's database, ready to answer. */
async function startServerProcess(): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: authSecret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000',
      SANDBOX_AUTO_APPROVE: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, url, output: () => output, exited };
  servers.push(server);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not start within 180 s:\n${output}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

async function stop(server: Server, signal: NodeJS.Signals) {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
}

async function http(server: Server, method: string, url: string, body?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${owner.token}`,
      ...(body !== undefined && !headers['content-type'] ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as { data: Record<string, unknown> & { batchId: string; phase: string } } };
}

async function batchRow(batchId: string) {
  const { rows } = await admin.query<{ state: string; phase: string; progress_done: number; progress_total: number }>(
    'SELECT state, phase, progress_done, progress_total FROM batches WHERE id = $1',
    [batchId],
  );
  return rows[0]!;
}

async function count(query: string, batchId: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(query, [batchId]);
  return Number(rows[0]!.n);
}

const requestsOf = (batchId: string) => count('SELECT count(*) AS n FROM payment_requests WHERE batch_id = $1', batchId);
const sentRowsOf = (batchId: string) => count("SELECT count(*) AS n FROM batch_rows WHERE batch_id = $1 AND status = 'sent'", batchId);

describe.skipIf(!postgres)('kill -9 while a batch is being sent (PostgreSQL)', () => {
  beforeAll(async () => {
    // What `npm start` would build first, built once here so the servers start at once.
    const build = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, encoding: 'utf8', timeout: 600_000 });
    if (build.status !== 0) throw new Error(`Building the app failed:\n${build.stdout}\n${build.stderr}`);

    databaseUrl = (await freshDatabaseUrl())!;
    authSecret = randomBytes(32).toString('base64url');
    dataDir = mkdtempSync(path.join(tmpdir(), 'tay-batch-kill-'));
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // The business, its owner's session and its payers are made in this process (no job runs here).
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '10000',
      WEB_DIST_DIR: '/nonexistent',
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: authSecret,
    });
    const runtime = await startRuntime(config, { work: false, log: silentLogger });
    const app = await startServer(runtime, { logger: false });
    await app.ready();
    setup = { app, runtime };
    owner = await approvedBusiness(app, runtime.database.db, 'kill-owner@example.com');
    for (let i = 0; i < PAYERS; i++) {
      await insertPayer(runtime.database.db, owner.businessId, { email: `kill${i}@payers.example`, displayName: `Kill Payer ${i}` });
    }
  }, 900_000);

  afterAll(async () => {
    for (const server of servers) await stop(server, 'SIGTERM');
    await setup?.app.close();
    await admin?.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`${ROWS} rows: killed after some were sent, a new server sends the rest; each row is a request exactly once`, async () => {
    const first = await startServerProcess();

    const lines = ['Email,Amount,Due date,Reference,Memo'];
    for (let i = 0; i < ROWS; i++) lines.push(`kill${i % PAYERS}@payers.example,${(i % 200) + 1}.50,${dayIn(25)},KILL-${i},Row ${i}`);
    const upload = await http(first, 'POST', `/api/businesses/${owner.businessId}/batches?kind=requests&fileName=kill.csv`, lines.join('\n'), {
      'content-type': 'text/csv',
    });
    expect(upload.status, upload.text).toBe(201);
    const batchId = upload.json().data.batchId;
    const base = `/api/businesses/${owner.businessId}/batches/${batchId}`;
    const mapped = await http(
      first,
      'PATCH',
      base,
      JSON.stringify({ mapping: { columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', reference: 'Reference', memo: 'Memo' } } }),
    );
    expect(mapped.status, mapped.text).toBe(202);
    const checked = await eventually(async () => {
      const b = (await http(first, 'GET', base)).json().data;
      return b.phase === 'validated' ? b : undefined;
    }, 60_000);
    expect(checked).toMatchObject({ counts: { rows: ROWS, valid: ROWS, invalid: 0 } });

    const submit = await http(first, 'POST', `${base}/submit`, JSON.stringify({ mode: 'send' }), { 'idempotency-key': `kill-${batchId}` });
    expect(submit.status, submit.text).toBe(202);

    // Watch the progress as closely as the database allows, and kill the server mid-way.
    let seen = await batchRow(batchId);
    const deadline = Date.now() + 60_000;
    while (!(seen.progress_done > 0 && seen.progress_done < ROWS)) {
      if (seen.phase === 'done') throw new Error('The batch was sent whole before it could be killed mid-way; send more rows.');
      if (Date.now() > deadline) throw new Error(`The send did not start: ${JSON.stringify(seen)}\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      seen = await batchRow(batchId);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');

    // What the dead server left: whole chunks only, each sent row with its one request.
    const left = await batchRow(batchId);
    expect(left).toMatchObject({ state: 'Submitted', phase: 'sending' });
    const sentAtDeath = await sentRowsOf(batchId);
    expect(sentAtDeath).toBeGreaterThan(0);
    expect(sentAtDeath).toBeLessThan(ROWS);
    expect(await requestsOf(batchId)).toBe(sentAtDeath);
    expect(left.progress_done).toBe(sentAtDeath);

    // The dead run's heartbeat has stopped: its time to count as dead passes before the restart.
    await admin.query(`UPDATE batches SET heartbeat_at = heartbeat_at - interval '${STALLED_AFTER_SECONDS + 1} seconds' WHERE id = $1`, [batchId]);
    const second = await startServerProcess();
    const done = await eventually(async () => {
      const b = (await http(second, 'GET', base)).json().data;
      return b.phase === 'done' ? b : undefined;
    }, 90_000);
    expect(done).toMatchObject({ state: 'Processed', counts: { rows: ROWS, valid: 0, sent: ROWS, failed: 0 } });

    expect(await requestsOf(batchId)).toBe(ROWS);
    expect(await sentRowsOf(batchId)).toBe(ROWS);
    expect(await count("SELECT count(DISTINCT request_id) AS n FROM batch_rows WHERE batch_id = $1 AND status = 'sent'", batchId)).toBe(ROWS);
    expect(
      await count(
        'SELECT count(*) AS n FROM batch_rows r JOIN payment_requests p ON p.business_id = r.business_id AND p.id = r.request_id WHERE r.batch_id = $1 AND p.batch_id = r.batch_id',
        batchId,
      ),
    ).toBe(ROWS);
    // One e-mail per request, and the numbers without a gap.
    expect(await count('SELECT count(*) AS n FROM mail_outbox m JOIN payment_requests p ON p.id = m.request_id WHERE p.batch_id = $1', batchId)).toBe(ROWS);
    expect(
      await count('SELECT count(DISTINCT m.request_id) AS n FROM mail_outbox m JOIN payment_requests p ON p.id = m.request_id WHERE p.batch_id = $1', batchId),
    ).toBe(ROWS);
    expect(await count('SELECT max(number) - min(number) + 1 AS n FROM payment_requests WHERE batch_id = $1', batchId)).toBe(ROWS);
    // Each row's request is the row's: its reference and amount.
    expect(
      await count(
        "SELECT count(*) AS n FROM batch_rows r JOIN payment_requests p ON p.id = r.request_id WHERE r.batch_id = $1 AND p.reference = r.fields->>'reference' AND p.amount_cents = r.amount_cents",
        batchId,
      ),
    ).toBe(ROWS);
  }, 240_000);
});
