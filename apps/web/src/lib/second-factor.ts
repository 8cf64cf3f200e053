import { IDENTITY_EMPTY_MESSAGES } from '@tay/contract';
import { call, requireValue, type IdentityResult, type SecondFactorPending, type SessionUser, type SignInData } from './identity';
import { writeIdentityToken } from './session-token';

/*
 * The second factor's calls (ADR 052), apart from `./identity.ts`: only the sign-in's code step and
 * the Security page use them, and both load after the sign-in page, whose first bundle stays small.
 */

/** A session better-auth answered (`set-auth-token`), kept as sign-in keeps it; enabling or turning off the factor replaces it. */
function keepSession(response: Response | undefined): string | null {
  const token = response?.headers.get('set-auth-token') ?? null;
  if (token) writeIdentityToken(token);
  return token;
}

/** A trusted device's token, per person (lower-cased e-mail): sent with the password, it skips the code for 30 days. */
export function trustToken(email: string, keep?: string | null): string | null {
  const key = `tay.trust-device.${email.trim().toLowerCase()}`;
  try {
    if (keep === null) window.localStorage.removeItem(key);
    else if (keep) window.localStorage.setItem(key, keep);
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export const secondFactor = {
  /**
   * Signs in again with this device's trusted token beside the password: a session when the token
   * is still good (it is renewed), else null and the token is forgotten (the code is asked for).
   */
  async signInTrusted(email: string, password: string): Promise<SignInData | null> {
    const trusted = trustToken(email);
    if (!trusted) return null;
    const result = await call<{ user: SessionUser; twoFactorRedirect?: boolean }>(
      '/sign-in/email',
      { email: email.trim(), password },
      { title: 'Authentication Error', extraHeaders: { 'x-trust-device-token': trusted } },
    );
    const token = result.status === true && !result.data?.twoFactorRedirect ? keepSession(result.response) : null;
    if (!token || result.status !== true) {
      trustToken(email, null);
      return null;
    }
    trustToken(email, result.response?.headers.get('set-trust-device-token'));
    const user = result.data.user;
    return { token, user, ...(user.mustChangePassword ? { challenge: 'NEW_PASSWORD_REQUIRED' as const } : {}) };
  },

  /**
   * The second step of a sign-in (ADR 052): a code from the authenticator app, or a recovery code,
   * with the token the password step answered. `trustDevice` keeps a token that skips the code on
   * this device for 30 days.
   */
  async verify(
    pending: SecondFactorPending['secondFactor'],
    code: string,
    { recovery = false, trustDevice = false }: { recovery?: boolean; trustDevice?: boolean } = {},
  ): Promise<IdentityResult<SignInData>> {
    requireValue(code, IDENTITY_EMPTY_MESSAGES.code);
    const result = await call<{ token: string; user: SessionUser }>(
      recovery ? '/two-factor/verify-backup-code' : '/two-factor/verify-totp',
      { code: code.replace(/\s+/g, ''), trustDevice },
      { title: 'Authentication Error', extraHeaders: { 'x-two-factor-token': pending.pendingToken } },
    );
    if (result.status !== true) return result;
    const token = keepSession(result.response);
    if (!token) return { status: false, error: { code: 'NO_TOKEN', message: 'Sign-in did not return a session.', title: 'Authentication Error' } };
    trustToken(pending.email, result.response?.headers.get('set-trust-device-token'));
    const user = result.data.user;
    return { status: true, data: { token, user, ...(user.mustChangePassword ? { challenge: 'NEW_PASSWORD_REQUIRED' as const } : {}) } };
  },

  /** Starts an authenticator app's enrolment (with the password): the `otpauth://` URI to show as a QR code and ten recovery codes. */
  async enable(password: string): Promise<IdentityResult<{ totpURI: string; backupCodes: string[] }>> {
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    const result = await call<{ totpURI: string; backupCodes: string[] }>('/two-factor/enable', { password }, { auth: true, title: 'Authentication Error' });
    if (result.status === true) keepSession(result.response);
    return result;
  },

  /** Confirms the enrolment with the app's first code: the second factor is on from then on. */
  async confirm(code: string): Promise<IdentityResult<unknown>> {
    requireValue(code, IDENTITY_EMPTY_MESSAGES.code);
    const result = await call<unknown>('/two-factor/verify-totp', { code: code.trim() }, { auth: true, title: 'Authentication Error' });
    if (result.status === true) keepSession(result.response);
    return result;
  },

  /** Turns the second factor off (with the password); every trusted device is forgotten. */
  async disable(password: string): Promise<IdentityResult<unknown>> {
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    const result = await call<unknown>('/two-factor/disable', { password }, { auth: true, title: 'Authentication Error' });
    if (result.status === true) keepSession(result.response);
    return result;
  },

  /** Ten new recovery codes (with the password); the earlier ones stop working. */
  async newRecoveryCodes(password: string): Promise<IdentityResult<{ backupCodes: string[] }>> {
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    return call<{ backupCodes: string[] }>('/two-factor/generate-backup-codes', { password }, { auth: true, title: 'Authentication Error' });
  },
};
