import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * Change notices are read within seconds of being written; an hour keeps them well past any
 * read that could still need them (one that waited out a long transaction) and the table small.
 */
export const CHANGE_RETENTION_MINUTES = 60;

/** The `maintenance.purge-changes` job: drops notices older than the retention. */
export async function purgeChanges({ db }: { db: Kysely<DB> }): Promise<number> {
  const result = await sql`DELETE FROM business_changes WHERE created_at < clock_timestamp() - make_interval(mins => ${CHANGE_RETENTION_MINUTES})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
