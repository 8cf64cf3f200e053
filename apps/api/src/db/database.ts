import { mkdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import {
  APP_ROLE,
  appLogin,
  checkAppSession,
  ensureAppLogin,
  ensureEmbeddedRole,
  grantAppPrivileges,
  loginRole,
  refuseOwnerAsApp,
  resetAppPassword,
} from './app-role';
import { withMigrationLock } from './migrate';
import { parseTimestamptz } from './parse-timestamptz';
import { SteadyPool, type ConnectionLog } from './connection-loss';
import { startEmbeddedThread, type EmbeddedThread } from './embedded-thread';
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

/** How another client (pg-boss, a second process) reaches the same database as the app. */
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
  /** The role the app's sessions run as: never the owner of the schema (ADR 022). */
  role: string;
  pool: pg.Pool;
  db: Kysely<DB>;
  /**
   * The embedded database's files as one tarball (PGlite's `dumpDataDir`), when this process runs
   * it in memory: the API tests migrate once and open every test file's database from it.
   */
  snapshot?: () => Promise<Blob>;
  /** The embedded database's thread, when this process runs it (ADR 042, ADR 046). */
  embeddedThread?: EmbeddedThread;
  close(): Promise<void>;
}

/** How to open the database beyond its configuration. */
export interface OpenOptions {
  /** An embedded database starts from these files (a `snapshot()`), not empty: in memory, or in a directory that holds none yet. */
  embeddedFrom?: Blob;
  /** Where lost connections and the embedded thread's restarts are said. */
  log?: ConnectionLog;
}

/** A client of its own (the owner's, a check's): an error on its socket fails its statement, never the process. */
function ownClient(config: pg.ClientConfig): pg.Client {
  const client = new pg.Client(config);
  client.on('error', () => {
    // The statement it was running fails with the same error, and the caller hears of it there.
  });
  return client;
}

export type DatabaseConfig = Config['database'];

/** What needs the schema's owner, done before the app's sessions open. */
export interface DatabaseSetup {
  /** The schemas whose tables the app's sessions read and write. */
  schemas: string[];
  /** As the owner, holding the migration lock: migrations and whatever else creates objects. */
  prepare(owner: pg.ClientBase): Promise<void>;
  /**
   * When no owner's session can be had (a second process on the embedded database, which the
   * first one prepared; DATABASE_URL alone of the app's own login), the app's session checks that
   * nothing is left to prepare; `hint` says how to do it.
   */
  check(app: pg.Pool, hint: string): Promise<void>;
}

const TWO_URLS = 'Set DATABASE_MIGRATION_URL to the owner\'s URL and DATABASE_URL to a login of the app\'s own (README, "Running against PostgreSQL").';

/**
 * Opens the database the configuration names: first as the schema's owner, to migrate and grant
 * the app its privileges, then the app's pool, as a role that cannot change the schema or the
 * record (ADR 022). In the embedded mode PGlite (one backend, one session) runs in this process, on a thread of its own (ADR 042),
 * behind a PostgreSQL wire-protocol socket, so every client — our queries, better-auth, pg-boss —
 * uses the same `pg` driver as against a real server. See docs/decisions/002-embedded-database.md
 * for what that single session implies.
 */
export async function openDatabase(config: DatabaseConfig, setup: DatabaseSetup, options: OpenOptions = {}): Promise<Database> {
  return config.kind === 'postgres' ? openPostgres(config, setup, options) : openEmbedded(config, setup, options);
}

/**
 * Three ways, by what the URLs log in as (ADR 022):
 * - DATABASE_MIGRATION_URL and DATABASE_URL: the first migrates, the app logs in with the second.
 * - DATABASE_URL alone, of a role that may create tables (the owner, a superuser): it migrates,
 *   and the app logs in beside it as APP_ROLE, which it creates.
 * - DATABASE_URL alone, of a role that may not: the app's own login; the migrations were applied
 *   beforehand (`npm run db:migrate` with both URLs) and nothing is migrated here.
 */
async function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>, setup: DatabaseSetup, options: OpenOptions): Promise<Database> {
  const first = ownClient({ connectionString: config.migrationUrl ?? config.url });
  await first.connect();
  let owner: pg.Client | null = first;
  try {
    let role = APP_ROLE;
    let derived: ReturnType<typeof appLogin> | null = null;
    if (config.migrationUrl !== undefined) {
      const login = ownClient({ connectionString: config.url });
      await login.connect();
      try {
        role = await loginRole(login);
      } finally {
        await login.end();
      }
      await refuseOwnerAsApp(first, role, TWO_URLS);
    } else if (await mayCreate(first)) {
      derived = appLogin(config.url);
      await ensureAppLogin(first, derived.password);
    } else {
      role = await loginRole(first);
      owner = null;
      await first.end();
    }
    if (owner) {
      const session = owner;
      await withMigrationLock(session, async () => {
        await setup.prepare(session);
        await grantAppPrivileges(session, { role, schemas: setup.schemas, embedded: false });
      });
    }
    const database = fromPool('postgres', { connectionString: derived?.url ?? config.url }, role, config.poolMax, async () => {}, options.log);
    try {
      try {
        await database.pool.query('SELECT 1');
      } catch (error) {
        if (!derived || !owner) throw error;
        // 28P01: the role's password is not the one derived from this owner's (it changed, or
        // another owner's URL set it); the owner sets it again.
        if ((error as { code?: string }).code === '28P01') await resetAppPassword(owner, derived.password);
        await database.pool.query('SELECT 1').catch((again: unknown) => {
          throw new Error(`The app could not log in as ${APP_ROLE}: ${(again as Error).message}. ${TWO_URLS}`, { cause: again });
        });
      }
      if (!owner) {
        await setup.check(database.pool, "Apply them with `npm run db:migrate`, DATABASE_MIGRATION_URL set to the owner's URL.");
      }
      await checkAppSession(database.pool, derived ? `Drop or repair the role ${APP_ROLE}, or: ${TWO_URLS}` : TWO_URLS);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  } finally {
    if (owner) await owner.end();
  }
}

/** Whether a session's role may create tables here: then its URL is the owner's. */
async function mayCreate(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ creates: boolean }>(
    `SELECT rolsuper OR has_schema_privilege('public', 'CREATE') AS creates FROM pg_roles WHERE rolname = current_user`,
  );
  return rows[0]?.creates === true;
}

