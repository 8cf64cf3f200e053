// Bulk batches at scale (issue 17): an approved business with BENCH_BULK_ROWS payers (default
// 100,000) seeded with bulk SQL, and a CSV of as many rows naming them by e-mail, sent through
// the real server with its jobs in the same process (as `npm start` runs them):
// - store and validate: the upload request's start → phase `validated` (the mapping set, every
//   row checked in the background), in rows per second, beside a bulk load of the same rows on
//   the same database: `COPY … FROM STDIN` into a table with the CSV's columns (PostgreSQL), and
//   one `INSERT … SELECT` from a single jsonb parameter into batch_rows (both databases; the
//   only one on the embedded database, whose server takes no COPY data and whose app role may
//   create no table), and csv-parse reading the file alone in this process (the floor under any
//   design that reads the file in JavaScript). Goal: validation ≤ 5× the COPY.
// - submit: the submit request's start → state `Processed` (one request to pay per row, its
//   timeline, its audit copy and its e-mail in the outbox). Goal on PostgreSQL: 100,000 in under a minute.
// - GET /api/health at 10 connections while a second batch validates and while it sends, beside
//   the same idle, measured in the same run. Goal: p99 during ≤ 3× idle.
// The timed batch runs with no other load; the health is measured on a second batch of the same
// size (other references), so neither figure disturbs the other. The baselines run last. Also
// measured: the slowest of one-at-a-time GET /api/health calls during the second upload request.
// BENCH_BULK_ANALYZE=1 runs `ANALYZE batch_rows` every second while rows are checked, as an
// autovacuum that keeps up would. Without statistics on batch_rows (a fresh table; the embedded
// database, which has no autovacuum; a PostgreSQL with autovacuum off) the check's last step
// (`markRepeats`) may be planned as a nested loop that runs its window query once per row: time in
// the square of the rows (bench/RESULTS.md, 2026-11-25). BENCH_BULK_STALL=<s> (default 300): how
// long a run may show no progress before the bench gives up.
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { copyFrom } from './lib/copy.mjs';
import { cpuShare, databaseBackends, roundTrip } from './lib/host.mjs';
import { loadGenerator, measure, printTable } from './lib/load.mjs';
import { median } from './lib/ratio.mjs';
import { startTay } from './lib/server.mjs';
import { approvedTenant } from './lib/tenant.mjs';

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 100_000);
/** Each baseline is run this many times; the median counts. */
const BASELINE_ROUNDS = 3;
/** How often the batch is read while it runs (ms): the resolution of the timings. */
const POLL_MS = 200;
/** A run whose progress does not move for this long has failed (s). */
const STALL_SECONDS = Number(process.env.BENCH_BULK_STALL ?? 300);
const HEALTH = { connections: 10, duration: 5 };
const ANALYZE = process.env.BENCH_BULK_ANALYZE === '1';
const NAMES = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jules'];

