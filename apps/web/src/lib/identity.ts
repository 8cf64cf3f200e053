import { errorDetailsOf, IDENTITY_EMPTY_MESSAGES, type IdentityMessage } from '@tay/contract';
import { readIdentityToken, writeIdentityToken } from './session-token';
import { isLeavingPage } from './page-lifecycle';

/**
 * The client-side identity service (docs/product.md §5, §7, §8, §9): every identity action of the app goes
 * through here. Inputs are checked before any request; failures resolve to
 * `{ status: false, error }` (the identity service said no, or it could not be reached) or
 * `{ status: 'Error', errorDetails }` (our API's error shape); change password resolves to
 * 'Error'; network failures are retried 3 times with growing delays.
 */

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  mustChangePassword: boolean;
  /** An authenticator app is on for the person (ADR 052). */
  twoFactorEnabled?: boolean;
}

export interface IdentityError {
  code: string;
  message: string;
  /** The docs/product.md §8 identity message this failure falls under. */
  title: IdentityMessage;
}

export type IdentityFailure =
  { status: false; error: IdentityError } | { status: 'Error'; errorDetails: { code: string; message: string; fields?: Record<string, string> } };
export type IdentityResult<T> = { status: true; data: T } | IdentityFailure;

export const RETRY_DELAYS_MS = [500, 1000, 2000] as const;
export const SESSION_REFRESH_MS = 50 * 60 * 1000;
export const SIGN_OUT_TIMEOUT_MS = 3000;

const BASE = '/api/auth';

