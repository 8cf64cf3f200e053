import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

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
 */
export class PgliteServer {
  private server: Server | null = null;
  private owner: Connection | null = null;
  private busy = false;
  private readonly waiting: { connection: Connection; run: () => void }[] = [];
  private readonly connections = new Set<Connection>();

  constructor(private readonly db: PGlite) {}

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

  /** Runs one batch of a client's messages with the database to itself. */
  async execute(connection: Connection, batch: Uint8Array): Promise<Buffer> {
    await this.acquire(connection);
    try {
      // Copied before the next batch may run: PGlite reuses the memory the response is in.
      const response = Buffer.from(await this.db.execProtocolRaw(batch));
      // Idle after the batch: anyone may go next. Inside a transaction, or mid-sequence (a Flush
      // without Sync, so no ReadyForQuery yet): this client keeps the database.
      const status = lastReadyStatus(response);
      this.owner = status === 'I' ? null : connection;
      return response;
    } finally {
      this.release();
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

  private acquire(connection: Connection): Promise<void> {
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

/** The transaction status of the last ReadyForQuery ('Z') in a response: I, T or E. */
export function lastReadyStatus(response: Uint8Array): 'I' | 'T' | 'E' | null {
  let status: 'I' | 'T' | 'E' | null = null;
  let offset = 0;
  const view = new DataView(response.buffer, response.byteOffset, response.byteLength);
  while (offset + 5 <= response.length) {
    const type = response[offset]!;
    const length = view.getInt32(offset + 1);
    if (length < 4) break;
    if (type === 0x5a && offset + 5 < response.length) status = String.fromCharCode(response[offset + 5]!) as 'I' | 'T' | 'E';
    offset += 1 + length;
  }
  return status;
}
