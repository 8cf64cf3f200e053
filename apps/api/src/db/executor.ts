import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema';

/** Either the database or an open transaction: use cases accept both. */
export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * pg-boss's `db` option over a Kysely executor, so a job is enqueued inside the caller's
 * transaction: it exists exactly when the transaction commits. On the embedded database this
 * is also what keeps a transaction from waiting on a second connection (ADR 002).
 */
export function jobDb(executor: Executor) {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}
