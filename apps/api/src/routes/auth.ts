import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { ChangePasswordBody, CompleteNewPasswordBody, ErrorCode, ErrorResponse, IdentityOkResponse } from '@tay/contract';
import { SIGN_IN_CODE_HEADER, type Auth } from '../auth/better-auth';
import { AUTH_ERROR_MESSAGES } from '../auth/error-messages';
import { AUTH_ENDPOINTS, AUTH_RATE_RULES } from '../auth/rate-rules';
import { offerSignInCode, warnOwner, type SignInProofDeps } from '../auth/sign-in-proof';
import type { Executor } from '../db/executor';
import { changePassword } from '../domain/users/change-password';
import { completeNewPassword } from '../domain/users/complete-new-password';
import { AppError } from '../lib/app-error';
import { clientSource } from '../lib/client-source';
import { consumeRateLimit, releaseRateLimit, resetRateLimit, type RateDecision } from '../lib/rate-limiter';
import type { Mailer } from '../mail/mailer';
import { errorBody } from '../plugins/error-handler';

export interface AuthRoutesOptions {
  auth: Auth;
  db: Executor;
  /** Sign-in codes and warnings to the owner of an account under attack. */
  mailer: Mailer;
  publicUrl: string;
  /** Multiplies the per-IP limits (a shared office or the browser test suite on one address). */
  ipLimitScale: number;
}

interface LimitOutcome {
  /** Counters a successful sign-in clears: its source's count for the account. */
  clearOnSuccess: string[];
  /**
   * Counters a successful sign-in only takes itself back from: the account's count from
   * everywhere keeps the failures. Past it comes a code, which locks nobody out, and clearing
   * it on the owner's success would hand whoever is guessing a fresh round.
   */
  releaseOnSuccess: string[];
  /** Past the per-account limit of an endpoint that then asks for the e-mailed code. */
  codeRequired: boolean;
}

function rateLimited(refused: RateDecision[]): AppError {
  const wait = Math.max(...refused.map((d) => d.retryAfterSeconds));
  const minutes = Math.ceil(wait / 60);
  return new AppError(
    ErrorCode.RateLimited,
    `Too many attempts. For your security, please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} before trying again.`,
  ).withHeader('retry-after', String(wait));
}

async function enforceRateLimits(db: Executor, path: string, request: FastifyRequest, email: string | undefined, ipLimitScale: number): Promise<LimitOutcome> {
  const outcome: LimitOutcome = { clearOnSuccess: [], releaseOnSuccess: [], codeRequired: false };
  const rules = AUTH_RATE_RULES[path];
  if (!rules) return outcome;
  const source = clientSource(request.ip);
  const ipRule = { ...rules.ip, max: rules.ip.max * ipLimitScale };
  const ip = await consumeRateLimit(db, `auth:${path}:ip:${source}`, ipRule);
  if (!email) {
    if (!ip.allowed) throw rateLimited([ip]);
    return outcome;
  }
  const bySource = rules.accountSource ? `auth:${path}:account-source:${email}:${source}` : undefined;
  if (bySource && rules.accountSource) {
    const decision = await consumeRateLimit(db, bySource, rules.accountSource);
    if (!ip.allowed || !decision.allowed) throw rateLimited([ip, decision].filter((d) => !d.allowed));
    outcome.clearOnSuccess.push(bySource);
  }
  // Attempts refused at their source above are not counted against the account: one client
  // hammering an address changes nothing for its owner elsewhere.
  const accountKey = `auth:${path}:account:${email}`;
  const account = rules.account ? await consumeRateLimit(db, accountKey, rules.account) : undefined;
  const refused = [ip, account].filter((d): d is RateDecision => d !== undefined && !d.allowed);
  if (account && !account.allowed && rules.pastAccountLimit === 'code') {
    outcome.codeRequired = true;
    refused.splice(refused.indexOf(account), 1);
  }
  if (refused.length > 0) throw rateLimited(refused);
  if (account && rules.accountSource) outcome.releaseOnSuccess.push(accountKey);
  return outcome;
}

