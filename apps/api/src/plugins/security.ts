import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityOptions {
  isProduction: boolean;
}

export function helmetOptions(isProduction: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes component styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        ...(isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers helmet sets, worked out once. They depend only on the options, and building
 * helmet's middleware for every request (as @fastify/helmet does) cost more than the rest of
 * a health check (ADR 010).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * What an API answer needs of them: a JSON body is never a document a browser renders, so of the
 * page's twelve it keeps what applies to any response — no sniffing, no use by another site's page,
 * nothing run or framed if it is opened on its own, and HTTPS only in production.
 */
export function apiSecurityHeaders(isProduction: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    ...(isProduction ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** An API call, answered with the short set: `/api/…`, but not the API reference's pages (`/api/docs`). */
export function isApiCall(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers of a page, for a page sent from an API path (a refusal a browser shows). */
    pageSecurityHeaders: Record<string, string>;
  }
}

/**
 * Security headers and the request id on every response: helmet's twelve for the web app's
 * pages and files, four for an API answer ({@link apiSecurityHeaders}; 870 bytes of headers per
 * answer were half the cost of a health check, bench/RESULTS.md 2026-12-01). The request budgets
 * are `rate-limit.ts`'s (ADR 044).
 */
export const security = fp<SecurityOptions>(
  async function security(app: FastifyInstance, options) {
    const page = securityHeaders(helmetOptions(options.isProduction));
    const api = apiSecurityHeaders(options.isProduction);
    app.decorate('pageSecurityHeaders', page);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiCall(request.url) ? api : page);
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'security' },
);
