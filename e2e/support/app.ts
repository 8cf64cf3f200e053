import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export const baseUrl = (): string => inject('baseUrl');

let counter = 0;
/** A fresh address per test, so tests never see each other's mail or accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

interface OutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export async function outbox(to: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${baseUrl()}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return (await res.json()) as OutboxMessage[];
}

/** Waits for the newest code e-mail to `to`, newer than `after`, and returns its 6 digits. */
export async function waitForCode(to: string, kind: 'confirmation' | 'reset' | 'sign-in', after = new Date(0)): Promise<string> {
  const wanted = { confirmation: 'confirmation code', reset: 'password reset code', 'sign-in': 'sign-in code' }[kind];
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const message = (await outbox(to)).find((m) => m.subject.includes(wanted) && new Date(m.createdAt) > after);
    const code = message?.text.match(/Code: (\d{6})/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No ${kind} code e-mailed to ${to}`);
}

/** An operator command (`npm run ops -- …`) against the server's database; returns its output. */
export async function ops(...args: string[]): Promise<string> {
  const { stdout } = await run('node', ['scripts/start.mjs', '--ops', ...args], {
    cwd: root,
    env: { ...inject('serverEnv'), LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });
  return stdout;
}

async function authCall(path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl()}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl() },
    body: JSON.stringify(body),
  });
}

/** Signs up and confirms through the API (for journeys that start with an existing account). */
export async function registerAccount(email: string, password: string): Promise<void> {
  const started = new Date(Date.now() - 1000);
  const signUp = await authCall('/sign-up/email', { email, password, name: email });
  if (!signUp.ok) throw new Error(`sign-up failed: ${await signUp.text()}`);
  const otp = await waitForCode(email, 'confirmation', started);
  const verified = await authCall('/email-otp/verify-email', { email, otp, password });
  if (!verified.ok) throw new Error(`confirmation failed: ${await verified.text()}`);
}
