import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConnectionLog } from './connection-loss';

/** What the embedded database's thread starts from (`pglite-worker.ts`). */
export interface EmbeddedStart {
  /** `memory://` or a directory. */
  dataDir: string;
  /** The files of a `snapshot` to start from: an in-memory database, or a directory that holds no database yet. */
  from?: Blob;
}

export type EmbeddedRequest =
  | { id: number; kind: 'listen'; at: ListenAt }
  | { id: number; kind: 'lockDown'; role: string }
  | { id: number; kind: 'snapshot' }
  | { id: number; kind: 'stop' };

export type EmbeddedReply = { id: number; ok: true; port?: number | null; snapshot?: Blob } | { id: number; ok: false; message: string };

/** Said by the thread on its own: PGlite failed under a client's statements (`PgliteServer`'s `onFatal`). */
export interface EmbeddedNotice {
  id: -1;
  kind: 'fatal';
  message: string;
}

export type ListenAt = { path: string } | { host: string; port: number };

type Ask<K extends EmbeddedRequest['kind']> = Omit<Extract<EmbeddedRequest, { kind: K }>, 'id'>;

/** The embedded database running on a thread of its own, as the main thread sees it. */
export interface EmbeddedThread {
  listen(at: ListenAt): Promise<{ port: number | null }>;
  lockDown(role: string): Promise<void>;
  snapshot(): Promise<Blob>;
  stop(): Promise<void>;
  /** How many times the thread died and was started again. */
  readonly restarts: number;
  /** `up`, `restarting` (a new thread is on its way), `down` (an in-memory database that died), `stopped`. */
  readonly state: 'up' | 'restarting' | 'down' | 'stopped';
  /** Ends the thread at once, as a crash would; it is restarted as after one (tests). */
  crash(): Promise<void>;
}

export interface EmbeddedThreadOptions {
  /** Where the thread's deaths and restarts are said; without one, on standard error. */
  log?: ConnectionLog;
  /** The first wait before a restart (ms); doubled after each restart that fails or dies within a minute. */
  restartDelayMs?: number;
}

/** The longest wait between two restarts. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A thread that lived this long counts as healthy: the next restart waits the first delay again. */
const HEALTHY_MS = 60_000;

const standardError: ConnectionLog = {
  info: () => {},
  warn: (object, message) => console.error(message, object),
  error: (object, message) => console.error(message, object),
};

