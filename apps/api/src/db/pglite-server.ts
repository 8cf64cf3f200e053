import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { REFUSAL_FUNCTION, refusal, roleChange } from './role-guard';

/**
 * A PostgreSQL wire-protocol server in front of one in-process PGlite, so every client (our
 * pool, better-auth, pg-boss, `npm run ops` in another process) talks to it like to PostgreSQL.
 *
 * PGlite has one backend session. This server gives it the semantics of one connection at a
 * time, safely: a client's messages are run as whole batches (up to Sync, a simple Query or a
 * Flush), never interleaved with another client's, and a client whose batch leaves a
 * transaction open owns the database until the transaction ends (other clients wait). A client
 * that disconnects inside a transaction has it rolled back. (The multiplexer shipped in
 * pglite-socket 0.2 interleaves single messages of different clients, which corrupts the
 * shared unnamed statement under load; see docs/decisions/002-embedded-database.md.)
 *
 * Named prepared statements live in that one session, so they are shared by every client: the
 * first client to prepare a name prepares it for all. A later Parse of a name the session already
 * has, with the same text and parameter types, is not sent again (PostgreSQL would refuse it:
 * "prepared statement already exists"); it is answered with ParseComplete all the same. So the
 * pool may send every query as a named statement, planned once per process (ADR 017).
 *
 * After `lockDown`, the session is the app's role and stays it: statements that would change the
 * session's role are refused (ADR 022, `role-guard.ts`).
 *
 * PGlite answers a statement's errors as protocol messages; when it throws instead, the client
 * whose batch it was loses its connection and `onFatal` hears why (the thread then ends and is
 * started again, ADR 046).
 */
export class PgliteServer {
  private server: Server | null = null;
  /** The client holding an open transaction. */
  private owner: object | null = null;
  private busy = false;
  /** Clients waiting for their turn, and the server itself in `lockDown`. */
  private readonly waiting: { connection: object; run: () => void }[] = [];
  private guarded = false;
  private readonly connections = new Set<Connection>();
  /** The session's named statements: name → the rest of the Parse message (text and types). */
  private readonly statements = new Map<string, Buffer>();

  constructor(
    private readonly db: PGlite,
    private readonly options: { onFatal?: (error: unknown) => void } = {},
  ) {}

