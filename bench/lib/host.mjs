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

/** A process's CPU time in jiffies from /proc/<pid>/stat: its own, and its waited-for children's. */
function processJiffies(pid) {
  try {
    // The command name may hold spaces; the fields after its closing parenthesis are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // utime, stime, cutime, cstime are fields 14–17 of the file, 12–15 after the name and state.
    return { own: fields[11] + fields[12], children: fields[13] + fields[14] };
  } catch {
    return null;
  }
}

/**
 * The backends of one database, each with its CPU time (jiffies) now: `pids()` lists them (from
 * pg_stat_activity, on a connection to that database). Other databases' backends on the same
 * server (other engineers' tests, other benches) are none of this bench's business.
 */
async function backendJiffies(pids) {
  const out = new Map();
  for (const pid of await pids()) {
    const jiffies = processJiffies(pid)?.own;
    if (jiffies !== undefined) out.set(pid, jiffies);
  }
  return out;
}

/**
 * A pids() for {@link cpuShare}: the backends of the database `client` is connected to, but
 * `client`'s own.
 */
export function databaseBackends(client) {
  return async () =>
    (await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid);
}

/**
 * Starts counting; `stop()` resolves to the host's `idle %` and `steal %` over the interval, and,
 * given the server's pid, the share of one core that the server, PostgreSQL and the load generator
 * (this process and the children it waited for, such as wrk) took. PostgreSQL's share is that of
 * the backends of the bench's own database (`backends`, see {@link databaseBackends}): each
 * backend's time since the start, or since it began when it began later; a backend that ended
 * meanwhile counts nothing, so the figure is never below zero. It is the process `databasePid`
 * when given (the embedded database inside Tay, while a bare baseline queries it), and null
 * without either. Nulls without /proc.
 */
export async function cpuShare({ serverPid, backends, databasePid } = {}) {
  const start = cpuTimes();
  const startedAt = performance.now();
  const mine = () => processJiffies(process.pid);
  const before = {
    server: serverPid ? processJiffies(serverPid)?.own : null,
    db: databasePid ? (processJiffies(databasePid)?.own ?? null) : backends ? await backendJiffies(backends) : null,
    load: mine(),
  };
  return {
    async stop() {
      const end = cpuTimes();
      const db = databasePid ? (processJiffies(databasePid)?.own ?? null) : backends ? await backendJiffies(backends) : null;
      if (!start || !end || end.total === start.total) return { 'idle %': null, 'steal %': null };
      const pct = (key) => Math.round((1000 * (end[key] - start[key])) / (end.total - start.total)) / 10;
      // Jiffies are 1/100 s on Linux: a share of one core over the interval.
      const seconds = (performance.now() - startedAt) / 1000;
      const core = (jiffies) => (jiffies === null || Number.isNaN(jiffies) ? null : Math.round(jiffies / seconds));
      const server = serverPid && before.server != null ? processJiffies(serverPid)?.own : null;
      let dbJiffies = null;
      if (db instanceof Map && before.db instanceof Map) {
        dbJiffies = 0;
        for (const [pid, jiffies] of db) dbJiffies += Math.max(0, jiffies - (before.db.get(pid) ?? 0));
      } else if (typeof db === 'number' && typeof before.db === 'number') {
        dbJiffies = Math.max(0, db - before.db);
      }
      const load = mine();
      return {
        'idle %': pct('idle'),
        'steal %': pct('steal'),
        'server %': server != null ? core(server - before.server) : null,
        'postgres %': core(dbJiffies),
        'load %': load && before.load ? core(load.own + load.children - before.load.own - before.load.children) : null,
      };
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