const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? null : Number(n.toFixed(digits)));
const seconds = (ms) => fmt(ms / 1000, 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const count = (n) => n.toLocaleString('en-US');

async function seedPayers(client, businessId, rows) {
  await client.query(
    `INSERT INTO payers (business_id, id, first_name, last_name, display_name, email)
     SELECT $1, 'pyr_bulk_' || g, 'First' || g, 'Last' || g, ($3::text[])[1 + g % 10] || ' Payer ' || g, 'payer' || g || '@bulk.example'
     FROM generate_series(1, $2) g`,
    [businessId, rows, NAMES],
  );
}

/** The rows of a file: e-mail, amount, due date, memo and a reference unique to the row (`tag-000001`). */
function records(rows, tag, dueDate) {
  const out = [];
  for (let i = 1; i <= rows; i++) {
    const cents = 500 + ((i * 104729) % 500_000);
    out.push([`payer${i}@bulk.example`, (cents / 100).toFixed(2), dueDate, `Bulk request ${i}`, `${tag}-${String(i).padStart(6, '0')}`]);
  }
  return out;
}

const HEADER = ['Email', 'Amount', 'Due date', 'Memo', 'Reference'];
const MAPPING = { payer: 'existing', columns: { email: 'Email', amount: 'Amount', dueDate: 'Due date', memo: 'Memo', reference: 'Reference' } };

/** As a spreadsheet exports it: CRLF, no value needs quotes. */
function csvOf(rows) {
  return Buffer.from(`${[HEADER, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`);
}

/** The baselines: the same rows loaded in bulk, nothing checked. Each resolves to the median ms. */
async function baselines(client, tay, businessId, rows, csv) {
  const out = [];
  if (tay.database === 'postgres') {
    const took = [];
    for (let round = 0; round < BASELINE_ROUNDS; round++) {
      await client.query('DROP TABLE IF EXISTS bench_bulk_copy');
      await client.query('CREATE TABLE bench_bulk_copy (email text, amount text, due_date text, memo text, reference text)');
      const t = performance.now();
      const copied = await copyFrom(client, 'COPY bench_bulk_copy FROM STDIN (FORMAT csv, HEADER true)', csv);
      took.push(performance.now() - t);
      if (copied !== rows.length) throw new Error(`COPY copied ${copied} rows, not ${rows.length}`);
    }
    await client.query('DROP TABLE bench_bulk_copy');
    out.push({ name: 'COPY FROM STDIN (csv) into a table of the CSV columns', key: 'copy', ms: median(took), rounds: took });
  }
  // Reading the file alone, with the CSV library the server uses, in this process: no checks, no
  // storage. The floor under any design that reads the file in JavaScript before checking it.
  const parsed = [];
  for (let round = 0; round < BASELINE_ROUNDS; round++) {
    const t = performance.now();
    const records = parse(csv, { bom: true });
    parsed.push(performance.now() - t);
    if (records.length !== rows.length + 1) throw new Error(`csv-parse read ${records.length - 1} rows, not ${rows.length}`);
  }
  out.push({ name: 'csv-parse of the whole file alone (no checks, no storage)', key: 'parse', ms: median(parsed), rounds: parsed });
  // The rows as the check stores them (fields by key), into batch_rows under a batch of their
  // own, in one statement: what storing costs without reading, checking or chunks.
  const json = JSON.stringify(
    rows.map(([email, amount, dueDate, memo, reference], i) => ({ line: i + 2, fields: { email, amount, dueDate, memo, reference } })),
  );
  const took = [];
  for (let round = 0; round < BASELINE_ROUNDS; round++) {
    const batchId = `bat_bench_baseline_${round}`;
    await client.query(
      `INSERT INTO batches (business_id, id, kind, file_name, file_bytes, file_sha256, encoding, delimiter, columns, file_rows, mapping, created_by_user_id, created_by)
       VALUES ($1, $2, 'requests', 'baseline.csv', $3, '', 'utf-8', ',', $4, $5, $6, 'bench', 'bench')`,
      [businessId, batchId, csv.length, JSON.stringify(HEADER), rows.length, JSON.stringify(MAPPING)],
    );
    const t = performance.now();
    const inserted = await client.query(
      `INSERT INTO batch_rows (business_id, batch_id, line, status, fields)
       SELECT $1, $2, x.line, 'pending', x.fields FROM jsonb_to_recordset($3::jsonb) AS x(line int, fields jsonb)`,
      [businessId, batchId, json],
    );
    took.push(performance.now() - t);
    if (inserted.rowCount !== rows.length) throw new Error(`The jsonb baseline inserted ${inserted.rowCount} rows, not ${rows.length}`);
    await client.query('DELETE FROM batches WHERE business_id = $1 AND id = $2', [businessId, batchId]);
  }
  out.push({ name: 'INSERT … SELECT FROM jsonb_to_recordset($1) into batch_rows', key: 'jsonb', ms: median(took), rounds: took });
  return out;
}

function api(tay, main) {
  const headers = { authorization: `Bearer ${main.token}`, origin: tay.baseUrl };
  const base = `${tay.baseUrl}/api/businesses/${main.businessId}/batches`;
  const call = async (method, path, body, type = 'application/json') => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': type }) },
      body: body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 600)}`);
    return JSON.parse(text).data;
  };
  return {
    upload: (csv, fileName) => call('POST', `?kind=requests&fileName=${encodeURIComponent(fileName)}`, csv, 'text/csv'),
    map: (batchId) => call('PATCH', `/${batchId}`, { mapping: MAPPING }),
    submit: (batchId) => call('POST', `/${batchId}/submit`, { mode: 'send' }),
    get: (batchId) => call('GET', `/${batchId}`),
  };
}

/**
 * Reads the batch every POLL_MS until `done(batch)`; resolves to when that was first seen (ms,
 * performance.now()), when the progress first moved and last moved, and the batch. Prints the
 * progress every 15 s; fails when it stops moving for STALL_SECONDS.
 */
async function waitFor(client, batchId, what, done) {
  let firstMove = null;
  let lastMove = performance.now();
  let lastDone = -1;
  let printed = performance.now();
  for (;;) {
    const batch = await client.get(batchId);
    const now = performance.now();
    if (done(batch)) return { at: now, firstMove, lastMove, batch };
    if (batch.progress.done !== lastDone) {
      if (firstMove === null && batch.progress.done > 0) firstMove = now;
      lastDone = batch.progress.done;
      lastMove = now;
    }
    if (now - lastMove > STALL_SECONDS * 1000) {
      const last =
        batch.phase === 'validating' && batch.progress.done === batch.progress.total
          ? ' Every row is stored: the last step of the check (markRepeats and recount, apps/api/src/domain/batches/check-batch.ts) has not ended. BENCH_BULK_ANALYZE=1 gives batch_rows statistics first.'
          : '';
      throw new Error(`${what}: no progress for ${STALL_SECONDS} s.${last} (${JSON.stringify(batch).slice(0, 600)})`);
    }
    if (now - printed > 15_000) {
      console.log(`  ${what}: ${count(batch.progress.done)} / ${count(batch.progress.total)} (${batch.phase})`);
      printed = now;
    }
    await sleep(POLL_MS);
  }
}

/** With BENCH_BULK_ANALYZE=1, `ANALYZE batch_rows` every second until the returned stop() (which resolves to how many ran). */
function analyzer(db) {
  if (!ANALYZE) return async () => 0;
  let stopped = false;
  let runs = 0;
  const loop = (async () => {
    while (!stopped) {
      await db.query('ANALYZE batch_rows');
      runs++;
      await sleep(1000);
    }
  })().catch(() => {});
  return async () => {
    stopped = true;
    await loop;
    return runs;
  };
}

const validated = (b) => b.phase !== 'validating' && b.phase !== 'uploaded';
const processed = (b) => b.phase === 'done';

function expectBatch(batch, rows, phase) {
  const ok =
    phase === 'validated'
      ? batch.phase === 'validated' && batch.counts.valid === rows && batch.counts.invalid === 0
      : batch.state === 'Processed' && batch.counts.sent === rows && batch.counts.failed === 0;
  if (!ok) throw new Error(`The batch is not ${phase} with ${rows} rows: ${JSON.stringify(batch).slice(0, 800)}`);
}

/** What cpuShare counts: the server, and on PostgreSQL the backends of the bench's database. */
const shareOf = (tay, db) => ({ serverPid: tay.pid, ...(tay.database === 'postgres' ? { backends: databaseBackends(db) } : {}) });

/** One batch from upload to Processed, nothing else running; the figures of each step. */
async function timedBatch(tay, db, client, rows, csv) {
  const cpuValidate = await cpuShare(shareOf(tay, db));
  const stopAnalyze = analyzer(db);
  const t0 = performance.now();
  const uploaded = await client.upload(csv, 'bench-timed.csv');
  const t1 = performance.now();
  await client.map(uploaded.batchId);
  const t2 = performance.now();
  const check = await waitFor(client, uploaded.batchId, 'validating', validated);
  const validateCpu = await cpuValidate.stop();
  const analyzed = await stopAnalyze();
  expectBatch(check.batch, rows.length, 'validated');

  const cpuSend = await cpuShare(shareOf(tay, db));
  const t3 = performance.now();
  await client.submit(uploaded.batchId);
  const t4 = performance.now();
  const send = await waitFor(client, uploaded.batchId, 'sending', processed);
  const sendCpu = await cpuSend.stop();
  expectBatch(send.batch, rows.length, 'processed');
  return {
    batchId: uploaded.batchId,
    analyzed,
    upload: t1 - t0,
    map: t2 - t1,
    // The job's first chunk (pick-up by the queue, which polls every second, and 2,000 rows checked).
    checkFirst: (check.firstMove ?? check.at) - t2,
    checkSteady: (check.lastMove ?? check.at) - (check.firstMove ?? t2),
    checkLast: check.at - check.lastMove,
    validate: check.at - t0,
    validateCpu,
    submitRequest: t4 - t3,
    sendFirst: (send.firstMove ?? send.at) - t4,
    sendSteady: (send.lastMove ?? send.at) - (send.firstMove ?? t4),
    sendLast: send.at - send.lastMove,
    submit: send.at - t3,
    sendCpu,
  };
}

/**
 * /api/health under load while `phase` runs: measured with the load helper, beside a watch of
 * the batch; `overlap` is the share of the measured seconds (after the warm-up) the phase still ran.
 */
async function healthDuring(tay, db, client, batchId, phase, finished) {
  let endedAt = null;
  const watch = waitFor(client, batchId, phase, finished).then((r) => {
    endedAt = r.at;
    return r;
  });
  watch.catch(() => {}); // awaited below, after the measurement
  const cpu = await cpuShare(shareOf(tay, db));
  const row = await measure({ name: `/api/health while a batch is ${phase} (${tay.database})`, url: `${tay.baseUrl}/api/health`, ...HEALTH });
  const end = performance.now();
  const shares = await cpu.stop();
  const start = end - HEALTH.duration * 1000;
  const overlap = endedAt === null ? 1 : Math.max(0, Math.min(1, (endedAt - start) / (end - start)));
  const result = await watch;
  return { row: { ...row, 'overlap %': Math.round(overlap * 100), ...shares }, result };
}

/** One GET /api/health at a time (every 50 ms) until stop(), which resolves to how many and the slowest (ms). */
function probeHealth(tay) {
  let stopped = false;
  let slowest = 0;
  let probes = 0;
  const loop = (async () => {
    while (!stopped) {
      const t = performance.now();
      await fetch(`${tay.baseUrl}/api/health`).then((r) => r.arrayBuffer());
      slowest = Math.max(slowest, performance.now() - t);
      probes++;
      await sleep(50);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { probes, slowest: Math.round(slowest) };
    },
  };
}

/** The second batch, with /api/health measured while it validates and while it sends. */
async function loadedBatch(tay, db, client, rows, csv) {
  const stopAnalyze = analyzer(db);
  const t0 = performance.now();
  const upload = probeHealth(tay);
  const uploaded = await client.upload(csv, 'bench-loaded.csv');
  const uploadProbe = { ...(await upload.stop()), ms: performance.now() - t0 };
  await client.map(uploaded.batchId);
  const validating = await healthDuring(tay, db, client, uploaded.batchId, 'validating', validated);
  await stopAnalyze();
  expectBatch(validating.result.batch, rows.length, 'validated');
  const t1 = performance.now();
  await client.submit(uploaded.batchId);
  const sending = await healthDuring(tay, db, client, uploaded.batchId, 'sending', processed);
  expectBatch(sending.result.batch, rows.length, 'processed');
  return { rows: [validating.row, sending.row], uploadProbe, validate: validating.result.at - t0, submit: sending.result.at - t1 };
}

/** What the submission made, counted in the database. */
async function made(db, businessId, batchId) {
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM payment_requests WHERE business_id = $1 AND batch_id = $2)::int AS requests,
            (SELECT count(*) FROM mail_outbox m JOIN payment_requests r ON r.business_id = m.business_id AND r.id = m.request_id
              WHERE r.business_id = $1 AND r.batch_id = $2)::int AS messages,
            (SELECT count(*) FROM payment_request_events e JOIN payment_requests r ON r.business_id = e.business_id AND r.id = e.request_id
              WHERE r.business_id = $1 AND r.batch_id = $2)::int AS events`,
    [businessId, batchId],
  );
  return rows[0];
}

