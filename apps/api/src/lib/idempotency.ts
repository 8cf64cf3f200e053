import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode } from '@tay/contract';
import type { DB } from '../db/schema';
import { AppError } from './app-error';

export interface IdempotentResult<T> {
  status: number;
  body: T;
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

export interface IdempotencyOptions<T> {
  db: Kysely<DB>;
  /** Who the key belongs to (a business, or a payer link): keys never collide across scopes. */
  scope: string;
  /** The `Idempotency-Key` header; without one the work simply runs. */
  key: string | undefined;
  /** What the request asked for: the same key with a different body is refused. */
  request: unknown;
  run: () => Promise<{ status: number; body: T }>;
}

/** Stable JSON (sorted keys) so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Answers about access (not signed in, not allowed, not yours) are not stored: the scope is named
 * by the URL, so storing them would let someone who cannot reach a business leave an answer under
 * its keys for the business to replay. Like a failure on our side, they free the key.
 */
const ACCESS_STATUSES = new Set([401, 403, 404]);

/** How long an unfinished request keeps its key before a retry may take it over. */
export const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Stripe semantics for money-moving requests: the same key and body get the stored response
 * (never a second effect); the same key with a different body is refused (422); a request
 * whose twin is still running is refused (409, IDEMPOTENCY_KEY_IN_USE). Client errors (4xx)
 * are stored like successes, except answers about access; a failure on our side frees the key
 * so the client can retry.
 */
export async function withIdempotency<T>({ db, scope, key, request, run }: IdempotencyOptions<T>): Promise<IdempotentResult<T>> {
  if (key === undefined) return { ...(await run()), replayed: false };
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw AppError.validation('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
      'Idempotency-Key': 'Use 1 to 255 visible ASCII characters, e.g. a UUID.',
    });
  }
  const hash = createHash('sha256').update(canonical(request)).digest('hex');
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ scope, key, request_hash: hash, state: 'in_progress', response_status: null, response_body: null })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();

  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) {
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!existing) {
      // Freed by a failed twin a moment ago: try once more from the start.
      return withIdempotency({ db, scope, key, request, run });
    }
    if (existing.request_hash !== hash) {
      throw new AppError(
        ErrorCode.UnprocessableEntity,
        'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
      );
    }
    if (existing.state === 'in_progress') {
      // A twin that never finished (its process died) does not hold the key for ever.
      if (Date.now() - existing.created_at.getTime() > ABANDONED_AFTER_MS) {
        await db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('state', '=', 'in_progress').execute();
        return withIdempotency({ db, scope, key, request, run });
      }
      // Its own code, so a client can tell "retry with the same key" from a definitive conflict.
      throw new AppError(ErrorCode.IdempotencyKeyInUse, 'A request with this Idempotency-Key is still being processed. Try again in a moment.');
    }
    return { status: existing.response_status ?? 200, body: existing.response_body as T, replayed: true };
  }

  let outcome: { status: number; body: T };
  try {
    outcome = await run();
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500 && !ACCESS_STATUSES.has(error.statusCode)) {
      const body = {
        status: 'Error',
        errorDetails: error.fields ? { code: error.code, message: error.message, fields: error.fields } : { code: error.code, message: error.message },
      };
      await complete(db, scope, key, error.statusCode, body);
    } else {
      await db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).execute();
    }
    throw error;
  }
  await complete(db, scope, key, outcome.status, outcome.body);
  return { ...outcome, replayed: false };
}

async function complete(db: Kysely<DB>, scope: string, key: string, status: number, body: unknown) {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: status, response_body: JSON.stringify(body) })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
}
