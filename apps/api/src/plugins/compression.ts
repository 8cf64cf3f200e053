import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Below this many bytes a body goes as it is: compressing it saves less than a packet. */
export const COMPRESSION_THRESHOLD = 1024;

const TEXTUAL = /^text\/|[+/]json(?:;|$)|[+/]xml(?:;|$)|^application\/javascript(?:;|$)/i;

/**
 * Whether a response of this content type is compressed. Never an event stream: the compressor
 * holds its output until it has a block's worth, so live events would arrive late, in bursts.
 * Images, PDFs and archives are compressed already.
 */
export function compressible(contentType: string): boolean {
  if (/^text\/event-stream/i.test(contentType)) return false;
  return TEXTUAL.test(contentType);
}

/**
 * Compresses responses (brotli, else gzip, as the request's Accept-Encoding allows) above
 * {@link COMPRESSION_THRESHOLD}: API JSON, CSV exports (as they stream) and pages. The web app's
 * built files come compressed already (`preCompressed` in plugins/web.ts) and pass through.
 * Request bodies are not decompressed: no client of this API sends them compressed.
 */
export const compression = fp(
  async function compression(app: FastifyInstance) {
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD,
      customTypes: compressible,
      // Brotli's quality 4 compresses about as fast as gzip's default and smaller; 11 is for the build.
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'compression' },
);
