import type { RateRule } from '../lib/rate-limiter';

export interface AuthRateRules {
  ip: RateRule;
  /** Per account and source together: past it, that source is refused for that account. */
  accountSource?: RateRule;
  account?: RateRule;
  /** Past the per-account limit: refused, or let through only with the code e-mailed to the account. */
  pastAccountLimit?: 'refuse' | 'code';
}

/**
 * Limits on the identity endpoints, per client source (see `clientSource`) and per account
 * (the e-mail address), counted in the database. The per-source limits stop one client spraying
 * many accounts. Sign-in also counts per account *and* source, which refuses a client that keeps
 * guessing one account, and past its per-account limit (guessing spread over many sources) it
 * asks for a code e-mailed to the account instead of refusing: strangers can no longer lock an
 * owner out (ADR 021). The other per-account limits refuse.
 */
export const AUTH_RATE_RULES: Record<string, AuthRateRules> = {
  '/sign-in/email': {
    ip: { max: 30, windowSeconds: 900 },
    accountSource: { max: 10, windowSeconds: 900 },
    account: { max: 20, windowSeconds: 900 },
    pastAccountLimit: 'code',
  },
  '/sign-up/email': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/verify-email': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/email-otp/send-verification-otp': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/request-password-reset': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/reset-password': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/change-password': { ip: { max: 30, windowSeconds: 900 } },
  '/complete-new-password': { ip: { max: 30, windowSeconds: 900 } },
  // The second factor (ADR 052). The routes that take the password count per signed-in person
  // too; the ones that check a code count wrong codes per person (`TWO_FACTOR_CODE_RULE`).
  '/two-factor/enable': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/two-factor/get-totp-uri': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/two-factor/generate-backup-codes': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/two-factor/disable': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/two-factor/verify-totp': { ip: { max: 30, windowSeconds: 900 } },
  '/two-factor/verify-backup-code': { ip: { max: 30, windowSeconds: 900 } },
};

/**
 * The better-auth endpoints the product uses; everything else under /api/auth is 404 (but
 * `/complete-new-password` and `/change-password`, which are ours).
 */
export const AUTH_ENDPOINTS: Record<string, 'GET' | 'POST'> = {
  '/sign-up/email': 'POST',
  '/sign-in/email': 'POST',
  '/sign-out': 'POST',
  '/get-session': 'GET',
  '/email-otp/send-verification-otp': 'POST',
  '/email-otp/verify-email': 'POST',
  '/email-otp/request-password-reset': 'POST',
  '/email-otp/reset-password': 'POST',
  '/two-factor/enable': 'POST',
  '/two-factor/get-totp-uri': 'POST',
  '/two-factor/verify-totp': 'POST',
  '/two-factor/verify-backup-code': 'POST',
  '/two-factor/generate-backup-codes': 'POST',
  '/two-factor/disable': 'POST',
};

/** A sign-in past the per-account limit: how often a code goes out, and the owner is warned. */
export const SIGN_IN_CODE_EVERY_SECONDS = 300;
export const SIGN_IN_WARNING_EVERY_SECONDS = 24 * 3600;
