import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';

/** The business's audit actions, oldest first, of the entries whose details name `needle` (an id, a number). */
export async function auditActionsNaming(db: Kysely<DB>, businessId: string, needle: string): Promise<string[]> {
  const rows = await db
    .selectFrom('business_events')
    .select(['action', 'details'])
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.filter((r) => JSON.stringify(r.details).includes(needle)).map((r) => r.action);
}

/** The details of the business's audit entries of one action (`patient.viewed`), in no set order. */
export async function auditDetailsOf<T = Record<string, unknown>>(db: Kysely<DB>, businessId: string, action: string): Promise<T[]> {
  const rows = await db.selectFrom('business_events').select(['details']).where('business_id', '=', businessId).where('action', '=', action).execute();
  return rows.map((r) => r.details as T);
}
