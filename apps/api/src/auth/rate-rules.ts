import type { RateRule } from '../lib/rate-limiter';

export interface AuthRateRules {
  ip: RateRule;
  account?: RateRule;
}

/**
 * Limits on the identity endpoints, per client IP and per account (the e-mail address),
 * counted in the database. The per-account limits stop slow guessing spread over many IPs;
 * the per-IP limits stop one client spraying many accounts.
 */
export const AUTH_RATE_RULES: Record<string, AuthRateRules> = {
  '/sign-in/email': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/sign-up/email': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/verify-email': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/email-otp/send-verification-otp': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/request-password-reset': { ip: { max: 20, windowSeconds: 3600 }, account: { max: 5, windowSeconds: 3600 } },
  '/email-otp/reset-password': { ip: { max: 30, windowSeconds: 900 }, account: { max: 10, windowSeconds: 900 } },
  '/change-password': { ip: { max: 30, windowSeconds: 900 } },
  '/complete-new-password': { ip: { max: 30, windowSeconds: 900 } },
};

/** The better-auth endpoints the product uses; everything else under /api/auth is 404. */
export const AUTH_ENDPOINTS: Record<string, 'GET' | 'POST'> = {
  '/sign-up/email': 'POST',
  '/sign-in/email': 'POST',
  '/sign-out': 'POST',
  '/get-session': 'GET',
  '/change-password': 'POST',
  '/email-otp/send-verification-otp': 'POST',
  '/email-otp/verify-email': 'POST',
  '/email-otp/request-password-reset': 'POST',
  '/email-otp/reset-password': 'POST',
};
