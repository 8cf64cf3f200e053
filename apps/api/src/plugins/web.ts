import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, PUBLIC_CONFIG_META, isClientRoute, type PublicConfig } from '@tay/contract';
import { errorBody } from './error-handler';

export interface WebOptions {
  distDir: string;
  publicConfig: PublicConfig;
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
 * Serves the built web app on the API's port. Unknown paths get the app's index page (history
 * fallback) so the router can render them: 200 for the app's own routes, 404 for anything else
 * (the app shows its not-found page). `/api/*` never falls back: it answers in the error shape.
 */
export const web = fp<WebOptions>(
  async function web(app: FastifyInstance, { distDir, publicConfig }) {
    const indexFile = path.join(distDir, 'index.html');
    const hasApp = existsSync(indexFile);
    if (hasApp) {
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: false,
        index: false,
        // Hashed assets never change; the index page must always be revalidated.
        setHeaders(reply, filePath) {
          reply.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    const indexHtml = hasApp ? withPublicConfig(readFileSync(indexFile, 'utf8'), publicConfig) : null;

    app.setNotFoundHandler({ preHandler: app.rateLimit?.() }, (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
      if (wantsPage && indexHtml) {
        return reply
          .status(isClientRoute(pathname) ? 200 : 404)
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(indexHtml);
      }
      return reply.status(404).send(errorBody(ErrorCode.NotFound, `No route ${request.method} ${pathname}.`));
    });
  },
  { name: 'web', dependencies: ['security'] },
);
