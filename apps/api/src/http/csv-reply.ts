import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Streams a CSV export. The first chunk is read before anything is sent: an export checks its
 * filters there, so a bad one is answered as a JSON error (400) instead of a cut-off file.
 */
export async function sendCsv(reply: FastifyReply, chunks: AsyncGenerator<string>, filename: string): Promise<FastifyReply> {
  const first = await chunks.next();
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(
      Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* chunks;
        })(),
      ),
    );
}
