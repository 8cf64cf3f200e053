// Runs autocannon against one URL and reports p50 / p99 latency and requests per second.
import autocannon from 'autocannon';

export async function measure({ name, url, connections = 50, duration = 10, headers = {} }) {
  // A short warm-up so JIT and connection pools are in their steady state.
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration, headers });
  const row = {
    scenario: name,
    connections,
    'p50 ms': result.latency.p50,
    'p90 ms': result.latency.p90,
    'p99 ms': result.latency.p99,
    'req/s': Math.round(result.requests.average),
    non2xx: result.non2xx,
    errors: result.errors,
  };
  return row;
}

export function printTable(title, rows) {
  console.log(`\n${title}`);
  console.table(rows);
}
