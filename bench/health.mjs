// GET /api/health through the whole Tay stack (helmet, rate limit, request ids, logging,
// zod serialisation) against a bare Fastify route (bench/bare/health.mjs). Each server runs in a
// process of its own, as Tay runs, and the load generator in this one: the ratio Tay/bare is the
// share of the bare route's throughput that our plugin stack keeps. BENCH_ROUNDS=<n> measures the
// pair n times, in alternating order, for the median ratio.
import { startBare } from './lib/bare.mjs';
import { cpuShare } from './lib/host.mjs';
import { measure, printTable } from './lib/load.mjs';
import { describeRatios, interleaved } from './lib/ratio.mjs';
import { startTay } from './lib/server.mjs';

export async function run({ duration = 10, connections = 50 } = {}) {
  const bare = await startBare('health.mjs');
  const tay = await startTay();
  const postgres = tay.database === 'postgres';
  const scenario = (name, url, serverPid) => async () => {
    const cpu = cpuShare({ serverPid, postgres });
    const row = await measure({ name, url, connections, duration });
    return { ...row, ...cpu.stop() };
  };
  try {
    const { rows, ratios } = await interleaved(
      scenario('bare Fastify GET /api/health', `${bare.baseUrl}/api/health`, bare.pid),
      scenario(`Tay GET /api/health (${tay.database})`, `${tay.baseUrl}/api/health`, tay.pid),
    );
    rows.push(await scenario(`Tay GET /api/ready (${tay.database})`, `${tay.baseUrl}/api/ready`, tay.pid)());
    printTable('Health endpoints', rows);
    console.log(
      `Tay/bare: Tay's /api/health serves ${describeRatios(ratios)} the requests per second of the bare route, each server in a process of its own. server % is the share of a core the measured server took.`,
    );
    return rows;
  } finally {
    await tay.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
