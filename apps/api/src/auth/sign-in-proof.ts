import type { Executor } from '../db/executor';
import { consumeRateLimit } from '../lib/rate-limiter';
import type { Mailer } from '../mail/mailer';
import { CODE_TTL_SECONDS, type Auth } from './better-auth';
import { codeEmail, signInWarningEmail } from './emails';
import { SIGN_IN_CODE_EVERY_SECONDS, SIGN_IN_WARNING_EVERY_SECONDS } from './rate-rules';

export interface SignInProofDeps {
  auth: Auth;
  db: Executor;
  mailer: Mailer;
  publicUrl: string;
}

/** A confirmed account's address, or nothing: no mail goes to an address without one. */
async function confirmedAccount(db: Executor, email: string): Promise<string | undefined> {
  const user = await db.selectFrom('users').select(['email', 'email_verified']).where('email', '=', email).executeTakeFirst();
  return user?.email_verified ? user.email : undefined;
}

/**
 * Tells the owner that someone is guessing their password, once per episode: the first time in
 * a day that the account passes its per-account limit, not once per attempt.
 */
export async function warnOwner({ db, mailer, publicUrl }: SignInProofDeps, email: string): Promise<void> {
  const first = await consumeRateLimit(db, `auth:sign-in-warning:${email}`, { max: 1, windowSeconds: SIGN_IN_WARNING_EVERY_SECONDS });
  if (!first.allowed) return;
  const to = await confirmedAccount(db, email);
  if (to) await mailer.send(signInWarningEmail({ to, publicUrl }));
}

/**
 * E-mails a sign-in code to the account, at most once per 5 minutes whoever asks, so an
 * attacker cannot flood the mailbox. A code lives 10 minutes, so whenever someone is asked for
 * one, the newest e-mail holds a code good for 5 more minutes at least. Counted per address
 * whether or not it has an account: the answer says nothing about that.
 */
export async function offerSignInCode({ auth, db, mailer }: SignInProofDeps, email: string): Promise<{ sent: boolean; retryAfterSeconds: number }> {
  const decision = await consumeRateLimit(db, `auth:sign-in-code:${email}`, { max: 1, windowSeconds: SIGN_IN_CODE_EVERY_SECONDS });
  if (!decision.allowed) return { sent: false, retryAfterSeconds: decision.retryAfterSeconds };
  const to = await confirmedAccount(db, email);
  if (to) {
    const code = await auth.api.createVerificationOTP({ body: { email: to, type: 'sign-in' } });
    await mailer.send(codeEmail({ to, code, purpose: 'sign-in', minutes: CODE_TTL_SECONDS / 60 }));
  }
  return { sent: true, retryAfterSeconds: decision.retryAfterSeconds };
}
