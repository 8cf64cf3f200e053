import { createHash, createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import type { SecretConfig } from 'better-auth/crypto';
import { bearer } from 'better-auth/plugins/bearer';
import { emailOTP } from 'better-auth/plugins/email-otp';
import { twoFactor } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Config } from '../config';
import type { Mailer } from '../mail/mailer';
import { newId } from '../lib/ids';
import { authSecretsOf } from '../lib/secret-box';
import { codeEmail, existingAccountEmail } from './emails';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem, verifyPassword } from './password';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TRUST_DEVICE_SECONDS, TWO_FACTOR_PENDING_SECONDS, twoFactorHeaders } from './two-factor';

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 600;
export const CODE_ATTEMPTS = 3;
export const SESSION_TTL_SECONDS = 12 * 3600;

/**
 * Set by our route (never by the client: it drops the header first) on a sign-in past the
 * per-account limit: the e-mailed code that must come with the password (ADR 021).
 */
export const SIGN_IN_CODE_HEADER = 'x-tay-sign-in-code';

const ID_PREFIX: Record<string, string> = {
  user: 'usr',
  session: 'ses',
  account: 'acc',
  verification: 'ver',
  twoFactor: 'tfa',
};

/**
 * AUTH_SECRET, then the earlier secrets of AUTH_SECRET_PREVIOUS, as better-auth's versioned keys:
 * what better-auth encrypts (authenticator secrets and recovery codes, ADR 052) carries the number
 * of its key and opens under any configured one, so a rotation (ADR 018) locks nobody out of their
 * second factor. A key's number comes from its own hash: the same in every process, whatever the
 * order of the list.
 */
export function authSecretVersions(secrets: readonly string[]): { version: number; value: string }[] {
  return [...new Set(secrets)].map((value) => ({ version: parseInt(createHash('sha256').update(value).digest('hex').slice(0, 7), 16), value }));
}

/** The same keys as better-auth's own encryption takes them (`better-auth/crypto`). */
export function secretConfigOf(secrets: readonly string[]): SecretConfig {
  const versions = authSecretVersions(secrets);
  return { keys: new Map(versions.map((v) => [v.version, v.value])), currentVersion: versions[0]!.version };
}

