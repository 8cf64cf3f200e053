import { ErrorCode, type PaymentMethod } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';

/**
 * One try at paying: the exact body sent and the Idempotency-Key it went with. The API stores
 * its answer under the key and hashes the body, processor token included, so a retry of the same
 * try must send this object again unchanged — a re-tokenized card would be a different body (422).
 */
export interface PaymentAttempt {
  idempotencyKey: string;
  body: { method: PaymentMethod; processorToken: string; amountCents: number };
  /** "Visa •••• 4242": what a retry pays with, to tell the payer. */
  instrumentLabel: string;
}

/** A new try with freshly tokenized details, under a key never used before. */
export function startAttempt(
  method: PaymentMethod,
  instrument: { token: string; label: string },
  amountCents: number,
  newKey: () => string = () => crypto.randomUUID(),
): PaymentAttempt {
  return { idempotencyKey: newKey(), body: { method, processorToken: instrument.token, amountCents }, instrumentLabel: instrument.label };
}

/**
 * Whether the answer to a try is unknown, so it may have taken the money: no response at all
 * (the connection dropped, perhaps after the server charged), a failure on our side (5xx: the
 * server let go of the key, or kept the payment it started for the retry to finish), too many
 * requests (it never ran), or the key still in use (the first send is running, or its server
 * died mid-payment and the retry will learn what happened once the key is free). Every other
 * answer — a payment, declined or not, or a 4xx refusal, which the server stores under the key —
 * is definitive.
 */
export function isAnswerUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 429 || error.status >= 500 || error.code === ErrorCode.IdempotencyKeyInUse;
}

/**
 * What to send after an answer: the same try again, unchanged, when its answer is unknown (the
 * server then answers with what it stored, and money moves once); nothing when the answer is
 * definitive, so the next submit tokenizes the details again under a new key.
 */
export function attemptAfter(attempt: PaymentAttempt, answer: { ok: true } | { error: unknown }): PaymentAttempt | null {
  return 'error' in answer && isAnswerUnknown(answer.error) ? attempt : null;
}
