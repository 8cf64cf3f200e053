import { mkdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { parseTimestamptz } from './parse-timestamptz';
import { PgliteServer } from './pglite-server';
import { preparingPool } from './prepared-statements';
import type { DB } from './schema';

// bigint (int8) columns hold money in cents; they fit a JS number up to 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value out of safe range: ${value}`);
  return n;
});

// timestamptz: the usual form read by character codes (a list page has about a hundred).
const driverTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => parseTimestamptz(value, driverTimestamptz));

// `date` columns stay 'YYYY-MM-DD' strings: a calendar date has no time zone to get wrong.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type DatabaseKind = 'pglite' | 'postgres';

/** How another client (pg-boss, a second process) reaches the same database. */
export interface ConnectionSettings {
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  database?: string;
}

export interface Database {
  kind: DatabaseKind;
  connection: ConnectionSettings;
  pool: pg.Pool;
  db: Kysely<DB>;
  close(): Promise<void>;
}

export type DatabaseConfig = Config['database'];

/**
 * Opens the database the configuration names. In the embedded mode PGlite (one backend, one
 * session) runs in this process behind a PostgreSQL wire-protocol socket, so every client —
 * our queries, better-auth, pg-boss — uses the same `pg` driver as against a real server.
 * See docs/decisions/002-embedded-database.md for what that single session implies.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') {
    const connection: ConnectionSettings = { connectionString: config.url };
    return fromPool('postgres', connection, config.poolMax, async () => {});
  }
  const embedded = await startEmbedded(config.dataDir);
  return fromPool('pglite', embedded.connection, config.poolMax, embedded.stop);
}

function fromPool(
  kind: DatabaseKind,
  connection: ConnectionSettings,
  poolMax: number,
  stop: () => Promise<void>,
): Database {
  const pool = new pg.Pool({ ...connection, max: poolMax, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Named statements on both: the embedded database's server shares them across its one session.
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  let closed = false;
  return {
    kind,
    connection,
    pool,
    db,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely ends the pool only if it ever used it; migrations may be the only user.
      if (!pool.ended) await pool.end();
      await stop();
    },
  };
}

interface Embedded {
  connection: ConnectionSettings;
  stop: () => Promise<void>;
}

/**
 * `dataDir` of `memory://` keeps the database in memory (tests); otherwise it is a directory
 * that survives restarts. The socket is a Unix socket inside the data directory (owner-only),
 * falling back to a loopback TCP port when the path is too long for a socket name.
 *
 * Only one process may open a PGlite directory. A second process on the same data directory
 * (`npm run worker` beside `npm start`) attaches to the first one's socket instead.
 */
async function startEmbedded(dataDir: string): Promise<Embedded> {
  const inMemory = dataDir.startsWith('memory://');
  const socketDir = inMemory ? null : path.dirname(dataDir);
  const socketPath = socketDir ? path.join(socketDir, '.s.PGSQL.5432') : null;
  const useUnixSocket = socketPath !== null && socketPath.length < 100;
  if (useUnixSocket && existsSync(socketPath)) {
    const attached: ConnectionSettings = { host: socketDir!, port: 5432, user: 'postgres', database: 'postgres' };
    if (await answers(attached)) return { connection: attached, stop: async () => {} };
    rmSync(socketPath); // left behind by a process that did not shut down cleanly
  }

  const { PGlite } = await import('@electric-sql/pglite');
  if (!inMemory) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pglite = await PGlite.create(inMemory ? undefined : dataDir);

  const server = new PgliteServer(pglite);
  const { port } = await server.listen(useUnixSocket ? { path: socketPath } : { host: '127.0.0.1', port: 0 });
  const connection: ConnectionSettings = useUnixSocket
    ? { host: socketDir!, port: 5432, user: 'postgres', database: 'postgres' }
    : { host: '127.0.0.1', port: port ?? 0, user: 'postgres', database: 'postgres' };
  return {
    connection,
    async stop() {
      await server.close();
      await pglite.close();
    },
  };
}

async function answers(connection: ConnectionSettings): Promise<boolean> {
  const client = new pg.Client({ ...connection, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

