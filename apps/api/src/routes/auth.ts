import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import type { z } from 'zod';
import {
  ChangePasswordBody,
  CompleteNewPasswordBody,
  ErrorCode,
  ErrorResponse,
  IdentityOkResponse,
  RecoveryCodeBody,
  RecoveryCodesResponse,
  TotpCodeBody,
  TotpUriResponse,
  TwoFactorEnableResponse,
  TwoFactorPasswordBody,
  TwoFactorSessionResponse,
} from '@tay/contract';
import { SIGN_IN_CODE_HEADER, type Auth } from '../auth/better-auth';
import { recoveryCodesReplacedEmail, recoveryCodeUsedEmail, twoFactorCodesRefusedEmail, twoFactorDisabledEmail, twoFactorEnabledEmail } from '../auth/emails';
import { AUTH_ERROR_MESSAGES } from '../auth/error-messages';
import { AUTH_ENDPOINTS, AUTH_RATE_RULES } from '../auth/rate-rules';
import { offerSignInCode, warnOwner, type SignInProofDeps } from '../auth/sign-in-proof';
import {
  claimTotpStep,
  CODE_CHECK_PATHS,
  forgetTrustedDevices,
  matchingStep,
  pendingSignInUser,
  RECOVERY_CODE_COUNT,
  recoveryCodesLeft,
  totpKey,
  TRUST_DEVICE_TOKEN_HEADER,
  TWO_FACTOR_CODE_RULE,
  TWO_FACTOR_TOKEN_HEADER,
} from '../auth/two-factor';
import type { Executor } from '../db/executor';
import { changePassword } from '../domain/users/change-password';
import { completeNewPassword } from '../domain/users/complete-new-password';
import { recordSecurityEvent } from '../domain/users/security-events';
import { AppError } from '../lib/app-error';
import { clientSource } from '../lib/client-source';
import { consumeRateLimit, releaseRateLimit, resetRateLimit, type RateDecision } from '../lib/rate-limiter';
import type { Mailer } from '../mail/mailer';
import type { AuthSession } from '../plugins/authenticate';
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

/** The second factor's endpoints that act for the signed-in person (the session, never a pending sign-in). */
const TWO_FACTOR_SESSION_PATHS = new Set(['/two-factor/enable', '/two-factor/get-totp-uri', '/two-factor/generate-backup-codes', '/two-factor/disable']);

interface TwoFactorDeps {
  auth: Auth;
  db: Executor;
  mailer: Mailer;
  publicUrl: string;
}

