import { pipeline, type Readable } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type BrotliOptions } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * Brotli's quality 2: a page of the history (9.1 kB of JSON) in 24 µs to 604 bytes, where quality 4
 * took 52 µs for 560 and gzip's default 43 µs for 749 (bench/RESULTS.md, 2026-12-02). Under load,
 * quality 4 was 13 % of the server's time on the history's page 1. 11 is for the build's files.
 */
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } };

/**
 * A whole body in memory is compressed with a window no larger than it needs (brotli's default
 * is 4 MB, allocated and cleared for each answer) and its size as a hint.
 */
function brotliFor(bytes: number): BrotliOptions {
  const window = Math.min(Math.max(Math.ceil(Math.log2(bytes + 1)), constants.BROTLI_MIN_WINDOW_BITS), constants.BROTLI_DEFAULT_WINDOW);
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_LGWIN]: window, [constants.BROTLI_PARAM_SIZE_HINT]: bytes } };
}

/** The Accept-Encoding values a server sees are few (one per browser): each is read once. */
const seen = new Map<string, string>();
const negotiator = new Negotiator({
  supportedValues: ['br', 'gzip', 'identity'],
  cache: {
    has: (key: string) => seen.has(key),
    get: (key: string) => seen.get(key),
    set(key: string, value: string) {
      if (seen.size >= 1000) seen.clear();
      seen.set(key, value);
      return this;
    },
  },
});

/** `br`, `gzip`, or null (send as it is), from the request's Accept-Encoding. */
export function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const chosen = negotiator.negotiate(acceptEncoding.toLowerCase());
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/** The body's size in bytes, or -1 for a stream. Counting a short string's bytes is skipped: it is below the threshold anyway. */
function sizeOf(payload: string | Buffer | Readable): number {
  if (typeof payload === 'string') return payload.length * 3 < COMPRESSION_THRESHOLD ? payload.length : Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  return -1;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/\baccept-encoding\b|\*/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/**
 * Compresses responses (brotli, else gzip, as the request's Accept-Encoding allows) above
 * {@link COMPRESSION_THRESHOLD}: API JSON, CSV exports (as they stream), pages and built files
 * that have no compressed copy. The web app's built files mostly come compressed already
 * (`preCompressed` in plugins/web.ts) and pass through. Request bodies are not decompressed: no
 * client of this API sends them compressed.
 *
 * One onSend hook, cheapest question first: most API answers are a few hundred bytes, and
 * `@fastify/compress` (which this replaced) read the Accept-Encoding header, the content type and
 * two other headers of each of them, and added a method to every reply, before it found the body
 * too small to compress (bench/RESULTS.md, 2026-12-01).
 */
export const compression = fp(
  async function compression(app: FastifyInstance) {
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
      if (payload === null || payload === undefined) return done(null, payload);
      const body = payload as string | Buffer | Readable;
      const size = typeof body === 'string' || Buffer.isBuffer(body) ? sizeOf(body) : typeof (body as Readable).pipe === 'function' ? -1 : 0;
      if (size >= 0 && size < COMPRESSION_THRESHOLD) return done(null, payload);
      const encoding = encodingFor(request.headers['accept-encoding']);
      if (!encoding) return done(null, payload);
      const sent = reply.getHeader('content-encoding');
      if ((sent !== undefined && sent !== 'identity') || reply.statusCode === 206 || reply.getHeader('content-range') !== undefined) return done(null, payload);
      if (!compressible(String(reply.getHeader('content-type') ?? 'application/json'))) return done(null, payload);
      addVary(reply);
      reply.header('content-encoding', encoding);
      if (size >= 0) {
        const compressed = encoding === 'br' ? brotliCompressSync(body as string | Buffer, brotliFor(size)) : gzipSync(body as string | Buffer);
        reply.header('content-length', compressed.length);
        return done(null, compressed);
      }
      // A stream (a CSV export, a built file without copies): compressed as it goes, its length unknown.
      reply.removeHeader('content-length');
      const zip = encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip();
      pipeline(body as Readable, zip, (error) => {
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') request.log.warn({ err: error }, 'compressing a response failed');
      });
      return done(null, zip);
    });
  },
  { name: 'compression' },
);
