// GET /api/health through the whole Tay stack (helmet, rate limit, request ids, logging,
// zod serialisation) against a bare Fastify route (bench/bare/health.mjs). Each server runs in a
// process of its own, as Tay runs, and the load generator in this one: the ratio Tay/bare is the
// share of the bare route's throughput that our plugin stack keeps. BENCH_ROUNDS=<n> measures the
// pair n times, in alternating order, for the median ratio.
import pg from 'pg';
import { startBare } from './lib/bare.mjs';
import { cpuShare, databaseBackends } from './lib/host.mjs';
import { measure, printTable } from './lib/load.mjs';
import { describeRatios, interleaved } from './lib/ratio.mjs';
import { startTay } from './lib/server.mjs';

export async function run({ duration = 10, connections = 50 } = {}) {
  const bare = await startBare('health.mjs');
  const tay = await startTay();
  // PostgreSQL's share: the backends of Tay's own database (the bare route has none).
  const monitor = tay.database === 'postgres' ? new pg.Client(tay.connection) : null;
  monitor?.on('error', () => {});
  await monitor?.connect();
  const backends = monitor ? databaseBackends(monitor) : undefined;
  const scenario = (name, url, serverPid, withDatabase) => async () => {
    const cpu = await cpuShare({ serverPid, ...(withDatabase && backends ? { backends } : {}) });
    const row = await measure({ name, url, connections, duration });
    return { ...row, ...(await cpu.stop()) };
  };
  try {
    const { rows, ratios } = await interleaved(
      scenario('bare Fastify GET /api/health', `${bare.baseUrl}/api/health`, bare.pid, false),
      scenario(`Tay GET /api/health (${tay.database})`, `${tay.baseUrl}/api/health`, tay.pid, true),
    );
    rows.push(await scenario(`Tay GET /api/ready (${tay.database})`, `${tay.baseUrl}/api/ready`, tay.pid, true)());
    for (const row of rows) row['server µs/req'] = row['server %'] != null && row['req/s'] ? Math.round((row['server %'] * 10_000) / row['req/s']) : null;
    printTable('Health endpoints', rows);
    console.log(
      `Tay/bare: Tay's /api/health serves ${describeRatios(ratios)} the requests per second of the bare route (goal ≥ 0.6×), each server in a process of its own. server % is the share of a core the measured server took; server µs/req its CPU time per answer.`,
    );
    return rows;
  } finally {
    await monitor?.end().catch(() => {});
    await tay.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