async function openEmbedded(config: Extract<DatabaseConfig, { kind: 'pglite' }>, setup: DatabaseSetup, options: OpenOptions): Promise<Database> {
  const embedded = await startEmbedded(config.dataDir, options);
  let database: Database | undefined;
  try {
    if (embedded.server) {
      // This process opened the database: its session is still PGlite's superuser, the owner.
      const owner = ownClient(embedded.connection);
      await owner.connect();
      try {
        await ensureEmbeddedRole(owner);
        await withMigrationLock(owner, async () => {
          await setup.prepare(owner);
          await grantAppPrivileges(owner, { role: APP_ROLE, schemas: setup.schemas, embedded: true });
        });
      } finally {
        await owner.end();
      }
      await embedded.server.lockDown(APP_ROLE);
    }
    database = fromPool('pglite', embedded.connection, APP_ROLE, config.poolMax, embedded.stop, options.log);
    if (embedded.snapshot) database.snapshot = embedded.snapshot;
    if (embedded.server) database.embeddedThread = embedded.server;
    if (!embedded.server) await setup.check(database.pool, 'Restart the process that opened the embedded database with this version.');
    await checkAppSession(
      database.pool,
      embedded.server
        ? "The embedded database did not keep the app's role (ADR 022)."
        : 'The process that opened the embedded database runs an older version; restart it with this one.',
    );
    return database;
  } catch (error) {
    if (database) await database.close();
    else await embedded.stop();
    throw error;
  }
}

function fromPool(
  kind: DatabaseKind,
  connection: ConnectionSettings,
  role: string,
  poolMax: number,
  stop: () => Promise<void>,
  log: ConnectionLog | undefined,
): Database {
  // A client losing its connection, idle or in use, never ends the process; the pool replaces it,
  // and new connections wait out a database that is coming back (ADR 046).
  const pool = new SteadyPool({ ...connection, max: poolMax, idleTimeoutMillis: 30_000 }, log);
  // Named statements on both: the embedded database's server shares them across its one session.
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  let closed = false;
  return {
    kind,
    connection,
    role,
    pool,
    db,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely ends the pool only if it ever used it.
      if (!pool.ended) await pool.end();
      await stop();
    },
  };
}

interface Embedded {
  connection: ConnectionSettings;
  /** The server this process runs; null when it attached to another process's. */
  server: EmbeddedThread | null;
  stop: () => Promise<void>;
  /** Set for an in-memory database this process runs. */
  snapshot?: () => Promise<Blob>;
}

/**
 * `dataDir` of `memory://` keeps the database in memory (tests); otherwise it is a directory
 * that survives restarts. The socket is a Unix socket inside the data directory (owner-only),
 * falling back to a loopback TCP port when the path is too long for a socket name.
 *
 * Only one process may open a PGlite directory. A second process on the same data directory
 * (`npm run worker` beside `npm start`) attaches to the first one's socket instead.
 */
async function startEmbedded(dataDir: string, { embeddedFrom: from, log }: OpenOptions): Promise<Embedded> {
  const inMemory = dataDir.startsWith('memory://');
  const socketDir = inMemory ? null : path.dirname(dataDir);
  const socketPath = socketDir ? path.join(socketDir, '.s.PGSQL.5432') : null;
  const useUnixSocket = socketPath !== null && socketPath.length < 100;
  if (useUnixSocket && existsSync(socketPath)) {
    const attached: ConnectionSettings = { host: socketDir!, port: 5432, user: 'postgres', database: 'postgres' };
    if (await answers(attached)) return { connection: attached, server: null, stop: async () => {} };
    rmSync(socketPath); // left behind by a process that did not shut down cleanly
  }

  if (!inMemory) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const thread = await startEmbeddedThread({ dataDir, ...(from ? { from } : {}) }, log ? { log } : {});
  try {
    const { port } = await thread.listen(useUnixSocket ? { path: socketPath } : { host: '127.0.0.1', port: 0 });
    const connection: ConnectionSettings = useUnixSocket
      ? { host: socketDir!, port: 5432, user: 'postgres', database: 'postgres' }
      : { host: '127.0.0.1', port: port ?? 0, user: 'postgres', database: 'postgres' };
    return {
      connection,
      server: thread,
      stop: () => thread.stop(),
      ...(inMemory ? { snapshot: () => thread.snapshot() } : {}),
    };
  } catch (error) {
    await thread.stop();
    throw error;
  }
}

async function answers(connection: ConnectionSettings): Promise<boolean> {
  const client = ownClient({ ...connection, connectionTimeoutMillis: 2000 });
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