/** What the route does around one check of a code, once it knows how better-auth answered. */
interface CodeCheck {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

const NO_CHECK: CodeCheck = { failed: async () => {}, succeeded: async () => {} };

/**
 * Before better-auth checks a code (ADR 052): whose it is — the signed-in person enrolling, or
 * the person of a pending sign-in — then that person's wrong codes (5, then a wait of up to 15
 * minutes, in `rate_limits`, shared by every replica), then, for an authenticator code, its time
 * step: a code of a step at or before the last accepted one is refused, which better-auth alone
 * does not do. The step is claimed before better-auth sees the code, so two requests racing
 * with one code cannot both pass. Without a person (a forged or expired pending sign-in)
 * better-auth refuses on its own, behind the per-address limit.
 */
async function beginCodeCheck(deps: TwoFactorDeps, session: AuthSession | null, request: FastifyRequest, path: string, code: unknown): Promise<CodeCheck> {
  const { auth, db, mailer, publicUrl } = deps;
  const context = await auth.$context;
  const pendingToken = request.headers[TWO_FACTOR_TOKEN_HEADER];
  const pending = !request.headers.authorization && typeof pendingToken === 'string' ? await pendingSignInUser(db, pendingToken, context.secret) : null;
  const person = session ? { id: session.user.id, email: session.user.email } : pending;
  if (!person) return NO_CHECK;
  const signIn = !session;
  const key = `auth:two-factor:user:${person.id}`;
  const decision = await consumeRateLimit(db, key, TWO_FACTOR_CODE_RULE);
  if (!decision.allowed) throw rateLimited([decision]);
  const row = await db.selectFrom('two_factors').select(['secret', 'verified']).where('user_id', '=', person.id).executeTakeFirst();

  const failed = async () => {
    // The 5th wrong code after the right password: written down and told to the owner, once a burst.
    if (!signIn || decision.count < TWO_FACTOR_CODE_RULE.max) return;
    const first = await consumeRateLimit(db, `auth:two-factor-warning:${person.id}`, { max: 1, windowSeconds: TWO_FACTOR_CODE_RULE.windowSeconds });
    if (!first.allowed) return;
    await recordSecurityEvent(
      db,
      mailer,
      { userId: person.id, action: 'two_factor.codes_refused', details: { failures: decision.count }, ip: request.ip },
      twoFactorCodesRefusedEmail({ to: person.email, publicUrl, failures: decision.count, minutes: TWO_FACTOR_CODE_RULE.windowSeconds / 60 }),
    );
  };

  if (path === '/two-factor/verify-totp' && row && typeof code === 'string') {
    const step = matchingStep(await totpKey(row.secret, context.secretConfig), code.trim());
    if (step !== null && !(await claimTotpStep(db, person.id, step))) {
      await failed();
      throw new AppError('TOTP_CODE_USED', AUTH_ERROR_MESSAGES.TOTP_CODE_USED!, undefined, 401);
    }
  }

  return {
    failed,
    async succeeded() {
      // Only wrong codes count: the right one takes its own attempt back.
      await releaseRateLimit(db, key);
      if (path === '/two-factor/verify-totp' && !signIn && row && !row.verified) {
        await recordSecurityEvent(
          db,
          mailer,
          { userId: person.id, action: 'two_factor.enabled', details: { method: 'totp', recoveryCodes: RECOVERY_CODE_COUNT }, ip: request.ip },
          twoFactorEnabledEmail({ to: person.email, publicUrl, recoveryCodes: RECOVERY_CODE_COUNT }),
        );
      }
      if (path === '/two-factor/verify-backup-code') {
        const remaining = (await recoveryCodesLeft(db, person.id, context.secretConfig)) ?? 0;
        await recordSecurityEvent(
          db,
          mailer,
          { userId: person.id, action: 'two_factor.recovery_code_used', details: { remaining, signIn }, ip: request.ip },
          recoveryCodeUsedEmail({ to: person.email, publicUrl, remaining }),
        );
      }
    },
  };
}

/** After a change the signed-in person made to their second factor: the log, the e-mail, and what else it ends. */
async function afterTwoFactorChange(deps: TwoFactorDeps, session: AuthSession, request: FastifyRequest, path: string): Promise<void> {
  const { db, mailer, publicUrl } = deps;
  const { id: userId, email: to } = session.user;
  if (path === '/two-factor/disable') {
    // Every device the person trusted is forgotten: turned on again, the second factor asks everywhere.
    await forgetTrustedDevices(db, userId);
    await recordSecurityEvent(db, mailer, { userId, action: 'two_factor.disabled', ip: request.ip }, twoFactorDisabledEmail({ to, publicUrl }));
  } else if (path === '/two-factor/generate-backup-codes') {
    await recordSecurityEvent(
      db,
      mailer,
      { userId, action: 'two_factor.recovery_codes_replaced', details: { recoveryCodes: RECOVERY_CODE_COUNT }, ip: request.ip },
      recoveryCodesReplacedEmail({ to, publicUrl, recoveryCodes: RECOVERY_CODE_COUNT }),
    );
  }
}

/**
 * The OpenAPI entries of the second factor's endpoints (better-auth's, forwarded like the rest of
 * `/api/auth/*`): their bodies are checked here first, so a malformed one is our 400.
 */
const TWO_FACTOR_ROUTES: { path: string; summary: string; description: string; session: boolean; body: z.ZodType; response: z.ZodType; conflict?: true }[] = [
  {
    path: '/two-factor/enable',
    summary: 'Start enrolling an authenticator app: the otpauth URI and ten recovery codes',
    description:
      'With the password. The second factor is on only once `verify-totp` (signed in) accepts a first code from the app; until then sign-in asks for none. Calling it again before that replaces the secret and the codes.',
    session: true,
    body: TwoFactorPasswordBody,
    response: TwoFactorEnableResponse,
  },
  {
    path: '/two-factor/get-totp-uri',
    summary: 'The otpauth URI of the enrolled authenticator app again',
    description: 'With the password.',
    session: true,
    body: TwoFactorPasswordBody,
    response: TotpUriResponse,
  },
  {
    path: '/two-factor/verify-totp',
    summary: 'Check a code from the authenticator app: completes an enrolment, or a sign-in that answered twoFactorRedirect',
    description:
      'Signed in (bearer): the first accepted code turns the second factor on and replaces the session (the new token is in `set-auth-token`). ' +
      'Signing in: no bearer; `x-two-factor-token` carries the `set-two-factor-token` that sign-in answered with `{ twoFactorRedirect: true }`, and the answer is the session as sign-in gives it (`set-auth-token`, `{ token, user }`). ' +
      '`trustDevice: true` answers `set-trust-device-token`: sent as `x-trust-device-token` with the password, a sign-in on that device needs no code for 30 days. ' +
      'A code is accepted once: the same code again, or an older one, is 401 TOTP_CODE_USED. After 5 wrong codes (with recovery codes) the person waits: 429 with Retry-After.',
    session: false,
    body: TotpCodeBody,
    response: TwoFactorSessionResponse,
  },
  {
    path: '/two-factor/verify-backup-code',
    summary: 'Sign in with a recovery code instead of a code from the app (each works once)',
    description:
      'As verify-totp, with one of the ten recovery codes; the person is e-mailed and told how many are left. 409 when another request used a code at the same moment: try again.',
    session: false,
    body: RecoveryCodeBody,
    response: TwoFactorSessionResponse,
    conflict: true,
  },
  {
    path: '/two-factor/generate-backup-codes',
    summary: 'Replace the recovery codes with ten new ones',
    description: 'With the password; the earlier codes stop working.',
    session: true,
    body: TwoFactorPasswordBody,
    response: RecoveryCodesResponse,
  },
  {
    path: '/two-factor/disable',
    summary: 'Turn the second factor off',
    description: 'With the password. Replaces the session (the new token is in `set-auth-token`) and forgets every trusted device.',
    session: true,
    body: TwoFactorPasswordBody,
    response: IdentityOkResponse,
  },
];

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

