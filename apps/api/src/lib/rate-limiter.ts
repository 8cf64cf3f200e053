import { sql } from 'kysely';
import type { Executor } from '../db/executor';

export interface RateRule {
  /** Requests allowed per window. */
  max: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends (when refused: until the next attempt may succeed). */
  retryAfterSeconds: number;
}

/**
 * Counts one attempt against `key` in a fixed window held in the database, so the limit holds
 * across restarts and processes. The upsert is one atomic statement: concurrent attempts
 * never both slip under the limit.
 */
export async function consumeRateLimit(db: Executor, key: string, rule: RateRule): Promise<RateDecision> {
  const { rows } = await sql<{ count: number; retry_after: number }>`
    INSERT INTO rate_limits (key, count, window_ends_at)
    VALUES (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_ends_at <= now() THEN 1 ELSE rate_limits.count + 1 END,
      window_ends_at = CASE WHEN rate_limits.window_ends_at <= now() THEN EXCLUDED.window_ends_at
                            ELSE rate_limits.window_ends_at END
    RETURNING count, ceil(extract(epoch FROM window_ends_at - now()))::int AS retry_after`.execute(db);
  const row = rows[0]!;
  return { allowed: row.count <= rule.max, count: row.count, retryAfterSeconds: Math.max(1, row.retry_after) };
}

/** Forgets the counter (e.g. failed sign-ins after a successful one). */
export async function resetRateLimit(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Takes back one attempt counted against `key`, so that the counter counts failures only. */
export async function releaseRateLimit(db: Executor, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`greatest(count - 1, 0)` })
    .where('key', '=', key)
    .execute();
}

/**
 * Deletes the counters whose window has ended (the hourly job `maintenance.purge-rate-limits`),
 * the request budgets' with them: an ended window counts from 1 again on its next use, so the
 * row only takes space. Every address, source and session that was ever seen leaves one, so
 * without this the tables only grow.
 */
export async function purgeExpiredRateLimits(db: Executor): Promise<number> {
  const now = new Date();
  const limits = await db.deleteFrom('rate_limits').where('window_ends_at', '<', now).executeTakeFirst();
  const budgets = await db.deleteFrom('request_budgets').where('window_ends_at', '<', now).executeTakeFirst();
  return Number(limits.numDeletedRows) + Number(budgets.numDeletedRows);
}

/** "Try again in 1 minute" / "Try again in 7 minutes": when a refused attempt may come back. */
export function tryAgainIn(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}