/** One thread: its worker and the questions it has not answered yet. */
class Generation {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (reply: EmbeddedReply & { ok: true }) => void; reject: (error: Error) => void }>();
  /** Resolves once PGlite is open on the thread. */
  readonly ready: Promise<void>;
  /** Why the thread failed, when it said so before it ended. */
  reason: string | null = null;
  exited = false;
  /** PGlite opened on the thread. */
  opened = false;
  readonly startedAt = Date.now();

  constructor(
    readonly worker: Worker,
    onExit: (generation: Generation, why: string) => void,
    onNotice: (notice: EmbeddedNotice) => void,
  ) {
    this.ready = new Promise<void>((resolve, reject) =>
      this.pending.set(0, {
        resolve: () => {
          this.opened = true;
          resolve();
        },
        reject,
      }),
    );
    worker.on('message', (message: EmbeddedReply | EmbeddedNotice) => {
      if ('kind' in message) {
        this.reason = message.message;
        onNotice(message);
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message);
      else waiting.reject(new Error(message.message));
    });
    worker.on('error', (error) => {
      // An uncaught exception on the thread: 'exit' follows.
      this.reason ??= error.message || String(error);
      this.fail(new Error(`The embedded database's thread failed: ${this.reason}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      this.exited = true;
      const why = this.reason ?? `exit code ${code}`;
      this.fail(new Error(`The embedded database's thread ended (${why})`));
      onExit(this, why);
    });
  }

  private fail(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  ask<K extends EmbeddedRequest['kind']>(request: Ask<K>): Promise<EmbeddedReply & { ok: true }> {
    if (this.exited) return Promise.reject(new Error("The embedded database's thread has ended"));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }
}

/**
 * Starts PGlite and its wire-protocol server on a worker thread (ADR 042). PGlite runs its
 * statements synchronously on the thread that holds it; on the server's own thread a 100 ms
 * statement was 100 ms in which no request was answered.
 *
 * From the bundle (`dist/main.js`) the thread runs `dist/pglite-worker.js`, built beside it. From
 * the sources (tests, `npm run dev`) it runs `pglite-worker.ts` through tsx's loader.
 *
 * If the thread dies while the database is open (ADR 046), the reason is logged and, for a
 * database in a directory, a new thread opens the directory again, as PostgreSQL restarts its
 * backends after one crashes: it takes back the app's role before it listens on the same socket,
 * and the pool's new connections reach it there. Restarts that fail wait longer each time (up to
 * 30 s) and go on until one holds. An in-memory database's contents die with its thread: it is not
 * restarted, and every statement fails as the database being unreachable.
 */
export async function startEmbeddedThread(start: EmbeddedStart, options: EmbeddedThreadOptions = {}): Promise<EmbeddedThread> {
  const log = options.log ?? standardError;
  const firstDelay = options.restartDelayMs ?? 100;
  const inMemory = start.dataDir.startsWith('memory://');
  let state = 'up' as EmbeddedThread['state'];
  let restarts = 0;
  let delay = firstDelay;
  let timer: NodeJS.Timeout | null = null;
  /** What the next thread must be told before anyone may connect: the role, then where to listen. */
  let role: string | null = null;
  let listening: ListenAt | null = null;

  const onNotice = (notice: EmbeddedNotice) => log.error({ reason: notice.message }, "the embedded database failed under a client's statements");
  let started = false;
  const onExit = (generation: Generation, why: string) => {
    // Before the first start has answered, a failure is the caller's (startEmbeddedThread rejects).
    if (!started || generation !== current || state === 'stopped') return;
    if (inMemory) {
      state = 'down';
      log.error({ reason: why }, "the embedded database's thread ended; an in-memory database's contents ended with it, so it is not restarted");
      return;
    }
    // A thread that had been up a while is a new incident; one that died soon after its start is the same one again.
    if (Date.now() - generation.startedAt > HEALTHY_MS) delay = firstDelay;
    // A restart that failed has said why already.
    if (state !== 'restarting') log.error({ reason: why, restartInMs: delay }, "the embedded database's thread ended; restarting it");
    state = 'restarting';
    schedule();
  };

  const schedule = () => {
    timer = setTimeout(() => {
      timer = null;
      void restart();
    }, delay);
    delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
  };

  // Read afresh after each wait: stop() may have come meanwhile.
  const stopped = () => state === 'stopped';
  const restart = async () => {
    if (stopped()) return;
    // A restart reopens the directory as it is now: never the files the first start came from.
    const generation = new Generation(spawnWorker({ dataDir: start.dataDir }), onExit, onNotice);
    current = generation;
    try {
      await generation.ready;
      if (role) await generation.ask<'lockDown'>({ kind: 'lockDown', role });
      if (listening) {
        if ('path' in listening && existsSync(listening.path)) rmSync(listening.path, { force: true });
        await generation.ask<'listen'>({ kind: 'listen', at: listening });
      }
      if (current !== generation || stopped()) return;
      restarts++;
      state = 'up';
      log.info({ restarts }, "the embedded database's thread was restarted and answers again");
    } catch (error) {
      if (current !== generation || stopped()) return;
      log.error({ err: error, restartInMs: delay }, "the embedded database's thread could not be restarted; trying again");
      // The 'exit' of a thread that failed to open comes to onExit, which schedules the next try.
      if (!generation.exited) {
        await generation.worker.terminate();
      }
    }
  };

  let current = new Generation(spawnWorker(start), onExit, onNotice);
  const first = current;
  try {
    await first.ready;
  } catch (error) {
    state = 'stopped';
    throw error;
  }
  started = true;

  return {
    get restarts() {
      return restarts;
    },
    get state() {
      return state;
    },
    async listen(at) {
      const reply = await current.ask<'listen'>({ kind: 'listen', at });
      // A TCP port the system chose stays this database's port after a restart.
      listening = 'path' in at ? at : { host: at.host, port: reply.port ?? at.port };
      return { port: reply.port ?? null };
    },
    async lockDown(name) {
      await current.ask<'lockDown'>({ kind: 'lockDown', role: name });
      role = name;
    },
    async snapshot() {
      const reply = await current.ask<'snapshot'>({ kind: 'snapshot' });
      if (!reply.snapshot) throw new Error('The embedded database gave no snapshot');
      return reply.snapshot;
    },
    async crash() {
      await current.worker.terminate();
    },
    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      if (timer) clearTimeout(timer);
      try {
        await current.ask<'stop'>({ kind: 'stop' });
      } catch {
        // Already gone: there is nothing left to close.
      }
      await current.worker.terminate();
    },
  };
}

function spawnWorker(start: EmbeddedStart): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./pglite-worker.js', here), { workerData: start });
  // From the sources: register tsx's loader on the thread, then load the worker's TypeScript.
  const tsx = pathToFileURL(tsxEsmApi(here)).href;
  const entry = new URL('./pglite-worker.ts', here).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), { workerData: start });
}

/** tsx's ESM `register` (its `require` entry cannot be loaded from an ES module on a thread). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return path.join(path.dirname(manifest), exports['./esm/api']!.import.default);
}