  const twoFactorDeps: TwoFactorDeps = { auth, db, mailer, publicUrl };

  /** Hands one request to better-auth behind our limits; `json`: answer with the parsed body (a documented route's schema writes it). */
  async function forward(request: FastifyRequest, reply: FastifyReply, path: string, json: boolean) {
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
    const session =
      TWO_FACTOR_SESSION_PATHS.has(path) || (CODE_CHECK_PATHS.has(path) && request.headers.authorization) ? await app.sessions.read(request) : null;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : TWO_FACTOR_SESSION_PATHS.has(path) ? session?.user.email : undefined;
    const limits = await enforceRateLimits(db, path, request, email, ipLimitScale);
    const codeCheck = CODE_CHECK_PATHS.has(path) ? await beginCodeCheck(twoFactorDeps, session, request, path, body?.code) : NO_CHECK;

    const headers = fromNodeHeaders(request.headers);
    headers.set('x-client-ip', request.ip);
    headers.delete('cookie');
    headers.delete(SIGN_IN_CODE_HEADER);
    // The pending sign-in goes only to the endpoints that complete it, a trusted device only to sign-in.
    if (!CODE_CHECK_PATHS.has(path)) headers.delete(TWO_FACTOR_TOKEN_HEADER);
    if (path !== '/sign-in/email') headers.delete(TRUST_DEVICE_TOKEN_HEADER);
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
      await codeCheck.failed();
      return reply.status(response.status).send(errorBody(code, message));
    }

    for (const key of limits.clearOnSuccess) await resetRateLimit(db, key);
    for (const key of limits.releaseOnSuccess) await releaseRateLimit(db, key);
    await codeCheck.succeeded();
    if (session && TWO_FACTOR_SESSION_PATHS.has(path)) await afterTwoFactorChange(twoFactorDeps, session, request, path);
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length' && !(json && key === 'content-type')) reply.header(key, value);
    });
    const text = await response.text();
    if (json) return reply.send(JSON.parse(text) as unknown);
    return reply.send(text.length > 0 ? text : null);
  }

  for (const route of TWO_FACTOR_ROUTES) {
    app.post(
      `/api/auth${route.path}`,
      {
        schema: {
          tags: ['identity'],
          summary: route.summary,
          description: route.description,
          ...(route.session ? { security: [{ bearer: [] }] } : {}),
          body: route.body,
          response: { 200: route.response, 400: ErrorResponse, 401: ErrorResponse, ...(route.conflict ? { 409: ErrorResponse } : {}), 429: ErrorResponse },
        },
      },
      (request, reply) => forward(request, reply, route.path, true),
    );
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const path = (request.url.split('?')[0] ?? '').replace(/^\/api\/auth/, '');
      if (AUTH_ENDPOINTS[path] !== request.method) {
        return reply.status(404).send(errorBody(ErrorCode.NotFound, `No route ${request.method} /api/auth${path}.`));
      }
      return forward(request, reply, path, false);
    },
  });
};
