import { sql, type Kysely } from 'kysely';
import type { LiveChange, LiveChangeKind } from '@tay/contract';
import type { DB } from '../../db/schema';

export interface BusinessChange extends LiveChange {
  businessId: string;
}

export interface ChangesRead {
  /** The snapshot this read saw (`pg_snapshot` text); the next read passes it as `since`. */
  snapshot: string;
  /** Notices committed since `since`, oldest first; none when `since` is null (a first read). */
  changes: BusinessChange[];
}

/**
 * The change notices of the given businesses that the snapshot `since` could not see: written by
 * a transaction that was still running or not yet begun when it was taken. Transaction ids, not
 * the notices' own ascending ids, decide: on PostgreSQL a transaction may take a lower id and
 * commit after a higher one was read, and a cursor on ids would skip it. One statement, so the
 * snapshot returned is the one the rows were read under.
 */
export async function readChanges(db: Kysely<DB>, businessIds: readonly string[], since: string | null): Promise<ChangesRead> {
  const { rows } = await sql<{ snapshot: string; business_id: string | null; kind: LiveChangeKind | null; entity_id: string | null }>`
    SELECT s.snapshot::text AS snapshot, c.business_id, c.kind, c.entity_id
    FROM (SELECT pg_current_snapshot() AS snapshot) s
    LEFT JOIN business_changes c
      ON ${since}::pg_snapshot IS NOT NULL
     AND c.business_id = ANY(${businessIds as string[]}::text[])
     AND c.xid >= pg_snapshot_xmin(${since}::pg_snapshot)
     AND NOT pg_visible_in_snapshot(c.xid, ${since}::pg_snapshot)
    ORDER BY c.id`.execute(db);
  const snapshot = rows[0]?.snapshot;
  if (snapshot === undefined) throw new Error('The database returned no snapshot');
  return {
    snapshot,
    changes: rows.flatMap((r) => (r.business_id && r.kind ? [{ businessId: r.business_id, kind: r.kind, id: r.entity_id }] : [])),
  };
}
