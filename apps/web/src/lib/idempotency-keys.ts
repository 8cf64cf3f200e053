import { useCallback, useState } from 'react';
import { ErrorCode } from '@tay/contract';
import { ApiError } from './api-client';

/** The header a money-moving call carries (ARCHITECTURE.md §5, ADR 024). */
export type IdempotencyHeaders = { 'Idempotency-Key': string };

/** A key never used before. */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Whether a failed try may be retried under the same Idempotency-Key: it may have landed (no
 * answer, a failure on our side), or it is still running (409 IDEMPOTENCY_KEY_IN_USE), or it was
 * turned away before it ran (429). The server then answers the retry with the first outcome
 * instead of acting twice. Any other answer is definitive and stored with its key, so trying
 * again after fixing the cause (say, reactivating the payer) needs a new key.
 */
export function retriesWithSameKey(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.isNetworkError || error.status >= 500 || error.status === 429) return true;
  return error.code === ErrorCode.IdempotencyKeyInUse;
}

/**
 * Idempotency keys per intent. An intent is what the person asked for, written out in full (the
 * command and its request, or the form's whole body and target): the same intent retried after
 * an unknown outcome gets the same key; a changed body is another intent with a new key; and
 * once an answer is definitive (success or a 4xx), the next try of even the same intent is new.
 */
export class IntentKeys {
  private readonly keys = new Map<string, string>();

  constructor(private readonly newKey: () => string = newIdempotencyKey) {}

  /** The key to send for this intent now. */
  keyFor(intent: string): string {
    let key = this.keys.get(intent);
    if (key === undefined) {
      key = this.newKey();
      this.keys.set(intent, key);
    }
    return key;
  }

  /** Records how a try ended: the key is kept only while a retry must be recognised as the same. */
  settle(intent: string, error?: unknown): void {
    if (error === undefined || !retriesWithSameKey(error)) this.keys.delete(intent);
  }

  /** Sends `call` under this intent's key, and settles the key by how the call ended. */
  async run<T>(intent: string, call: (headers: IdempotencyHeaders) => Promise<T>): Promise<T> {
    const headers = { 'Idempotency-Key': this.keyFor(intent) };
    try {
      const result = await call(headers);
      this.settle(intent);
      return result;
    } catch (error) {
      this.settle(intent, error);
      throw error;
    }
  }
}

/**
 * The one way a screen sends an idempotent command: `keyed(intent, call)` runs `call` with the
 * Idempotency-Key of its intent — what the person asked for, written out in full (a string, or
 * any value written as JSON: the command, its target and its body). A retry of the same intent
 * after an unknown outcome sends the same key; a new attempt (after an answer, or a changed body)
 * gets a fresh one (see {@link IntentKeys}). The keys live as long as the component using it.
 */
export function useIdempotentCommand() {
  const [keys] = useState(() => new IntentKeys());
  return useCallback(
    <T>(intent: unknown, call: (headers: IdempotencyHeaders) => Promise<T>): Promise<T> =>
      keys.run(typeof intent === 'string' ? intent : JSON.stringify(intent), call),
    [keys],
  );
}