export async function run() {
  // The batch jobs run in the server's process, as under `npm start` (one process, no worker).
  const tay = await startTay({ env: { JOBS_IN_PROCESS: 'true' } });
  const db = new pg.Client(tay.connection);
  db.on('error', () => {});
  try {
    await db.connect();
    const main = await approvedTenant(tay, 'bench-bulk@example.com');
    const started = performance.now();
    await seedPayers(db, main.businessId, ROWS);
    await db.query('ANALYZE payers');
    if (tay.database === 'postgres') await db.query('CHECKPOINT');
    console.log(`Seeded ${count(ROWS)} payers on ${tay.database} in ${seconds(performance.now() - started)} s`);
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const timedRows = records(ROWS, 'BULK-A', due);
    const timedCsv = csvOf(timedRows);
    const loadedRows = records(ROWS, 'BULK-B', due);
    const loadedCsv = csvOf(loadedRows);
    const trip = await roundTrip(db);

    const client = api(tay, main);
    console.log(`Timed batch: ${count(ROWS)} rows, ${(timedCsv.length / 1e6).toFixed(1)} MB`);
    const timed = await timedBatch(tay, db, client, timedRows, timedCsv);
    const created = await made(db, main.businessId, timed.batchId);
    if (created.requests !== ROWS || created.messages !== ROWS) throw new Error(`The timed batch made ${JSON.stringify(created)}`);

    // The idle baseline runs with whatever the database does in the background after a batch
    // (its checkpoints, autovacuum), as the loaded measurement does: not on a server just
    // flushed by a CHECKPOINT, which would make idle look quieter than it is.
    const idle = { ...(await measure({ name: `/api/health idle (${tay.database})`, url: `${tay.baseUrl}/api/health`, ...HEALTH })), 'overlap %': null };
    console.log('Loaded batch: /api/health measured while it validates and sends');
    const loaded = await loadedBatch(tay, db, client, loadedRows, loadedCsv);

    // After the batches: rows written to batch_rows and deleted before them would change how
    // the check's statements are planned on a table with no statistics (a fresh install's).
    const base = await baselines(db, tay, main.businessId, timedRows, timedCsv);
    for (const b of base) console.log(`Baseline ${b.name}: ${b.rounds.map((ms) => seconds(ms)).join(', ')} s`);
    const copy = base.find((b) => b.key === 'copy') ?? base.find((b) => b.key === 'jsonb');
    const jsonb = base.find((b) => b.key === 'jsonb');

    const rate = (ms) => Math.round(ROWS / (ms / 1000));
    const vsCopy = (ms) => (copy.key === 'copy' ? fmt(ms / copy.ms, 1) : null);
    const vsJsonb = (ms) => fmt(ms / jsonb.ms, 1);
    const steps = [
      { step: 'upload request (read whole file, store it)', s: seconds(timed.upload) },
      { step: 'map request (queue the check)', s: seconds(timed.map) },
      { step: 'check: until the first chunk is stored (queue pick-up)', s: seconds(timed.checkFirst) },
      { step: 'check: the other chunks', s: seconds(timed.checkSteady), 'rows/s': fmt(ROWS / (timed.checkSteady / 1000)) },
      { step: 'check: the last step (repeats, counts)', s: seconds(timed.checkLast) },
      {
        step: 'store and validate (upload → validated)',
        s: seconds(timed.validate),
        'rows/s': rate(timed.validate),
        '× COPY': vsCopy(timed.validate),
        '× jsonb': vsJsonb(timed.validate),
        ...timed.validateCpu,
      },
      { step: 'submit request', s: seconds(timed.submitRequest) },
      { step: 'send: until the first chunk is stored (queue pick-up)', s: seconds(timed.sendFirst) },
      { step: 'send: the other chunks', s: seconds(timed.sendSteady), 'rows/s': fmt(ROWS / (timed.sendSteady / 1000)) },
      { step: 'send: the last step (counts, state)', s: seconds(timed.sendLast) },
      {
        step: 'submit (submit → Processed)',
        s: seconds(timed.submit),
        'rows/s': rate(timed.submit),
        '× COPY': vsCopy(timed.submit),
        '× jsonb': vsJsonb(timed.submit),
        ...timed.sendCpu,
      },
      ...base.map((b) => ({ step: `baseline: ${b.name}`, s: seconds(b.ms), 'rows/s': rate(b.ms), '× COPY': b.key === 'copy' ? null : vsCopy(b.ms) })),
      { step: 'store and validate, under the health load', s: seconds(loaded.validate), 'rows/s': rate(loaded.validate) },
      { step: 'submit, under the health load', s: seconds(loaded.submit), 'rows/s': rate(loaded.submit) },
    ];
    console.log(
      `\nBulk batch of ${count(ROWS)} rows on ${tay.database} (${(timedCsv.length / 1e6).toFixed(1)} MB)${ANALYZE ? `, ANALYZE batch_rows every second while checking (${timed.analyzed} runs in the timed batch)` : ''}`,
    );
    console.table(steps);
    const healthRows = [idle, ...loaded.rows];
    printTable(`GET /api/health at ${HEALTH.connections} connections, idle and while a batch of ${count(ROWS)} rows runs`, healthRows);

    const p99 = (i) => healthRows[i]['p99 ms'];
    const validateRatio = timed.validate / copy.ms;
    const summary = [
      {
        figure: `store and validate / ${copy.key === 'copy' ? 'COPY' : 'jsonb INSERT'}`,
        value: `${validateRatio.toFixed(1)}×`,
        goal: '≤ 5×',
        holds: validateRatio <= 5,
      },
      {
        figure: `submit ${count(ROWS)} rows`,
        value: `${seconds(timed.submit)} s (${rate(timed.submit)} rows/s)`,
        goal: tay.database === 'postgres' ? '100,000 < 60 s' : '(PostgreSQL only)',
        holds: tay.database === 'postgres' ? timed.submit / 1000 < (60 * ROWS) / 100_000 : null,
      },
      ...[1, 2].map((i) => ({
        figure: `health p99 ${i === 1 ? 'validating' : 'sending'} / idle`,
        value: `${(p99(i) / p99(0)).toFixed(1)}× (${p99(i)} / ${p99(0)} ms)`,
        goal: '≤ 3×',
        holds: p99(i) / p99(0) <= 3,
      })),
    ];
    console.log(
      `While the second batch's upload request ran (${seconds(loaded.uploadProbe.ms)} s): ${loaded.uploadProbe.probes} GET /api/health one at a time, the slowest answered in ${loaded.uploadProbe.slowest} ms.`,
    );
    console.log('\nGoals (issue 17)');
    console.table(summary);
    if (loadGenerator === 'autocannon')
      console.log(
        'autocannon reports whole milliseconds, so an idle p99 of 1–2 ms makes the health ratios coarse: BENCH_LOADGEN=wrk measures to the microsecond.',
      );
    console.log(
      `Made by the timed batch: ${count(created.requests)} requests, ${count(created.messages)} e-mails in the outbox, ${count(created.events)} timeline events (each with its audit copy). ` +
        `Baseline on ${tay.database}: ${copy.key === 'copy' ? 'COPY FROM STDIN' : 'one INSERT … SELECT from a jsonb parameter (the embedded server takes no COPY data)'}, median of ${BASELINE_ROUNDS}. ` +
        `SELECT 1 round trip: p50 ${trip.p50} ms, p99 ${trip.p99} ms. server %, postgres % and load % are shares of one core; overlap % is the share of the measured seconds the batch was still in that phase.`,
    );
    return { steps, health: healthRows, summary };
  } catch (error) {
    console.error('The bulk benchmark failed:', error);
    throw error;
  } finally {
    await db.end().catch(() => {});
    await tay.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
