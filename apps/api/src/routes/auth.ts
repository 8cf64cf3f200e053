import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { CompleteNewPasswordBody, ErrorCode, ErrorResponse, IdentityOkResponse } from '@tay/contract';
import type { Auth } from '../auth/better-auth';
import { AUTH_ERROR_MESSAGES } from '../auth/error-messages';
import { AUTH_ENDPOINTS, AUTH_RATE_RULES } from '../auth/rate-rules';
import type { Executor } from '../db/executor';
import { completeNewPassword } from '../domain/users/complete-new-password';
import { AppError } from '../lib/app-error';
import { consumeRateLimit, resetRateLimit } from '../lib/rate-limiter';
import { errorBody } from '../plugins/error-handler';

export interface AuthRoutesOptions {
  auth: Auth;
  db: Executor;
  /** Multiplies the per-IP limits (a shared office or the browser test suite on one address). */
  ipLimitScale: number;
}

async function enforceRateLimits(
  db: Executor,
  path: string,
  request: FastifyRequest,
  email: string | undefined,
  ipLimitScale: number,
): Promise<string | undefined> {
  const rules = AUTH_RATE_RULES[path];
  if (!rules) return undefined;
  const ipRule = { ...rules.ip, max: rules.ip.max * ipLimitScale };
  const decisions = [await consumeRateLimit(db, `auth:${path}:ip:${request.ip}`, ipRule)];
  const accountKey = email && rules.account ? `auth:${path}:account:${email}` : undefined;
  if (accountKey && rules.account) decisions.push(await consumeRateLimit(db, accountKey, rules.account));
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length > 0) {
    const wait = Math.max(...refused.map((d) => d.retryAfterSeconds));
    const minutes = Math.ceil(wait / 60);
    throw new AppError(
      ErrorCode.RateLimited,
      `Too many attempts. For your security, please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} before trying again.`,
    ).withHeader('retry-after', String(wait));
  }
  return accountKey;
}

/**
 * `/api/auth/*`: the identity endpoints of better-auth, behind our own limits and our one error
 * shape. Only the endpoints the product uses are reachable; tokens travel as bearer headers,
 * never cookies.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, db, ipLimitScale }) => {
  app.post(
    '/api/auth/complete-new-password',
    {
      schema: {
        tags: ['identity'],
        summary: 'Meet the new-password challenge: replace a temporary password',
        security: [{ bearer: [] }],
        body: CompleteNewPasswordBody,
        response: { 200: IdentityOkResponse, 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      await enforceRateLimits(db, '/complete-new-password', request, undefined, ipLimitScale);
      const session = await app.sessions.read(request);
      if (!session) throw new AppError(ErrorCode.Unauthorized, 'Sign in with your temporary password first.');
      await completeNewPassword({ db, userId: session.user.id, keepSessionId: session.sessionId, newPassword: request.body.newPassword });
      return { status: true as const };
    },
  );

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const path = (request.url.split('?')[0] ?? '').replace(/^\/api\/auth/, '');
      if (AUTH_ENDPOINTS[path] !== request.method) {
        return reply.status(404).send(errorBody(ErrorCode.NotFound, `No route ${request.method} /api/auth${path}.`));
      }
      const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
      const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : undefined;
      const accountKey = await enforceRateLimits(db, path, request, email, ipLimitScale);

      const headers = fromNodeHeaders(request.headers);
      headers.set('x-client-ip', request.ip);
      headers.delete('cookie');
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: request.method === 'POST' ? JSON.stringify(body ?? {}) : null,
        }),
      );

      if (response.status >= 400) {
        const raw = await response.text();
        let code: string = response.status === 401 ? ErrorCode.Unauthorized : ErrorCode.BadRequest;
        let message = 'The request could not be completed.';
        try {
          const parsed = JSON.parse(raw) as { code?: string; message?: string };
          if (parsed.code) code = parsed.code;
          message = AUTH_ERROR_MESSAGES[code] ?? parsed.message ?? message;
        } catch {
          // better-auth answered without JSON; keep the generic message
        }
        if (response.status >= 500) {
          request.log.error({ code, raw }, 'identity service error');
          return reply.status(500).send(errorBody(ErrorCode.Internal, 'Something went wrong on our side. Please try again.'));
        }
        return reply.status(response.status).send(errorBody(code, message));
      }

      if (path === '/sign-in/email' && accountKey) await resetRateLimit(db, accountKey);
      reply.status(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
      });
      const text = await response.text();
      return reply.send(text.length > 0 ? text : null);
    },
  });
};
