import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@tay/contract';
import type { Executor } from '../db/executor';
import type { RateRule } from '../lib/rate-limiter';
import { addToRequestBudgets, RequestBudgets } from '../lib/request-budgets';
import { errorBody } from './error-handler';
import { wantsPage } from './web';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: never counted (health checks, the web app's files). A rule: the route's own budget
     * per caller, instead of the API's (a browser's redirect back from a provider).
     */
    rateLimit?: false | RateRule;
  }
  interface FastifyInstance {
    /** This process's side of the shared request budgets (ADR 044). */
    requestBudgets: RequestBudgets;
    /**
     * Counts a call against its caller's budget as the API would, and says whether it is within it:
     * for a route that must answer even when it is not (a payer's page, ADR 047), and answers less.
     */
    spendRequestBudget(request: FastifyRequest): boolean;
  }
}

export interface RateLimitOptions {
  db: Executor;
  /** Calls per session (or per address without one) per window: RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS. */
  rule: RateRule;
  /** The session token of the request's `Authorization: Bearer` header when its signature is right. */
  sessionToken: (request: FastifyRequest) => string | null;
}

/**
 * Whose budget a call counts against (ADR 044): a signed-in person's session, by a hash of its
 * token, or else the caller's address. Only the signed form of a bearer token names a session:
 * a bare token is anyone's to make up, and every made-up one would get a budget of its own.
 */
export function budgetKey(request: FastifyRequest, sessionToken: (request: FastifyRequest) => string | null): string {
  const header = request.headers.authorization;
  if (header?.includes('.')) {
    const token = sessionToken(request);
    if (token) return `session:${createHash('sha256').update(token).digest('base64url')}`;
  }
  return `address:${request.ip}`;
}

/** A browser loading a page (or a frame), not a script's call: it gets a page back, never JSON. */
export function isNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  const accept = request.headers.accept ?? '';
  return (request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html');
}

const refusedPage = (seconds: number) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too many requests · Tay</title></head>` +
  `<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">` +
  `<h1 style="font-size: 1.5rem">Too many requests</h1><p>Tay has had too many requests from your connection. Please wait ${seconds} seconds, then reload this page.</p></body></html>`;

function refuse(request: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  reply.status(429).header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store');
  if (isNavigation(request)) {
    // A page the browser shows, from whatever path: with a page's headers (its styles are inline).
    if (request.server.pageSecurityHeaders) reply.headers(request.server.pageSecurityHeaders);
    return reply.type('text/html; charset=utf-8').send(refusedPage(retryAfterSeconds));
  }
  return reply.send(errorBody(ErrorCode.RateLimited, `Too many requests. Please wait ${retryAfterSeconds} seconds and try again.`));
}

/**
 * The API's request budgets (ADR 044), shared by every replica through the database
 * (`request_budgets`, see {@link RequestBudgets}: decided here at once, added to the database four
 * times a second). Never counted: the web app's files and its page (a cold page is dozens of
 * requests, and a refused script or page would break the screen), and routes marked
 * `rateLimit: false`.
 */
export const rateLimit = fp<RateLimitOptions>(
  async function rateLimit(app: FastifyInstance, { db, rule, sessionToken }) {
    let lastError = 0;
    const budgets = new RequestBudgets((counts) => addToRequestBudgets(db, counts), {
      onError(error) {
        // Every replica keeps counting its own calls meanwhile; said once a minute at most.
        if (Date.now() - lastError < 60_000) return;
        lastError = Date.now();
        app.log.warn({ err: error }, 'request budgets could not be added to the database; counting in this process until they can');
      },
    });
    app.decorate('requestBudgets', budgets);
    app.decorate('spendRequestBudget', (request: FastifyRequest) => budgets.take(budgetKey(request, sessionToken), rule).allowed);
    // Before the runtime closes the database: what was counted here goes in first.
    app.addHook('preClose', async () => budgets.close());

    app.addHook('onRequest', (request, reply, done) => {
      const own = request.routeOptions.config.rateLimit;
      // The history fallback, a page of the web app (web.ts answers it with index.html), is never counted.
      if (own === false || (request.is404 && wantsPage(request.method, request.url))) {
        done();
        return;
      }
      const subject = budgetKey(request, sessionToken);
      const decision = own ? budgets.take(`route:${request.routeOptions.url}|${subject}`, own) : budgets.take(subject, rule);
      if (decision.allowed) done();
      else refuse(request, reply, decision.retryAfterSeconds);
    });
  },
  { name: 'rate-limit' },
);