export interface AuthOptions {
  config: Config;
  pool: pg.Pool;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

function policyError(password: unknown, email?: unknown): void {
  if (typeof password !== 'string') return;
  const problem = passwordProblem(password, typeof email === 'string' ? email : undefined);
  if (problem) throw new APIError('BAD_REQUEST', { code: 'WEAK_PASSWORD', message: problem });
}

/**
 * The bodies of sign-up confirmations whose password was checked against the registration (the
 * before hook), so the after hook may sign the person in: the code alone never opens a session.
 */
const confirmedWithPassword = new WeakSet<object>();

/**
 * better-auth configured for Tay (ARCHITECTURE.md §4): e-mail + password where the username is the
 * e-mail, 6-digit codes by e-mail for confirmation and password reset (keyed hashes, 10 minutes,
 * single use, 3 tries), bearer tokens, sessions revoked on reset, and a second factor for whoever
 * turns it on (an authenticator app and recovery codes, ADR 052). Rate limits are ours (per IP
 * and per account, in the database): see `routes/auth.ts`.
 */
export function createAuth({ config, pool, mailer, log }: AuthOptions) {
  const codeKey = createHmac('sha256', config.authSecret).update('tay:otp').digest();
  const local = ['http://localhost', 'http://127.0.0.1'].flatMap((host) => [`${host}:${config.port}`, `${host}:5173`]);
  // Set once `auth` exists: better-auth's own code check (expiry, tries), used by a hook below.
  let checkSignInCode: (email: string, otp: string) => Promise<void> = () => Promise.reject(new Error('auth is not ready'));

  const auth = betterAuth({
    appName: 'Tay',
    database: pool,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    secrets: authSecretVersions(authSecretsOf(config)),
    trustedOrigins: config.isProduction ? [config.publicUrl] : [config.publicUrl, ...local],
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => log[level === 'debug' ? 'debug' : level]({ args }, `auth: ${message}`),
    },
    // better-auth writes every refused request (a weak password, a wrong code) to the console as an
    // ERROR line of its own. A refusal is the person's mistake, answered with its message: it goes
    // to our log at debug level. Anything else is ours to look at, at error level.
    onAPIError: {
      onError(error) {
        if (error instanceof APIError && error.statusCode < 500) log.debug({ status: error.statusCode, code: error.body?.code }, `auth: ${error.message}`);
        else log.error({ err: error }, 'auth: request failed');
      },
    },
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      // Sign-up with an address that already has a confirmed account: no new account and no
      // hint to the caller (no enumeration); the owner is told by e-mail.
      async onExistingUserSignUp({ user }) {
        if (user.emailVerified) await mailer.send(existingAccountEmail({ to: user.email, publicUrl: config.publicUrl }));
      },
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
      additionalFields: {
        firstName: { type: 'string', required: false, input: false, fieldName: 'first_name' },
        lastName: { type: 'string', required: false, input: false, fieldName: 'last_name' },
        mobileNumber: { type: 'string', required: false, input: false, fieldName: 'mobile_number' },
        enrollNotificationViaEmail: {
          type: 'boolean',
          required: false,
          input: false,
          defaultValue: true,
          fieldName: 'enroll_notification_via_email',
        },
        enrollNotificationViaMobileNumber: {
          type: 'boolean',
          required: false,
          input: false,
          defaultValue: false,
          fieldName: 'enroll_notification_via_mobile_number',
        },
        userState: { type: 'string', required: false, input: false, defaultValue: 'Incomplete', fieldName: 'user_state' },
        mustChangePassword: {
          type: 'boolean',
          required: false,
          input: false,
          defaultValue: false,
          fieldName: 'must_change_password',
        },
        temporaryPasswordExpiresAt: {
          type: 'date',
          required: false,
          input: false,
          returned: false,
          fieldName: 'temporary_password_expires_at',
        },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_TTL_SECONDS,
      // A session used (or refreshed by the app every 50 minutes) is extended once an hour.
      updateAge: 3600,
      fields: {
        expiresAt: 'expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
      },
    },
    account: {
      modelName: 'accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    advanced: {
      database: { generateId: ({ model }) => newId(ID_PREFIX[model] ?? 'id') },
      ipAddress: { ipAddressHeaders: ['x-client-ip'] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : undefined;
        switch (ctx.path) {
          case '/sign-up/email': {
            policyError(body.password, email);
            if (!email) return;
            // The username is the e-mail address (docs/product.md §5).
            body.name = email;
            // The real owner of an address always wins: a new sign-up replaces a registration
            // that was never confirmed (its password never worked), codes included.
            const existing = await ctx.context.internalAdapter.findUserByEmail(email);
            if (existing && !existing.user.emailVerified) {
              await ctx.context.internalAdapter.deleteVerificationByIdentifier(`email-verification-otp-${email}`);
              await ctx.context.internalAdapter.deleteUser(existing.user.id);
            }
            return;
          }
          case '/email-otp/verify-email': {
            // Confirming needs the code from the mailbox and the password of this registration,
            // so nobody can get the mailbox owner to confirm a registration they did not make.
            if (!email) return;
            const found = await ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
            if (!found || found.user.emailVerified) return;
            const credential = found.accounts.find((a) => a.providerId === 'credential' && a.accountId === found.user.id);
            if (!credential?.password) return;
            const ok = typeof body.password === 'string' && (await verifyPassword({ hash: credential.password, password: body.password }));
            if (!ok) {
              throw new APIError('BAD_REQUEST', {
                code: 'CONFIRMATION_PASSWORD_MISMATCH',
                message: 'This code belongs to a sign-up made with a different password. Sign up again with your password to get a new code.',
              });
            }
            // The code from the mailbox and the registration's own password: as good as a sign-in.
            confirmedWithPassword.add(body);
            return;
          }
          case '/email-otp/send-verification-otp':
            if (body.type !== 'email-verification') {
              throw new APIError('BAD_REQUEST', { code: 'UNSUPPORTED_CODE_TYPE', message: 'Only sign-up codes can be resent here.' });
            }
            return;
          case '/email-otp/reset-password':
            policyError(body.password, email);
            return;
          case '/sign-in/email': {
            if (!email) return;
            const found = await ctx.context.internalAdapter.findUserByEmail(email);
            const expires = (found?.user as { temporaryPasswordExpiresAt?: Date | null } | undefined)?.temporaryPasswordExpiresAt;
            if (found && (found.user as { mustChangePassword?: boolean }).mustChangePassword && expires && expires < new Date()) {
              throw new APIError('UNAUTHORIZED', {
                code: 'TEMPORARY_PASSWORD_EXPIRED',
                message: 'Your temporary password has expired. Ask the person who invited you for a new one, or reset your password.',
              });
            }
            return;
          }
          default:
            return;
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/two-factor/verify-totp') {
          // The code that completes an enrolment turns the second factor on, and better-auth then
          // replaces the session (the new token goes out as `set-auth-token`) but answers with the
          // old token, which no longer works, and the user as it was: answer with what is now.
          const returned = ctx.context.returned as { token?: string | null; user?: Record<string, unknown> } | undefined;
          const current = ctx.context.newSession;
          if (!returned || typeof returned !== 'object' || !('token' in returned) || !current || returned.token === current.session.token) return;
          const twoFactorEnabled = (current.user as { twoFactorEnabled?: boolean }).twoFactorEnabled;
          return ctx.json({ ...returned, token: current.session.token, user: { ...returned.user, twoFactorEnabled } });
        }
        if (ctx.path === '/email-otp/verify-email') {
          // A confirmed sign-up signs its person in (docs/product.md §4), but only when this
          // request proved the registration's password too (see the before hook): a code alone,
          // e.g. one asked for an address that is already confirmed, signs nobody in. Without a
          // session the answer keeps `token: null` and the page asks the person to sign in.
          const returned = ctx.context.returned as { status?: boolean; user?: { id?: string } } | undefined;
          const userId = returned?.user?.id;
          if (returned?.status !== true || !userId || !ctx.body || !confirmedWithPassword.has(ctx.body as object)) return;
          const user = await ctx.context.internalAdapter.findUserById(userId);
          if (!user?.emailVerified) return;
          const session = await ctx.context.internalAdapter.createSession(user.id);
          // The session cookie becomes the bearer token (`set-auth-token`) in the bearer plugin.
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ ...returned, token: session.token });
        }
        if (ctx.path !== '/email-otp/reset-password') return;
        const returned = ctx.context.returned as { success?: boolean } | undefined;
        const email = typeof (ctx.body as { email?: unknown })?.email === 'string' ? (ctx.body as { email: string }).email : '';
        if (!returned?.success || !email) return;
        // A reset sets a password only the mailbox owner knows: the new-password challenge is met.
        const found = await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase());
        if (found) {
          await ctx.context.internalAdapter.updateUser(found.user.id, {
            mustChangePassword: false,
            temporaryPasswordExpiresAt: null,
          });
        }
      }),
    },
    plugins: [
      emailOTP({
        otpLength: CODE_LENGTH,
        expiresIn: CODE_TTL_SECONDS,
        allowedAttempts: CODE_ATTEMPTS,
        // Keyed hash: a copy of the database alone does not reveal codes.
        storeOTP: { hash: async (otp) => createHmac('sha256', codeKey).update(otp).digest('base64url') },
        overrideDefaultEmailVerification: true,
        disableSignUp: true,
        async sendVerificationOTP({ email, otp, type }) {
          if (type === 'email-verification' || type === 'forget-password') {
            await mailer.send(codeEmail({ to: email, code: otp, purpose: type, minutes: CODE_TTL_SECONDS / 60 }));
          }
        },
      }),
      // Before the bearer plugin: for a sign-in that still needs its second factor, twoFactor's
      // hook ends the session the password opened, so the bearer plugin must not hand it out.
      twoFactor({
        issuer: 'Tay',
        // On only once the first code from the app checks out (better-auth's default, said here).
        skipVerificationOnEnable: false,
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
        backupCodeOptions: { amount: RECOVERY_CODE_COUNT, length: 10, storeBackupCodes: 'encrypted' },
        trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
        twoFactorCookieMaxAge: TWO_FACTOR_PENDING_SECONDS,
        schema: {
          user: { fields: { twoFactorEnabled: 'two_factor_enabled' } },
          twoFactor: {
            modelName: 'two_factors',
            fields: {
              userId: 'user_id',
              backupCodes: 'backup_codes',
              failedVerificationCount: 'failed_verification_count',
              lockedUntil: 'locked_until',
            },
          },
        },
      }),
      twoFactorHeaders(),
      bearer(),
    ],
    databaseHooks: {
      session: {
        create: {
          // The password is right by now; past the per-account limit the e-mailed code must be
          // too. A wrong code gets the wrong-password answer, so neither reveals the other.
          async before(_session, ctx) {
            const code = ctx?.path === '/sign-in/email' ? ctx.headers?.get(SIGN_IN_CODE_HEADER) : null;
            if (!code) return;
            const email = String((ctx?.body as { email?: unknown } | undefined)?.email ?? '')
              .trim()
              .toLowerCase();
            try {
              await checkSignInCode(email, code);
            } catch (error) {
              if (!(error instanceof APIError) || error.statusCode >= 500) throw error;
              throw new APIError('UNAUTHORIZED', { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
            }
          },
        },
      },
    },
  });
  checkSignInCode = async (email, otp) => {
    await auth.api.checkVerificationOTP({ body: { email, type: 'sign-in', otp } });
    // Checked and good: now used up, so it signs in once.
    const context = await auth.$context;
    await context.internalAdapter.deleteVerificationByIdentifier(`sign-in-otp-${email}`);
  };
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