let sessionLostListener: (() => void) | null = null;
/** Called when a signed-in identity request gets no response at all (docs/product.md §8). */
export function onSessionLost(listener: () => void): () => void {
  sessionLostListener = listener;
  return () => {
    if (sessionLostListener === listener) sessionLostListener = null;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class NoResponse extends Error {}

/** fetch with the identity retry policy: up to 3 retries after 0.5 s, 1 s and 2 s. */
async function send(path: string, init: RequestInit, retry = true): Promise<Response> {
  const delays = retry ? RETRY_DELAYS_MS : [];
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(`${BASE}${path}`, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      const delay = delays[attempt];
      if (delay === undefined) throw new NoResponse('no response');
      await sleep(delay);
    }
  }
}

function headers(withToken: boolean): Record<string, string> {
  const result: Record<string, string> = { 'Content-Type': 'application/json' };
  if (withToken) {
    const token = readIdentityToken();
    if (token) result.Authorization = `Bearer ${token}`;
    else console.log('no auth token found!');
  }
  return result;
}

function titleFor(code: string, fallback: IdentityMessage): IdentityMessage {
  if (code === 'NETWORK_ERROR') return 'Network error';
  if (code === 'UNAUTHORIZED' || code === 'NEW_PASSWORD_REQUIRED') return 'User is not authenticated';
  return fallback;
}

export async function call<T>(
  path: string,
  body: unknown,
  {
    auth = false,
    title,
    method = 'POST',
    extraHeaders = {},
  }: { auth?: boolean; title: IdentityMessage; method?: 'GET' | 'POST'; extraHeaders?: Record<string, string> },
): Promise<IdentityResult<T> & { response?: Response }> {
  let response: Response;
  try {
    response = await send(path, {
      method,
      headers: { ...headers(auth), ...extraHeaders },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : null,
    });
  } catch {
    // A request cancelled because the page is being left is not a lost connection.
    if (auth && !isLeavingPage()) sessionLostListener?.();
    return { status: false, error: { code: 'NETWORK_ERROR', message: 'Network error', title: 'Network error' } };
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const details = errorDetailsOf(parsed);
    if (details) {
      const { code, message } = details;
      return { status: false, error: { code, message, title: titleFor(code, title) } };
    }
    return {
      status: false,
      error: { code: `HTTP_${response.status}`, message: 'Something went wrong on our side. Please try again.', title },
    };
  }
  return { status: true, data: parsed as T, response };
}

export function requireValue(value: string | undefined | null, message: string): void {
  if (!value || value.trim() === '') throw new Error(message);
}

export interface SignInData {
  token: string;
  user: SessionUser;
  /** Present when the person must set a new password before anything else (docs/product.md §4). */
  challenge?: 'NEW_PASSWORD_REQUIRED';
}

/** The password was right and the person's authenticator app is on: the code comes next (ADR 052). */
export interface SecondFactorPending {
  secondFactor: { pendingToken: string; email: string };
}

export const identity = {
  /**
   * `code`: the 6 digits e-mailed to the account, once sign-in answered `SIGN_IN_CODE_REQUIRED`
   * (someone has been guessing its password from many places).
   */
  async signIn(username: string, password: string, code?: string): Promise<IdentityResult<SignInData | SecondFactorPending>> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    const body = code ? { email: username.trim(), password, code: code.trim() } : { email: username.trim(), password };
    const result = await call<{ user: SessionUser; twoFactorRedirect?: boolean }>('/sign-in/email', body, { title: 'Authentication Error' });
    if (result.status !== true) return result;
    // The second factor's step (loaded only now) sends a trusted device's token, or asks for the code.
    const pendingToken = result.response?.headers.get('set-two-factor-token');
    if (result.data?.twoFactorRedirect && pendingToken) return { status: true, data: { secondFactor: { pendingToken, email: username.trim() } } };
    const token = result.response?.headers.get('set-auth-token');
    if (!token) {
      return { status: false, error: { code: 'NO_TOKEN', message: 'Sign-in did not return a session.', title: 'Authentication Error' } };
    }
    writeIdentityToken(token);
    const user = result.data.user;
    return {
      status: true,
      data: { token, user, ...(user.mustChangePassword ? { challenge: 'NEW_PASSWORD_REQUIRED' as const } : {}) },
    };
  },

  /** Sign-up sends the username and password; the e-mail attribute equals the username (docs/product.md §5). */
  async signUp(username: string, password: string): Promise<IdentityResult<{ email: string }>> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    const email = username.trim().toLowerCase();
    const result = await call<unknown>('/sign-up/email', { email, password, name: email }, { title: 'Error creating account' });
    return result.status === true ? { status: true, data: { email } } : result;
  },

  /**
   * Confirms a sign-up with the e-mailed code; the password proves it is the same registration,
   * so the answer is also a session, kept like a sign-in's (docs/product.md §4). `session` is
   * null when the server opened none: the person then signs in.
   */
  async confirmSignUp(
    username: string,
    code: string,
    password: string,
  ): Promise<IdentityResult<{ confirmed: true; session: { token: string; user: SessionUser } | null }>> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    requireValue(code, IDENTITY_EMPTY_MESSAGES.code);
    requireValue(password, IDENTITY_EMPTY_MESSAGES.password);
    const result = await call<{ user?: SessionUser } | null>(
      '/email-otp/verify-email',
      { email: username.trim(), otp: code.trim(), password },
      { title: 'Error creating account' },
    );
    if (result.status !== true) return result;
    const token = result.response?.headers.get('set-auth-token');
    const user = result.data?.user;
    if (!token || !user) return { status: true, data: { confirmed: true, session: null } };
    writeIdentityToken(token);
    return { status: true, data: { confirmed: true, session: { token, user } } };
  },

  /** Sends a new confirmation code. Failures are only logged (docs/product.md §8). */
  async resendSignUp(username: string): Promise<void> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    const result = await call<unknown>(
      '/email-otp/send-verification-otp',
      { email: username.trim(), type: 'email-verification' },
      { title: 'Error creating account' },
    );
    if (result.status !== true) console.error('Resending the confirmation code failed', result);
  },

  async forgotPassword(username: string): Promise<IdentityResult<{ sent: true }>> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    const result = await call<unknown>('/email-otp/request-password-reset', { email: username.trim() }, { title: 'Authentication Error' });
    return result.status === true ? { status: true, data: { sent: true } } : result;
  },

  async forgotPasswordSubmit(username: string, code: string, newPassword: string): Promise<IdentityResult<{ reset: true }>> {
    requireValue(username, IDENTITY_EMPTY_MESSAGES.username);
    requireValue(code, IDENTITY_EMPTY_MESSAGES.code);
    requireValue(newPassword, IDENTITY_EMPTY_MESSAGES.password);
    const result = await call<unknown>(
      '/email-otp/reset-password',
      { email: username.trim(), otp: code.trim(), password: newPassword },
      { title: 'Authentication Error' },
    );
    return result.status === true ? { status: true, data: { reset: true } } : result;
  },

  /** Meets the new-password-required challenge (docs/product.md §4). */
  async completeNewPassword(newPassword: string): Promise<IdentityResult<{ done: true }>> {
    requireValue(newPassword, IDENTITY_EMPTY_MESSAGES.challengeResponse);
    let response: Response;
    try {
      response = await send('/complete-new-password', { method: 'POST', headers: headers(true), body: JSON.stringify({ newPassword }) });
    } catch {
      sessionLostListener?.();
      return { status: false, error: { code: 'NETWORK_ERROR', message: 'Network error', title: 'Network error' } };
    }
    if (response.ok) return { status: true, data: { done: true } };
    const details = errorDetailsOf(await response.json().catch(() => null));
    return {
      status: 'Error',
      errorDetails: details ?? { code: `HTTP_${response.status}`, message: 'Something went wrong on our side. Please try again.' },
    };
  },

  /** Resolves to 'SUCCESS', or the string 'Error' on any failure (docs/product.md §8). */
  async changePassword(oldPassword: string, newPassword: string): Promise<'SUCCESS' | 'Error'> {
    requireValue(oldPassword, IDENTITY_EMPTY_MESSAGES.password);
    requireValue(newPassword, IDENTITY_EMPTY_MESSAGES.password);
    const result = await call<unknown>(
      '/change-password',
      { currentPassword: oldPassword, newPassword, revokeOtherSessions: true },
      { auth: true, title: 'Authentication Error' },
    );
    if (result.status !== true) return 'Error';
    const token = result.response?.headers.get('set-auth-token');
    if (token) writeIdentityToken(token);
    return 'SUCCESS';
  },

  /** The current session's user, or null when there is none (or it ended). */
  async currentSession(): Promise<IdentityResult<SessionUser | null>> {
    if (!readIdentityToken()) return { status: true, data: null };
    const result = await call<{ user: SessionUser } | null>('/get-session', undefined, {
      auth: true,
      method: 'GET',
      title: 'User is not authenticated',
    });
    if (result.status !== true) return result;
    if (!result.data) {
      writeIdentityToken(null);
      return { status: true, data: null };
    }
    return { status: true, data: result.data.user };
  },

  /**
   * Ends the session on the server and forgets the token. Waits at most 3 seconds for the
   * server: the person is signed out locally either way.
   */
  async signOut(): Promise<void> {
    const token = readIdentityToken();
    writeIdentityToken(null);
    if (!token) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), SIGN_OUT_TIMEOUT_MS);
    try {
      await send(
        '/sign-out',
        { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: '{}', signal: controller.signal },
        false,
      );
    } catch {
      // The server could not be told in time; the token is already forgotten here.
    } finally {
      clearTimeout(timer);
    }
  },
};

/** The sentence shown next to a form for a failure (docs/product.md §8 messages made helpful). */
export function describeFailure(failure: IdentityFailure): { title: string; message: string; code: string } {
  if (failure.status === 'Error') {
    return { title: 'Authentication Error', message: failure.errorDetails.message, code: failure.errorDetails.code };
  }
  const { code, message, title } = failure.error;
  if (code === 'NETWORK_ERROR') return { title, code, message: 'We could not reach Tay. Check your internet connection and try again.' };
  return { title, code, message };
}
