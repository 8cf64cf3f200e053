import type { PaymentMethod } from '@tay/contract';
import { newIdempotencyKey, retriesWithSameKey } from '../../../lib/idempotency-keys';

/**
 * One try at paying: the exact body sent and the Idempotency-Key it went with. The API stores
 * its answer under the key and hashes the body, processor token included, so a retry of the same
 * try must send this object again unchanged — a re-tokenized card would be a different body (422).
 */
export interface PaymentAttempt<B extends PaymentBody = PaymentBody> {
  idempotencyKey: string;
  body: B;
  /** "Visa •••• 4242": what a retry pays with, to tell the payer. */
  instrumentLabel: string;
}

/** What every payment body holds; a page may send more (a QR code's payer details). */
export interface PaymentBody {
  method: PaymentMethod;
  processorToken: string;
  amountCents: number;
}

/**
 * A new try with freshly tokenized details, under a key never used before. `rest` is the rest of
 * the body the page sends (the payer's details on a QR code's page); it is part of the attempt,
 * so a retry sends it unchanged too.
 */
export function startAttempt<R extends object = Record<never, never>>(
  method: PaymentMethod,
  instrument: { token: string; label: string },
  amountCents: number,
  newKey: () => string = newIdempotencyKey,
  rest?: R,
): PaymentAttempt<PaymentBody & R> {
  return {
    idempotencyKey: newKey(),
    body: { ...(rest ?? ({} as R)), method, processorToken: instrument.token, amountCents },
    instrumentLabel: instrument.label,
  };
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
  // The same rule as every other idempotent call of the app.
  return retriesWithSameKey(error);
}

/**
 * What to send after an answer: the same try again, unchanged, when its answer is unknown (the
 * server then answers with what it stored, and money moves once); nothing when the answer is
 * definitive, so the next submit tokenizes the details again under a new key.
 */
export function attemptAfter<A extends PaymentAttempt>(attempt: A, answer: { ok: true } | { error: unknown }): A | null {
  return 'error' in answer && isAnswerUnknown(answer.error) ? attempt : null;
}
