import type { Kysely } from 'kysely';
import {
  csvRow,
  SYNC_OUTCOME_LABELS,
  SYNC_RECORD_TYPE_LABELS,
  type IntegrationProvider,
  type SyncDirection,
  type SyncLogEntry,
  type SyncOutcome,
  type SyncRecordType,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { newId } from '../../lib/ids';
import { plainPage } from '../../db/plain-list';

export interface LogEntryInput {
  direction: SyncDirection;
  recordType?: SyncRecordType | null;
  recordId?: string | null;
  recordLabel: string;
  remoteId?: string | null;
  outcome: SyncOutcome;
  message?: string | null;
}

/** Appends to the sync log. Messages are the provider's words or ours, never a token. */
export async function writeLog(db: Kysely<DB>, businessId: string, provider: IntegrationProvider, entry: LogEntryInput): Promise<void> {
  await db
    .insertInto('integration_log')
    .values({
      business_id: businessId,
      provider,
      id: newId('ilog'),
      direction: entry.direction,
      record_type: entry.recordType ?? null,
      record_id: entry.recordId ?? null,
      record_label: entry.recordLabel.slice(0, 300),
      remote_id: entry.remoteId ?? null,
      outcome: entry.outcome,
      message: entry.message ? entry.message.slice(0, 2000) : null,
    })
    .execute();
}

export interface LogQuery {
  page: number;
  pageSize: number;
  recordType?: SyncRecordType | undefined;
  outcome?: SyncOutcome | undefined;
}

function filtered(db: Kysely<DB>, businessId: string, provider: IntegrationProvider, query: Omit<LogQuery, 'page' | 'pageSize'>) {
  let q = db.selectFrom('integration_log').where('business_id', '=', businessId).where('provider', '=', provider);
  if (query.recordType) q = q.where('record_type', '=', query.recordType);
  if (query.outcome) q = q.where('outcome', '=', query.outcome);
  return q;
}

type Row = {
  id: string;
  created_at: Date;
  direction: SyncDirection;
  record_type: SyncRecordType | null;
  record_id: string | null;
  record_label: string;
  remote_id: string | null;
  outcome: SyncOutcome;
  message: string | null;
};
const COLUMNS = ['id', 'created_at', 'direction', 'record_type', 'record_id', 'record_label', 'remote_id', 'outcome', 'message'] as const;

const toEntry = (r: Row): SyncLogEntry => ({
  id: r.id,
  at: r.created_at.toISOString(),
  direction: r.direction,
  recordType: r.record_type,
  recordId: r.record_id,
  recordLabel: r.record_label,
  remoteId: r.remote_id,
  outcome: r.outcome,
  message: r.message,
});

/** One page of the log, newest first: ids are time-ordered (`apps/api/src/lib/ids.ts`), and the primary key serves the order. */
export async function listLog(db: Kysely<DB>, businessId: string, provider: IntegrationProvider, query: LogQuery) {
  return plainPage(query, filtered(db, businessId, provider, query).select(COLUMNS).orderBy('id', 'desc'), filtered(db, businessId, provider, query), (rows) =>
    rows.map(toEntry),
  );
}

/** The newest entry about one record (what a retry or a link just wrote), if any. */
export async function latestEntryFor(
  db: Kysely<DB>,
  businessId: string,
  provider: IntegrationProvider,
  recordType: SyncRecordType,
  recordId: string,
): Promise<SyncLogEntry | undefined> {
  const row = await filtered(db, businessId, provider, { recordType })
    .where('record_id', '=', recordId)
    .select(COLUMNS)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toEntry(row) : undefined;
}

export const LOG_CSV_HEADER = ['When (UTC)', 'Direction', 'Record type', 'Record', 'Our id', 'Provider id', 'Outcome', 'Message'];

/** Every matching entry as CSV, a thousand rows at a time (keyset on the id). */
export async function* logCsv(
  db: Kysely<DB>,
  businessId: string,
  provider: IntegrationProvider,
  query: Omit<LogQuery, 'page' | 'pageSize'>,
): AsyncGenerator<string> {
  yield csvRow(LOG_CSV_HEADER) + '\r\n';
  let after: string | null = null;
  for (;;) {
    let q = filtered(db, businessId, provider, query).select(COLUMNS);
    if (after) q = q.where('id', '<', after);
    const rows = await q.orderBy('id', 'desc').limit(1000).execute();
    if (rows.length === 0) return;
    yield rows
      .map(
        (r) =>
          csvRow([
            r.created_at.toISOString(),
            r.direction === 'push' ? 'Push' : 'Connection',
            r.record_type ? SYNC_RECORD_TYPE_LABELS[r.record_type] : '',
            r.record_label,
            r.record_id,
            r.remote_id,
            SYNC_OUTCOME_LABELS[r.outcome],
            r.message,
          ]) + '\r\n',
      )
      .join('');
    const last = rows[rows.length - 1]!;
    after = last.id;
  }
}
