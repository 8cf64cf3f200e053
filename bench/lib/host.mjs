// What the host was doing while a scenario ran, so figures from different days can be compared:
// the share of CPU time that was idle and that the hypervisor stole (from /proc/stat; null
// elsewhere), and the round trip of `SELECT 1` to the database with one client.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The machine's CPU time counters (jiffies): total, idle, stolen; null without /proc/stat. */
function cpuTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user and nice)
    const [, , , idle, iowait, , , steal] = fields;
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/** Starts counting; `stop()` gives `{ 'idle %', 'steal %' }` over the interval (nulls without /proc/stat). */
export function cpuShare() {
  const start = cpuTimes();
  return {
    stop() {
      const end = cpuTimes();
      if (!start || !end || end.total === start.total) return { 'idle %': null, 'steal %': null };
      const pct = (key) => Math.round((1000 * (end[key] - start[key])) / (end.total - start.total)) / 10;
      return { 'idle %': pct('idle'), 'steal %': pct('steal') };
    },
  };
}

/** The median and 99th percentile of `SELECT 1` round trips (ms) over one connected pg client. */
export async function roundTrip(client, times = 2000) {
  for (let i = 0; i < 200; i++) await client.query('SELECT 1');
  const took = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await client.query({ name: 'bench_select_1', text: 'SELECT 1' });
    took.push(performance.now() - t);
  }
  took.sort((a, b) => a - b);
  const at = (q) => Math.round(took[Math.min(took.length - 1, Math.floor(q * took.length))] * 1000) / 1000;
  return { p50: at(0.5), p99: at(0.99) };
}
