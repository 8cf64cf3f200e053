import { existsSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PgliteServer } from './pglite-server';
import type { EmbeddedNotice, EmbeddedReply, EmbeddedRequest, EmbeddedStart } from './embedded-thread';

/**
 * The embedded database's own thread (`embedded-thread.ts` starts it, ADR 042): PGlite and the
 * wire-protocol server in front of it run here, so a long statement (a batch's chunk, a report)
 * never holds the server's event loop, and the app reaches the database over its socket as it
 * would reach PostgreSQL.
 */
const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');
const start = workerData as EmbeddedStart;

const inMemory = start.dataDir.startsWith('memory://');
let pglite: PGlite;
try {
  // The files of a snapshot seed an in-memory database, or a directory that holds none yet.
  const from = start.from && (inMemory || !existsSync(path.join(start.dataDir, 'PG_VERSION'))) ? { loadDataDir: start.from } : {};
  pglite = inMemory ? await PGlite.create(from) : await PGlite.create({ dataDir: start.dataDir, ...from });
} catch (error) {
  // PGlite's file-system errors often carry no message; say which directory and what it was.
  const { message, name, code } = (error ?? {}) as { message?: string; name?: string; code?: string };
  const reason = message || code || name || String(error);
  port.postMessage({ id: 0, ok: false, message: `The embedded database could not be opened at ${start.dataDir}: ${reason}` });
  port.close();
  process.exit(1);
}
/**
 * PGlite threw instead of answering (a WebAssembly trap, memory it could not get): its state is
 * not to be trusted. A database in a directory ends its thread, and the main thread opens the
 * directory again (ADR 046), as PostgreSQL restarts after a backend crashes; an in-memory one
 * cannot be reopened, so it says so and goes on without the client that met it.
 */
function onFatal(error: unknown): void {
  const message = (error as Error)?.message || String(error);
  port!.postMessage({ id: -1, kind: 'fatal', message } satisfies EmbeddedNotice);
  if (!inMemory)
    setImmediate(() => {
      throw new Error(`PGlite failed under a client's statements: ${message}`, { cause: error });
    });
}
const server = new PgliteServer(pglite, { onFatal });

async function answer(request: EmbeddedRequest): Promise<EmbeddedReply> {
  switch (request.kind) {
    case 'listen':
      return { id: request.id, ok: true, port: (await server.listen(request.at)).port };
    case 'lockDown':
      await server.lockDown(request.role);
      return { id: request.id, ok: true };
    case 'snapshot':
      return { id: request.id, ok: true, snapshot: await pglite.dumpDataDir('none') };
    case 'stop':
      await server.close();
      await pglite.close();
      return { id: request.id, ok: true };
  }
}

port.on('message', (request: EmbeddedRequest) => {
  answer(request).then(
    (reply) => {
      port.postMessage(reply);
      if (request.kind === 'stop') port.close();
    },
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: (error as Error).message ?? String(error) }),
  );
});
port.postMessage({ id: 0, ok: true });