  async listen(options: { path: string } | { host: string; port: number }): Promise<{ port: number | null }> {
    const server = createServer((socket) => {
      const connection = new Connection(socket, this);
      this.connections.add(connection);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if ('path' in options) server.listen(options.path, resolve);
      else server.listen(options.port, options.host, resolve);
    });
    const address = server.address();
    return { port: typeof address === 'object' && address ? address.port : null };
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /**
   * Makes the session `role` (a role that is not a superuser) for good, between two clients'
   * batches: from now on no client may change the session's role or how its SQL is read.
   */
  async lockDown(role: string): Promise<void> {
    await this.acquire(this);
    try {
      await this.db.exec(`${REFUSAL_FUNCTION};\nSET SESSION AUTHORIZATION "${role.replaceAll('"', '""')}"`);
      this.guarded = true;
    } finally {
      this.release();
    }
  }

  /** Runs one batch of a client's messages with the database to itself. */
  async execute(connection: Connection, batch: Uint8Array): Promise<Buffer> {
    await this.acquire(connection);
    try {
      const { sent, parsed } = this.shareStatements(batch);
      let raw: Uint8Array;
      try {
        raw = await this.db.execProtocolRaw(sent);
      } catch (error) {
        this.options.onFatal?.(error);
        throw error;
      }
      // Copied before the next batch may run: PGlite reuses the memory the response is in.
      const response = Buffer.from(raw);
      this.remember(parsed, response);
      // Idle after the batch: anyone may go next. Inside a transaction, or mid-sequence (a Flush
      // without Sync, so no ReadyForQuery yet): this client keeps the database.
      const status = lastReadyStatus(response);
      this.owner = status === 'I' ? null : connection;
      return response;
    } finally {
      this.release();
    }
  }

  /**
   * The batch as the session should see it: a Parse of a name the session already holds with the
   * same text becomes a Parse of the empty query into the unnamed statement, which costs nothing
   * and answers ParseComplete in the same place. Also returns, in order, what each Parse (kept
   * or replaced) would add to the session, and what Close and DEALLOCATE take away.
   */
  private shareStatements(batch: Uint8Array): { sent: Uint8Array; parsed: StatementChange[] } {
    const messages = splitMessages(batch);
    const parsed: StatementChange[] = [];
    let replaced = false;
    const out: Uint8Array[] = [];
    for (const original of messages) {
      const message = this.guarded ? guard(original) : original;
      if (message !== original) replaced = true;
      const change = statementChange(message);
      if (change?.kind === 'parse') {
        const known = this.statements.get(change.name);
        if (known && known.equals(change.body)) {
          out.push(EMPTY_PARSE);
          parsed.push({ kind: 'parse', name: '', body: EMPTY_BODY });
          replaced = true;
          continue;
        }
        parsed.push(change);
      } else if (change) {
        parsed.push(change);
      }
      out.push(message);
    }
    return { sent: replaced ? Buffer.concat(out) : batch, parsed };
  }

  /** Updates what the session holds from a batch's statement changes and its response. */
  private remember(changes: StatementChange[], response: Uint8Array): void {
    if (changes.length === 0) return;
    // Each Parse answers ParseComplete ('1') and each Close CloseComplete ('3'), or an error after
    // which the rest of the batch is skipped: with k ParseComplete in the response, the first k
    // Parse messages succeeded (and so for Close).
    let parses = 0;
    let closes = 0;
    let failed = false;
    forEachMessage(response, (type) => {
      if (type === PARSE_COMPLETE) parses++;
      else if (type === CLOSE_COMPLETE) closes++;
      else if (type === ERROR_RESPONSE) failed = true;
    });
    for (const change of changes) {
      if (change.kind === 'parse') {
        if (parses-- > 0 && change.name) this.statements.set(change.name, Buffer.from(change.body));
      } else if (change.kind === 'close') {
        if (closes-- > 0) this.statements.delete(change.name);
      } else if (!failed) {
        if (change.name === null) this.statements.clear();
        else this.statements.delete(change.name);
      }
    }
  }

  /** The client went away: forget it, and roll back a transaction it left open. */
  async disconnected(connection: Connection): Promise<void> {
    this.connections.delete(connection);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i]!.connection === connection) this.waiting.splice(i, 1);
    }
    if (this.owner !== connection) return;
    await this.acquire(connection);
    try {
      await this.db.exec('ROLLBACK');
    } catch {
      // nothing was open after all
    } finally {
      this.owner = null;
      this.release();
    }
  }

  private acquire(connection: object): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push({ connection, run: resolve });
      this.dispatch();
    });
  }

  private release(): void {
    this.busy = false;
    this.dispatch();
  }

  private dispatch(): void {
    if (this.busy) return;
    // While a client holds a transaction open, only that client may run.
    const index = this.owner ? this.waiting.findIndex((w) => w.connection === this.owner) : 0;
    if (index < 0 || index >= this.waiting.length) return;
    const [next] = this.waiting.splice(index, 1);
    this.busy = true;
    next!.run();
  }
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Message types that end a batch: Sync, simple Query, Flush. */
const BATCH_END = new Set(['S'.charCodeAt(0), 'Q'.charCodeAt(0), 'H'.charCodeAt(0)]);
const TERMINATE = 'X'.charCodeAt(0);

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private started = false;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly server: PgliteServer,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  destroy(): void {
    this.socket.destroy();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.chain = this.chain.then(() => this.server.disconnected(this));
  }

  private receive(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          this.socket.end();
          return;
        }
        this.started = true;
        this.enqueue(Buffer.from(message));
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = this.buffer[0]!;
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) return;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (type === TERMINATE) {
        this.flushPending();
        this.socket.end();
        return;
      }
      this.pending.push(Buffer.from(message));
      if (BATCH_END.has(type)) this.flushPending();
    }
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    const batch = Buffer.concat(this.pending);
    this.pending = [];
    this.enqueue(batch);
  }

  /** Batches of one client run in order. */
  private enqueue(batch: Buffer): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        const response = await this.server.execute(this, new Uint8Array(batch.buffer, batch.byteOffset, batch.byteLength));
        if (!this.socket.destroyed && response.length > 0) this.socket.write(response);
      } catch {
        this.socket.destroy();
      }
    });
  }
}

const PARSE = 0x50; // 'P'
const CLOSE = 0x43; // 'C'
const QUERY = 0x51; // 'Q'
const PARSE_COMPLETE = 0x31; // '1'
const CLOSE_COMPLETE = 0x33; // '3'
const ERROR_RESPONSE = 0x45; // 'E'
/** Parse of the empty query into the unnamed statement: name "", query "", no parameter types. */
const EMPTY_BODY = Buffer.from([0, 0, 0]);
const EMPTY_PARSE = Buffer.from([PARSE, 0, 0, 0, 8, 0, ...EMPTY_BODY]);

