import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export const GOOD_PASSWORD = 'Correct-Horse-42';

export async function post(app: FastifyInstance, url: string, payload: unknown, token?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export async function get(app: FastifyInstance, url: string, token?: string) {
  return app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

export function signUp(app: FastifyInstance, email: string, password = GOOD_PASSWORD) {
  return post(app, '/api/auth/sign-up/email', { email, password, name: email });
}

/** The 6-digit code in the newest e-mail of the given kind sent to `email`. */
export async function latestCode(app: FastifyInstance, email: string, kind: 'confirmation' | 'reset' = 'confirmation') {
  const res = await get(app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const message = (res.json() as { subject: string }[]).find((m) => m.subject.includes(kind === 'confirmation' ? 'confirmation code' : 'password reset code'));
  const code = message?.subject.match(/(\d{6})$/)?.[1];
  if (!code) throw new Error(`No ${kind} code for ${email}`);
  return code;
}

export function confirm(app: FastifyInstance, email: string, otp: string, password = GOOD_PASSWORD) {
  return post(app, '/api/auth/email-otp/verify-email', { email, otp, password });
}

export async function signIn(app: FastifyInstance, email: string, password = GOOD_PASSWORD) {
  return post(app, '/api/auth/sign-in/email', { email, password });
}

/** Signs up, confirms with the e-mailed code and signs in; returns the identity token. */
export async function registeredUser(app: FastifyInstance, email: string, password = GOOD_PASSWORD): Promise<string> {
  expect((await signUp(app, email, password)).statusCode).toBe(200);
  const confirmed = await confirm(app, email, await latestCode(app, email), password);
  expect(confirmed.statusCode).toBe(200);
  const res = await signIn(app, email, password);
  expect(res.statusCode).toBe(200);
  const token = res.headers['set-auth-token'];
  if (typeof token !== 'string') throw new Error('sign-in returned no token');
  return token;
}

export function errorOf(res: { json(): unknown }) {
  return (res.json() as { status: string; errorDetails: { code: string; message: string; fields?: Record<string, string> } }).errorDetails;
}
