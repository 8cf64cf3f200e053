import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** Messages are kept for this long, then removed by the nightly maintenance job. */
export const OUTBOX_RETENTION_DAYS = 90;

export async function purgeOutbox({ db, now = new Date() }: { db: Kysely<DB>; now?: Date }): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 3600 * 1000);
  const result = await db.deleteFrom('mail_outbox').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
