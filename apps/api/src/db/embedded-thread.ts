import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the embedded database's thread starts from (`pglite-worker.ts`). */
export interface EmbeddedStart {
  /** `memory://` or a directory. */
  dataDir: string;
  /** For an in-memory database: the files of a `snapshot` to start from. */
  from?: Blob;
}

export type EmbeddedRequest =
  | { id: number; kind: 'listen'; at: { path: string } | { host: string; port: number } }
  | { id: number; kind: 'lockDown'; role: string }
  | { id: number; kind: 'snapshot' }
  | { id: number; kind: 'stop' };

export type EmbeddedReply = { id: number; ok: true; port?: number | null; snapshot?: Blob } | { id: number; ok: false; message: string };

type Ask<K extends EmbeddedRequest['kind']> = Omit<Extract<EmbeddedRequest, { kind: K }>, 'id'>;

/** The embedded database running on a thread of its own, as the main thread sees it. */
export interface EmbeddedThread {
  listen(at: { path: string } | { host: string; port: number }): Promise<{ port: number | null }>;
  lockDown(role: string): Promise<void>;
  snapshot(): Promise<Blob>;
  stop(): Promise<void>;
}

/**
 * Starts PGlite and its wire-protocol server on a worker thread (ADR 042). PGlite runs its
 * statements synchronously on the thread that holds it; on the server's own thread a 100 ms
 * statement was 100 ms in which no request was answered.
 *
 * From the bundle (`dist/main.js`) the thread runs `dist/pglite-worker.js`, built beside it. From
 * the sources (tests, `npm run dev`) it runs `pglite-worker.ts` through tsx's loader.
 *
 * If the thread dies while the database is open, the process cannot go on without its database:
 * the error is thrown on the main thread.
 */
export async function startEmbeddedThread(start: EmbeddedStart): Promise<EmbeddedThread> {
  const worker = spawn(start);
  let next = 1;
  let stopping = false;
  const pending = new Map<number, { resolve: (reply: EmbeddedReply & { ok: true }) => void; reject: (error: Error) => void }>();
  const fail = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  const ready = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  let started = false;

  worker.on('message', (reply: EmbeddedReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply);
    else waiting.reject(new Error(reply.message));
  });
  worker.on('error', (error) => {
    fail(error);
    if (started && !stopping) {
      // The database is gone; nothing the app does from here can be saved.
      setImmediate(() => {
        throw new Error(`The embedded database's thread failed: ${error.message}`, { cause: error });
      });
    }
  });
  worker.on('exit', (code) => {
    const error = new Error(`The embedded database's thread ended (exit code ${code})`);
    fail(error);
    if (started && !stopping)
      setImmediate(() => {
        throw error;
      });
  });

  await ready;
  started = true;

  function ask<K extends EmbeddedRequest['kind']>(request: Ask<K>): Promise<EmbeddedReply & { ok: true }> {
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  return {
    async listen(at) {
      const reply = await ask<'listen'>({ kind: 'listen', at });
      return { port: reply.port ?? null };
    },
    async lockDown(role) {
      await ask<'lockDown'>({ kind: 'lockDown', role });
    },
    async snapshot() {
      const reply = await ask<'snapshot'>({ kind: 'snapshot' });
      if (!reply.snapshot) throw new Error('The embedded database gave no snapshot');
      return reply.snapshot;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      try {
        await ask<'stop'>({ kind: 'stop' });
      } catch {
        // Already gone: there is nothing left to close.
      }
      await worker.terminate();
    },
  };
}

function spawn(start: EmbeddedStart): Worker {
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