const CODE_FORMAT_MESSAGE = 'Enter the 6 digits of the code we e-mailed you.';

/**
 * A sign-in past the per-account limit (ADR 021): the owner is warned once, and the password
 * counts only with the code e-mailed to the account. Without a code the answer is the same
 * whether the password is right or not, and the password is not even checked. Returns the code
 * to hand to better-auth with the password.
 */
async function requireSignInCode(deps: SignInProofDeps, email: string, body: Record<string, unknown>): Promise<string> {
  await warnOwner(deps, email);
  const given = body.code;
  if (given === undefined || given === null || given === '') {
    const offer = await offerSignInCode(deps, email);
    const minutes = Math.ceil(offer.retryAfterSeconds / 60);
    throw new AppError(
      'SIGN_IN_CODE_REQUIRED',
      offer.sent
        ? 'Someone has been trying to sign in to this account, so we need to check it is you. We have e-mailed a 6-digit code to this address: enter it with your password. It may take a minute to arrive.'
        : `Someone has been trying to sign in to this account, so we need to check it is you. We e-mailed a 6-digit code to this address less than 5 minutes ago: enter the code from the newest e-mail from Tay with your password. You can ask for another in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`,
      undefined,
      401,
    );
  }
  if (typeof given !== 'string' || !/^\d{6}$/.test(given.trim())) {
    throw AppError.validation(CODE_FORMAT_MESSAGE, { code: CODE_FORMAT_MESSAGE });
  }
  return given.trim();
}

/**
 * `/api/auth/*`: the identity endpoints of better-auth, behind our own limits and our one error
 * shape. Only the endpoints the product uses are reachable; tokens travel as bearer headers,
 * never cookies.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, db, mailer, publicUrl, ipLimitScale }) => {
  const proofDeps: SignInProofDeps = { auth, db, mailer, publicUrl };

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

  app.post(
    '/api/auth/change-password',
    {
      schema: {
        tags: ['identity'],
        summary: 'Change the password; every other session of the person ends unless revokeOtherSessions is false',
        security: [{ bearer: [] }],
        body: ChangePasswordBody,
        response: { 200: IdentityOkResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      await enforceRateLimits(db, '/change-password', request, undefined, ipLimitScale);
      const session = await app.sessions.read(request);
      if (!session) throw AppError.signInRequired();
      await changePassword({ db, userId: session.user.id, sessionId: session.sessionId, ...request.body });
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
      const limits = await enforceRateLimits(db, path, request, email, ipLimitScale);

      const headers = fromNodeHeaders(request.headers);
      headers.set('x-client-ip', request.ip);
      headers.delete('cookie');
      headers.delete(SIGN_IN_CODE_HEADER);
      let forwarded = body;
      if (path === '/sign-in/email' && body) {
        const { code: _code, ...rest } = body;
        forwarded = rest;
        if (limits.codeRequired && email) headers.set(SIGN_IN_CODE_HEADER, await requireSignInCode(proofDeps, email, body));
      }
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: request.method === 'POST' ? JSON.stringify(forwarded ?? {}) : null,
        }),
      );

      if (response.status >= 400) {
        const raw = await response.text();
        let code: string = response.status === 401 ? ErrorCode.Unauthorized : ErrorCode.BadRequest;
        let message = 'The request could not be completed.';
        try {
          const parsed = JSON.parse(raw) as { code?: string; message?: string };
          if (parsed.code) code = parsed.code;
          if (code === 'INVALID_EMAIL_OR_PASSWORD' && headers.has(SIGN_IN_CODE_HEADER)) code = 'INVALID_PASSWORD_OR_CODE';
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

      for (const key of limits.clearOnSuccess) await resetRateLimit(db, key);
      for (const key of limits.releaseOnSuccess) await releaseRateLimit(db, key);
      reply.status(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
      });
      const text = await response.text();
      return reply.send(text.length > 0 ? text : null);
    },
  });
};
