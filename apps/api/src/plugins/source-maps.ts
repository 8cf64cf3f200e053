import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@tay/contract';
import { errorBody } from './error-handler';

export interface SourceMapsOptions {
  /** Off in production: a source map hands out the web app's original source, comments and all. */
  serve: boolean;
}

/** `/assets/index-abc.js.map`, also written `%2Emap` or `.MAP`, which the static files would decode or match. */
export function isSourceMapPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: the static files could not serve it either; judge it as written.
  }
  return /\.map$/i.test(path) || /\.map$/i.test(decoded);
}

/**
 * The build writes source maps beside the web app's scripts, for development. In production
 * they are refused before the static files are looked at, as if they were not there (ADR 023).
 */
export const sourceMaps = fp<SourceMapsOptions>(
  async function sourceMaps(app: FastifyInstance, { serve }) {
    if (serve) return;
    app.addHook('onRequest', (request, reply, done) => {
      if (!isSourceMapPath(request.url)) {
        done();
        return;
      }
      const pathname = request.url.split('?')[0] ?? '/';
      reply.status(404).send(errorBody(ErrorCode.NotFound, `No route ${request.method} ${pathname}.`));
    });
  },
  { name: 'source-maps' },
);
