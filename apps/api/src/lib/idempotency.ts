import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AMOUNT_CONFIRMATION_REQUIRED, ErrorCode } from '@tay/contract';
import type { DB } from '../db/schema';
import { AppError } from './app-error';

export interface IdempotentResult<T> {
  status: number;
  body: T;
  /** True when this answers for an earlier request with the same key (its stored answer, or what it did). */
  replayed: boolean;
}

export interface Answer<T> {
  status: number;
  body: T;
}

/** What a run can do with the key it holds. */
export interface Progress {
  /**
   * Records how far the run got (e.g. the payment it created) inside the transaction that took
   * that step, so the step and its record commit together or not at all. Refused with 409
   * (IDEMPOTENCY_KEY_IN_USE) once a retry has taken the key over, which rolls the step back.
   */
  record(trx: Kysely<DB>, point: string): Promise<void>;
}

export interface IdempotencyOptions<T> {
  db: Kysely<DB>;
  /** Who the key belongs to (a business, or a payer link): keys never collide across scopes. */
  scope: string;
  /** The `Idempotency-Key` header; without one the work simply runs. */
  key: string | undefined;
  /** What the request asked for: the same key with a different body is refused. */
  request: unknown;
  run: (progress: Progress) => Promise<Answer<T>>;
  /**
   * Answers for a run that recorded progress and never answered (its process died, or it could
   * not learn how its work ended), from the point it recorded. With `takenOver` the key's lease
   * had run out and this retry now holds the key: it finishes the work and answers. Without it the
   * first run may still be going: answer only if the outcome is already settled, otherwise null.
   */
  resume?: (point: string, lease: { takenOver: boolean }) => Promise<Answer<T> | null>;
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

/**
 * A large amount sent without its confirmation did nothing; the confirmed retry is the same
 * intent with the amount repeated, so the key is freed for it rather than holding the refusal.
 */
const ASKS_AGAIN = new Set<string>([AMOUNT_CONFIRMATION_REQUIRED]);

/**
 * How long a key in progress outlives the last sign of life of the request running it. The
 * request renews the lease every third of it while it runs, however long its processor call
 * takes; a process that dies stops renewing, and within one lease a retry may take the key over.
 */
export const LEASE_SECONDS = 30;
const RENEW_EVERY_MS = (LEASE_SECONDS * 1000) / 3;

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const IN_USE_MESSAGE = 'A request with this Idempotency-Key is still being processed. Try again in a moment.';

const leaseEnd = () => sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`;

/** A key this request holds: `leaseId` fences every write, so a run that lost its key changes nothing. */
interface Held {
  db: Kysely<DB>;
  scope: string;
  key: string;
  leaseId: string;
}

const UNKEYED: Progress = { record: async () => {} };

/**
 * Stripe semantics for money-moving requests: the same key and body get the stored response
 * (never a second effect); the same key with a different body is refused (422); a request
 * whose twin is still running is refused (409, IDEMPOTENCY_KEY_IN_USE). Client errors (4xx)
 * are stored like successes, except answers about access; a failure on our side frees the key
 * so the client can retry — unless the run recorded progress, which the retry then resumes.
 *
 * A key in progress whose lease ran out belonged to a process that died (or stalled for longer
 * than a lease; the lease id keeps its late writes out). A retry takes it over:
 * with no progress recorded nothing happened, and the request runs as if for the first time;
 * with progress recorded, `resume` finishes that work and answers with what happened, so a crash
 * between moving money and storing the answer never leads to a second attempt at the money.
 */
export async function withIdempotency<T>(options: IdempotencyOptions<T>): Promise<IdempotentResult<T>> {
  const { db, scope, key, request, run } = options;
  if (key === undefined) return { ...(await run(UNKEYED)), replayed: false };
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw AppError.validation('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
      'Idempotency-Key': 'Use 1 to 255 visible ASCII characters, e.g. a UUID.',
    });
  }
  const hash = createHash('sha256').update(canonical(request)).digest('hex');
  const held: Held = { db, scope, key, leaseId: randomUUID() };
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({
      scope,
      key,
      request_hash: hash,
      state: 'in_progress',
      response_status: null,
      response_body: null,
      lease_id: held.leaseId,
      lease_expires_at: leaseEnd(),
      recovery_point: null,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) > 0) return { ...(await hold(held, () => run(progressOf(held)))), replayed: false };

  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .select(sql<boolean>`lease_expires_at <= now()`.as('lease_over'))
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!existing) {
    // Freed by a failed twin a moment ago: try once more from the start.
    return withIdempotency(options);
  }
  if (existing.request_hash !== hash) {
    throw new AppError(ErrorCode.UnprocessableEntity, 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
  }
  if (existing.state === 'completed') return { status: existing.response_status ?? 200, body: existing.response_body as T, replayed: true };

  if (!existing.lease_over) {
    // The first run may still be going: only what is already settled can be answered for it.
    const settled = existing.recovery_point !== null && options.resume ? await options.resume(existing.recovery_point, { takenOver: false }) : null;
    if (settled) return { ...settled, replayed: true };
    // Its own code, so a client can tell "retry with the same key" from a definitive conflict.
    throw new AppError(ErrorCode.IdempotencyKeyInUse, IN_USE_MESSAGE);
  }

  // Nobody renewed the lease: the run holding the key is gone. Take the key over; the progress it
  // recorded is read in the same statement, so a step committed a moment ago is not missed.
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ lease_id: held.leaseId, lease_expires_at: leaseEnd() })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .where('lease_id', '=', existing.lease_id)
    .where(sql<boolean>`lease_expires_at <= now()`)
    .returning('recovery_point')
    .executeTakeFirst();
  if (!taken) {
    // Another retry took it first, or the run finished after all: answer as the key now stands.
    return withIdempotency(options);
  }
  const point = taken.recovery_point;
  if (point === null) return { ...(await hold(held, () => run(progressOf(held)))), replayed: false };
  const { resume } = options;
  if (!resume) throw new Error(`Idempotency-Key ${key} of ${scope} recorded progress that nothing resumes`);
  const finished = await hold(held, async () => {
    const answer = await resume(point, { takenOver: true });
    if (!answer) throw new Error(`Resuming ${point} under Idempotency-Key ${key} of ${scope} gave no answer`);
    return answer;
  });
  return { ...finished, replayed: true };
}

function progressOf(held: Held): Progress {
  return {
    async record(trx, point) {
      const updated = await trx
        .updateTable('idempotency_keys')
        .set({ recovery_point: point, lease_expires_at: leaseEnd() })
        .where('scope', '=', held.scope)
        .where('key', '=', held.key)
        .where('lease_id', '=', held.leaseId)
        .where('state', '=', 'in_progress')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new AppError(ErrorCode.IdempotencyKeyInUse, IN_USE_MESSAGE);
    },
  };
}

/** Runs `work` while holding the key: renews the lease meanwhile, then stores the answer or lets the key go. */
async function hold<T>(held: Held, work: () => Promise<Answer<T>>): Promise<Answer<T>> {
  // A renewal that fails only lets the lease run out sooner; the lease id keeps a takeover safe.
  const renewal = setInterval(() => void renew(held).catch(() => {}), RENEW_EVERY_MS);
  renewal.unref();
  let outcome: Answer<T>;
  try {
    outcome = await work();
  } catch (error) {
    clearInterval(renewal);
    if (error instanceof AppError && error.statusCode < 500 && !ACCESS_STATUSES.has(error.statusCode) && !ASKS_AGAIN.has(error.code)) {
      const body = {
        status: 'Error',
        errorDetails: error.fields ? { code: error.code, message: error.message, fields: error.fields } : { code: error.code, message: error.message },
      };
      await complete(held, error.statusCode, body);
    } else {
      await letGo(held);
    }
    throw error;
  }
  clearInterval(renewal);
  await complete(held, outcome.status, outcome.body);
  return outcome;
}

function ours(held: Held) {
  return held.db
    .updateTable('idempotency_keys')
    .where('scope', '=', held.scope)
    .where('key', '=', held.key)
    .where('lease_id', '=', held.leaseId)
    .where('state', '=', 'in_progress');
}

async function renew(held: Held) {
  await ours(held).set({ lease_expires_at: leaseEnd() }).execute();
}

async function complete(held: Held, status: number, body: unknown) {
  await ours(held)
    .set({ state: 'completed', response_status: status, response_body: JSON.stringify(body) })
    .execute();
}

/**
 * After a failure on our side: a key with no progress is freed (nothing happened that a retry must
 * finish); a key with progress keeps it, and its lease ends now, so the next retry resumes at once.
 */
async function letGo(held: Held) {
  await held.db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', held.scope)
    .where('key', '=', held.key)
    .where('lease_id', '=', held.leaseId)
    .where('state', '=', 'in_progress')
    .where('recovery_point', 'is', null)
    .execute();
  await ours(held)
    .set({ lease_expires_at: sql<Date>`now()` })
    .execute();
}

/**
 * The one key space of a business's send and resend commands, for requests and invoices alike:
 * the stored request names the command and the record, so a key reused on another record or
 * another command is refused (422) instead of sending a second time.
 */
export const sendCommandScope = (businessId: string) => `business:${businessId}:send-command`;
