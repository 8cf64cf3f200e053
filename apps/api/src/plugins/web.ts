import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, PUBLIC_CONFIG_META, isClientRoute, type PublicConfig } from '@tay/contract';
import { withFirstScreen, type FirstScreen } from '../http/payer-first-screen';
import { errorBody } from './error-handler';
import { isSourceMapPath } from './source-maps';

export interface WebOptions {
  distDir: string;
  publicConfig: PublicConfig;
  /** Off in production: a source map hands out the web app's original source, comments and all (ADR 023). */
  sourceMaps: boolean;
  /**
   * Pages the server writes a first screen into (ADR 047): the payer's pages. `render` answers
   * null when it cannot say (the database away): the app's page goes out as it is, and the app
   * reads the data itself.
   */
  firstScreens?: FirstScreenRoute[];
}

export interface FirstScreenRoute {
  url: string;
  render(request: FastifyRequest, reply: FastifyReply): Promise<FirstScreen | null>;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Writes the public configuration into the page head, so the app has it before any request. */
export function withPublicConfig(html: string, config: PublicConfig): string {
  const meta = `<meta name="${PUBLIC_CONFIG_META}" content="${escapeAttribute(JSON.stringify(config))}" />`;
  return html.replace('</head>', `    ${meta}\n  </head>`);
}

/**
 * A GET or HEAD outside `/api/` that no route serves: the web app's page (its history fallback),
 * which the rate limit never counts (ADR 044).
 */
export function wantsPage(method: string, url: string): boolean {
  const pathname = url.split('?')[0] ?? '/';
  return (method === 'GET' || method === 'HEAD') && !pathname.startsWith('/api/');
}

const pageEncodings = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'] });

function compressedPage(html: string): Record<'br' | 'gzip' | 'identity', Buffer> {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
  };
}

/**
 * Serves the built web app on the API's port. Unknown paths get the app's index page (history
 * fallback) so the router can render them: 200 for the app's own routes, 404 for anything else
 * (the app shows its not-found page). `/api/*` never falls back: it answers in the error shape.
 */
export const web = fp<WebOptions>(
  async function web(app: FastifyInstance, { distDir, publicConfig, sourceMaps, firstScreens = [] }) {
    const indexFile = path.join(distDir, 'index.html');
    const hasApp = existsSync(indexFile);
    if (hasApp) {
      // The web app's files are never rate limited (ADR 044): a cold page is dozens of them, and a
      // refused script breaks the screen. The static files' routes carry the file they serve.
      app.addHook('onRoute', (route) => {
        if (route.config && 'file' in route.config) route.config.rateLimit = false;
      });
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: false,
        index: false,
        // The build writes a .br and a .gz beside each file worth compressing (apps/web/build/precompress.ts):
        // sent as the request's Accept-Encoding allows, with `Vary: accept-encoding`; never as files of their own.
        preCompressed: true,
        // Without source maps (production), the build's maps get no route: nothing on any request
        // has to look for them, and asking for one is answered as for any file that is not there.
        globIgnore: sourceMaps ? ['**/*.br', '**/*.gz'] : ['**/*.br', '**/*.gz', '**/*.map'],
        // Hashed assets never change; the index page must always be revalidated.
        setHeaders(reply, filePath) {
          reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    const indexHtml = hasApp ? withPublicConfig(readFileSync(indexFile, 'utf8'), publicConfig) : null;
    // The payer's pages' own entry (ADR 047), when the build made it: none of the portal's code.
    const payFile = path.join(distDir, 'pay.html');
    const payHtml = hasApp && existsSync(payFile) ? withPublicConfig(readFileSync(payFile, 'utf8'), publicConfig) : indexHtml;
    // The page goes out from here, past the routes' compression: compressed once, now.
    const page = indexHtml === null ? null : compressedPage(indexHtml);

    // A payer's page with its first screen (ADR 047): a route of its own, compressed by the routes'
    // compression and never cached (it is the payer's). A page is never refused (ADR 044), but its
    // read counts as the API call it replaces: past the caller's budget, the page goes out without
    // its screen and the app asks the API, which says so.
    if (payHtml !== null) {
      for (const route of firstScreens) {
        app.get(route.url, { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
          let screen: FirstScreen | null = null;
          try {
            if (app.spendRequestBudget(request)) screen = await route.render(request, reply);
          } catch (error) {
            request.log.warn({ err: error }, 'a first screen could not be written; the page goes out without it');
          }
          reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
          if (!screen) return reply.status(200).send(payHtml);
          return reply.status(screen.status).send(withFirstScreen(payHtml, screen));
        });
      }
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      // A source map, however it is spelt (`%2Emap`, `.MAP`), is not a page of the app.
      if (wantsPage(request.method, request.url) && page && (sourceMaps || !isSourceMapPath(request.url))) {
        const encoding = pageEncodings.negotiate(request.headers['accept-encoding'] ?? '');
        reply
          .status(isClientRoute(pathname) ? 200 : 404)
          .header('cache-control', 'no-cache')
          .header('vary', 'accept-encoding')
          .type('text/html; charset=utf-8');
        if (encoding === 'br' || encoding === 'gzip') reply.header('content-encoding', encoding);
        return reply.send(page[encoding ?? 'identity']);
      }
      return reply.status(404).send(errorBody(ErrorCode.NotFound, `No route ${request.method} ${pathname}.`));
    });
  },
  { name: 'web', dependencies: ['security', 'rate-limit'] },
);
