import pg from 'pg';

/** What the pool says about its connections: pino's methods, or anything shaped like them. */
export interface ConnectionLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Socket errors of a connection that went away, or of a server that is not there (yet): a Unix
 * socket's path that is missing (ENOENT) counts only when connecting to it, never a missing file.
 */
const LOST_SOCKET = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH', 'ENOTCONN']);

/**
 * SQLSTATEs of a server that ended the session or cannot take one now: class 08 (connection
 * exception), 57P01–57P03 (shut down by an administrator, a crash, starting up) and 53300 (too
 * many connections).
 */
const LOST_STATE = /^(08...|57P0[123]|53300)$/;

/** pg's own words for a connection that broke under it, or that it could not make in time. */
const LOST_MESSAGE = /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether `error` (or what caused it) says the connection to the database was lost or could not
 * be made: no statement's fault, and an answer may come from trying again later. The request
 * that met it is answered 503 (`plugins/error-handler.ts`).
 */
export function isConnectionLoss(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, syscall, message, cause } = current as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (LOST_SOCKET.has(code) || LOST_STATE.test(code) || (code === 'ENOENT' && syscall === 'connect'))) return true;
    if (typeof message === 'string' && LOST_MESSAGE.test(message)) return true;
    current = cause;
  }
  return false;
}

/** How long a new connection is tried for while the database does not answer (it may be restarting). */
export const CONNECT_RETRY_MS = 5000;
const CONNECT_PAUSE_MS = [50, 100, 200, 400, 800];

type Done = (release?: unknown) => void;
type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

/**
 * A `pg` pool that keeps the process alive and its callers answered when the database goes away
 * (a restart of the embedded database's thread, ADR 046; a PostgreSQL restart or failover):
 * - every client it makes has an error listener from its first moment, so a socket reset on a
 *   client in use (`read ECONNRESET`) fails that client's statement instead of throwing an
 *   unhandled 'error' event, which ends the process; the pool drops the broken client;
 * - a new connection that is refused, reset or not accepted yet is tried again for up to
 *   {@link CONNECT_RETRY_MS}, so the requests that arrive while the database comes back wait for
 *   it instead of failing.
 * Whatever is still lost after that is the caller's: `isConnectionLoss` says so, and the request
 * is answered 503.
 */
export class SteadyPool extends pg.Pool {
  private lastLogged = 0;

  constructor(
    config: pg.PoolConfig,
    private readonly connectionLog?: ConnectionLog,
  ) {
    super(config);
    this.on('connect', (client) => client.on('error', (error) => this.lost(error)));
    // An idle client's loss reaches the pool (pg-pool removes the client): said once, like the others.
    this.on('error', (error) => this.lost(error));
  }

  private lost(error: Error): void {
    // A dying database resets every connection at once: one line a second is enough to say so.
    const now = Date.now();
    if (now - this.lastLogged < 1000) return;
    this.lastLogged = now;
    this.connectionLog?.warn({ err: error }, 'a database connection was lost; the pool makes new ones as they are needed');
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const connecting = this.connectSteadily();
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(undefined, client, (release?: unknown) => client.release(release as Error | boolean | undefined)),
      (error: Error) =>
        callback(error, undefined, () => {
          // nothing was taken
        }),
    );
  }

  private async connectSteadily(): Promise<pg.PoolClient> {
    const deadline = Date.now() + CONNECT_RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await super.connect();
      } catch (error) {
        const pause = CONNECT_PAUSE_MS[Math.min(attempt, CONNECT_PAUSE_MS.length - 1)]!;
        if (this.ending || !isConnectionLoss(error) || Date.now() + pause > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}

/** A statement that only reads: a SELECT, or a WITH of SELECTs (no data-modifying part, no row locks). */
const READ = /^\s*(select|with)\b/i;
const WRITES = /\b(insert|update|delete|merge)\b/i;
const STRING_LITERAL = /'(?:[^']|'')*'/g;
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|rollback|end|abort)\b(?!\s+to\b)/i;

/**
 * Whether a statement may be sent again after its connection was lost under it: a read outside a
 * transaction. The app's SELECTs outside transactions only read (its advisory locks are taken
 * inside transactions), so running one twice changes nothing; a write may have committed before
 * the connection went, and a transaction is gone with its connection: those are answered 503.
 * A read naming INSERT, UPDATE, DELETE or MERGE outside its string literals (a data-modifying
 * WITH, FOR UPDATE) is taken for a write.
 */
export function mayRetry(text: string, inTransaction: boolean): boolean {
  return !inTransaction && READ.test(text) && !WRITES.test(text.replace(STRING_LITERAL, "''"));
}

/** Follows a connection's transactions from the statements sent on it (`begin` … `commit`). */
export function transactionAfter(text: string, inTransaction: boolean): boolean {
  if (BEGINS.test(text)) return true;
  if (ENDS.test(text)) return false;
  return inTransaction;
}
