// Puts load on one URL and reports p50 / p90 / p99 latency and requests per second.
// The load generator is autocannon (from npm, in this process) unless BENCH_LOADGEN=wrk names
// Debian's wrk, a C program that takes a smaller share of the CPU the server and the database share.
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

/** wrk's "1.23ms" / "850.00us" / "1.02s" in milliseconds. */
export function wrkMs(text) {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) throw new Error(`wrk printed a latency it cannot be read from: ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** The figures of `wrk --latency`'s report. */
export function parseWrk(output) {
  const percentile = (p) => {
    const match = new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(output);
    if (!match) throw new Error(`wrk printed no ${p}th percentile:\n${output}`);
    return Math.round(wrkMs(match[1]) * 100) / 100;
  };
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!rate) throw new Error(`wrk printed no request rate:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    p50: percentile(50),
    p90: percentile(90),
    p99: percentile(99),
    rate: Number(rate[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

function wrk({ url, connections, duration, headers }) {
  const args = ['--latency', '-t', '2', '-c', String(connections), '-d', `${duration}s`];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const run = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  if (run.error) throw new Error(`BENCH_LOADGEN=wrk needs Debian's wrk (apt-get install -y wrk): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  return parseWrk(run.stdout);
}

async function autocannonRun({ url, connections, duration, headers }) {
  const result = await autocannon({ url, connections, duration, headers });
  return {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    rate: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export const loadGenerator = process.env.BENCH_LOADGEN === 'wrk' ? 'wrk' : 'autocannon';

/**
 * What every measured request carries besides its own headers: the Accept-Encoding a browser
 * sends, so answers are compressed (or not) as they would be for the web app.
 */
export const BROWSER_HEADERS = { 'accept-encoding': process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd' };

export async function measure({ name, url, connections = 50, duration = 10, headers: own = {} }) {
  const load = loadGenerator === 'wrk' ? wrk : autocannonRun;
  const headers = { ...BROWSER_HEADERS, ...own };
  // A short warm-up so JIT and connection pools are in their steady state.
  await load({ url, connections, duration: 2, headers });
  const result = await load({ url, connections, duration, headers });
  return {
    scenario: name,
    connections,
    'p50 ms': result.p50,
    'p90 ms': result.p90,
    'p99 ms': result.p99,
    'req/s': Math.round(result.rate),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function printTable(title, rows) {
  console.log(`\n${title} (load from ${loadGenerator})`);
  console.table(rows);
}