type StatementChange =
  | { kind: 'parse'; name: string; body: Uint8Array }
  | { kind: 'close'; name: string }
  /** DEALLOCATE name, or DEALLOCATE ALL / DISCARD ALL (name null). */
  | { kind: 'deallocate'; name: string | null };

/** The messages of a batch (each with its type byte and length). */
function splitMessages(batch: Uint8Array): Uint8Array[] {
  // The startup message has no type byte; it never holds a statement.
  if (batch.length >= 8 && batch[0] === 0) return [batch];
  const messages: Uint8Array[] = [];
  forEachMessage(batch, (_, start, end) => messages.push(batch.subarray(start, end)));
  return messages;
}

function cString(bytes: Uint8Array, from: number): { text: string; end: number } {
  const end = bytes.indexOf(0, from);
  const stop = end < 0 ? bytes.length : end;
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset + from, stop - from).toString('utf8'), end: stop + 1 };
}

const DEALLOCATE = /^\s*deallocate\s+(?:prepare\s+)?(?:(all)|"([^"]+)"|([\w$]+))\s*;?\s*$/i;
const DISCARD_ALL = /^\s*discard\s+all\s*;?\s*$/i;

/**
 * The message, or when it is a simple Query or a Parse holding a statement that would change the
 * session's role, the same message with SQL that fails in its place (so the session's transaction
 * state after the error is PostgreSQL's own).
 */
export function guard(message: Uint8Array): Uint8Array {
  const type = message[0];
  if (type === QUERY) {
    const change = roleChange(cString(message, 5).text);
    return change ? queryMessage(refusal(change)) : message;
  }
  if (type === PARSE) {
    const name = cString(message, 5);
    const query = cString(message, name.end);
    const change = roleChange(query.text);
    // The refusal takes no parameters: the statements it stands for take none either.
    return change ? parseMessage(message.subarray(5, name.end), refusal(change)) : message;
  }
  return message;
}

function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const out = Buffer.alloc(5 + text.length);
  out[0] = QUERY;
  out.writeInt32BE(4 + text.length, 1);
  text.copy(out, 5);
  return out;
}

function parseMessage(name: Uint8Array, sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const out = Buffer.alloc(5 + name.length + text.length + 2);
  out[0] = PARSE;
  out.writeInt32BE(out.length - 1, 1);
  out.set(name, 5);
  text.copy(out, 5 + name.length);
  out.writeInt16BE(0, 5 + name.length + text.length);
  return out;
}

/** What a message does to the session's named statements, if anything. */
export function statementChange(message: Uint8Array): StatementChange | null {
  const type = message[0];
  if (type === PARSE) {
    const name = cString(message, 5);
    return { kind: 'parse', name: name.text, body: message.subarray(name.end) };
  }
  if (type === CLOSE && message[5] === 0x53 /* 'S' */) {
    const name = cString(message, 6).text;
    return name ? { kind: 'close', name } : null;
  }
  if (type === QUERY) {
    const query = cString(message, 5).text;
    if (DISCARD_ALL.test(query)) return { kind: 'deallocate', name: null };
    const match = DEALLOCATE.exec(query);
    if (match) return { kind: 'deallocate', name: match[1] ? null : (match[2] ?? match[3]!.toLowerCase()) };
  }
  return null;
}

/** Visits each message of a stream of protocol messages: its type byte, where it starts and ends. */
function forEachMessage(bytes: Uint8Array, visit: (type: number, start: number, end: number) => void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 5 <= bytes.length) {
    const length = view.getInt32(offset + 1);
    if (length < 4) break;
    const end = offset + 1 + length;
    visit(bytes[offset]!, offset, end);
    offset = end;
  }
}

/** The transaction status of the last ReadyForQuery ('Z') in a response: I, T or E. */
export function lastReadyStatus(response: Uint8Array): 'I' | 'T' | 'E' | null {
  let status: 'I' | 'T' | 'E' | null = null;
  forEachMessage(response, (type, start) => {
    if (type === 0x5a && start + 5 < response.length) status = String.fromCharCode(response[start + 5]!) as 'I' | 'T' | 'E';
  });
  return status;
}
