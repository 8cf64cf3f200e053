import { sql, type Kysely } from 'kysely';
import { ErrorCode, type Batch, type BatchMapping, type BatchRow, type FieldErrors } from '@tay/contract';
import { copyRows } from '../../db/copy-in';
import type { Executor } from '../../db/executor';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { decodeCsvBytes, isBlankLine, isBlankRecord, readCsvRecords, type CsvDelimiter } from '../../lib/csv';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { RowFields, RowOutcome } from './batch-kind';
import {
  assertDraft,
  BATCH_KIND_DEFINITIONS,
  batchOf,
  duplicateOf,
  lockBatch,
  recordBatchEvent,
  recount,
  toBatch,
  type BatchActor,
  type BatchRecord,
} from './batch-record';
import { rowOf } from './batch-rows';

/** Rows checked and stored per transaction: the progress moves and a restart resumes in these steps. */
export const CHECK_CHUNK = 500;

/** The business as the jobs need it (no session): its name, clock and defaults. */
export async function businessForJob(db: Executor, businessId: string): Promise<ScopedBusiness | null> {
  const b = await db
    .selectFrom('businesses')
    .select(['id', 'business_name', 'state', 'time_zone', 'default_expiry_days', 'payout_enabled', 'entity_type'])
    .where('id', '=', businessId)
    .executeTakeFirst();
  if (!b) return null;
  return {
    id: b.id,
    name: b.business_name,
    state: b.state,
    timeZone: b.time_zone,
    defaultExpiryDays: b.default_expiry_days,
    payoutEnabled: Boolean(b.payout_enabled),
    entityType: b.entity_type,
    role: 'owner',
  };
}

/**
 * PATCH /api/businesses/:id/batches/:batchId: sets the mapping of a Draft batch and queues the
 * check of every row (`batches.check`). The rows of an earlier mapping go; a check still running
 * for it stops at its next step (the mapping's version moved on).
 */
export async function mapBatch({
  db,
  jobs,
  business,
  batchId,
  mapping,
  actor,
}: {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  business: ScopedBusiness;
  batchId: string;
  mapping: BatchMapping;
  actor: BatchActor;
}): Promise<Batch> {
  return db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, business.id, batchId);
    assertDraft(batch, 'its mapping cannot change');
    const def = BATCH_KIND_DEFINITIONS[batch.kind];
    const columns = Object.fromEntries(Object.entries(mapping.columns).filter(([, column]) => column !== ''));
    const errors = def.checkMapping({ ...mapping, columns }, batch.columns);
    if (Object.keys(errors).length > 0) throw AppError.validation(Object.values(errors)[0]!, errors);
    await trx.deleteFrom('batch_rows').where('business_id', '=', business.id).where('batch_id', '=', batchId).execute();
    const row = await trx
      .updateTable('batches')
      .set((eb) => ({
        mapping: JSON.stringify({ payer: mapping.payer, columns }) as never,
        mapping_version: eb('mapping_version', '+', 1),
        phase: 'validating',
        progress_done: 0,
        progress_total: batch.file_rows,
        heartbeat_at: new Date(),
        valid_count: 0,
        invalid_count: 0,
        total_cents: 0,
        updated_at: new Date(),
      }))
      .where('business_id', '=', business.id)
      .where('id', '=', batchId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await jobs.send('batches.check', { businessId: business.id, batchId, version: row.mapping_version }, { db: jobDb(trx) });
    await recordBatchEvent(trx, business.id, actor, 'batch.mapped', { batchId, fileName: batch.file_name, payer: mapping.payer, columns });
    return toBatch(row, await duplicateOf(trx, row));
  });
}

/** The row's fields from the file's cells, by the mapping; a row longer than the header says so. */
function fieldsOf(mapping: BatchMapping, index: Record<string, number>, cells: string[]): RowFields {
  const fields: RowFields = {};
  for (const key of Object.keys(mapping.columns)) {
    const i = index[key];
    if (i !== undefined && i >= 0) fields[key] = (cells[i] ?? '').trim();
  }
  return fields;
}

interface StoredRow {
  line: number;
  status: 'valid' | 'invalid';
  fields: RowFields;
  errors: FieldErrors;
  plan: unknown;
  amount_cents: number | null;
  payer_name: string | null;
  dedupe_key: string | null;
}

function stored(line: number, fields: RowFields, outcome: RowOutcome, extra: FieldErrors): StoredRow {
  if (outcome.status === 'valid' && Object.keys(extra).length === 0) {
    return {
      line,
      status: 'valid',
      fields,
      errors: {},
      plan: outcome.plan,
      amount_cents: outcome.amountCents,
      payer_name: outcome.payerName,
      dedupe_key: outcome.dedupeKey,
    };
  }
  const errors = { ...(outcome.status === 'invalid' ? outcome.errors : {}), ...extra };
  return { line, status: 'invalid', fields, errors, plan: null, amount_cents: outcome.amountCents, payer_name: outcome.payerName, dedupe_key: null };
}

const ROW_COLUMNS = ['business_id', 'batch_id', 'line', 'status', 'fields', 'errors', 'plan', 'amount_cents', 'payer_name', 'dedupe_key'] as const;

/**
 * Writes a chunk of checked rows with `COPY … FROM STDIN` (PostgreSQL), in the caller's
 * transaction. A run that finds rows of an earlier run (one that died, or a replaced mapping)
 * removes them with its first chunk, in one statement: the file is read again from its first line,
 * so every row is written again. Not a delete per chunk: a new batch's rows have no statistics
 * yet, and a delete by line planned as a scan of them would make the whole check quadratic.
 */
async function copyStoredRows(db: Executor, businessId: string, batchId: string, rows: StoredRow[], { clearFirst }: { clearFirst: boolean }): Promise<void> {
  if (clearFirst) await db.deleteFrom('batch_rows').where('business_id', '=', businessId).where('batch_id', '=', batchId).execute();
  if (rows.length === 0) return;
  await copyRows(
    db,
    'batch_rows',
    ROW_COLUMNS,
    rows.map((r) => [
      businessId,
      batchId,
      r.line,
      r.status,
      JSON.stringify(r.fields),
      JSON.stringify(r.errors),
      r.plan === null ? null : JSON.stringify(r.plan),
      r.amount_cents,
      r.payer_name,
      r.dedupe_key,
    ]),
  );
}

/** Writes rows in one statement (their JSON is one parameter), replacing what a resumed run wrote before. */
async function storeRows(db: Executor, businessId: string, batchId: string, rows: StoredRow[]): Promise<void> {
  await sql`
    INSERT INTO batch_rows (business_id, batch_id, line, status, fields, errors, plan, amount_cents, payer_name, dedupe_key)
    SELECT ${businessId}, ${batchId}, x.line, x.status, x.fields, x.errors, x.plan, x.amount_cents, x.payer_name, x.dedupe_key
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(line int, status text, fields jsonb, errors jsonb, plan jsonb, amount_cents bigint, payer_name text, dedupe_key text)
    ON CONFLICT (business_id, batch_id, line) DO UPDATE SET
      status = excluded.status, fields = excluded.fields, errors = excluded.errors, plan = excluded.plan,
      amount_cents = excluded.amount_cents, payer_name = excluded.payer_name, dedupe_key = excluded.dedupe_key`.execute(db);
}

/**
 * Flags each valid row that repeats an earlier one (same payer, amount and reference) as invalid,
 * naming the first; rows flagged before are looked at afresh, so fixing or dropping one of a pair
 * frees the other. Then a kind that sends rows in groups reviews its groups (`groups.reviewGroups`).
 */
export async function markRepeats(db: Executor, businessId: string, batchId: string): Promise<void> {
  const { kind } = await db.selectFrom('batches').select('kind').where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirstOrThrow();
  const words = BATCH_KIND_DEFINITIONS[kind].repeat;
  await sql`
    UPDATE batch_rows SET status = 'valid', errors = '{}'
    WHERE business_id = ${businessId} AND batch_id = ${batchId} AND status = 'invalid' AND dedupe_key IS NOT NULL`.execute(db);
  // The repeats are worked out once, as one JSON object (line → first line), so the update has no
  // join to plan: without statistics on a new batch's rows a join could be planned quadratic.
  await sql`
    WITH d AS MATERIALIZED (
      SELECT coalesce(jsonb_object_agg(line::text, first_line), '{}'::jsonb) AS firsts
      FROM (
        SELECT line, first_value(line) OVER (PARTITION BY dedupe_key ORDER BY line) AS first_line
        FROM batch_rows WHERE business_id = ${businessId} AND batch_id = ${batchId} AND status = 'valid'
      ) x
      WHERE first_line <> line
    )
    UPDATE batch_rows r SET status = 'invalid',
      errors = jsonb_build_object('row', ${`${words.same} as line `}::text || ((SELECT firsts FROM d) ->> r.line::text) || ${` of the file. ${words.fix}`}::text)
    WHERE r.business_id = ${businessId} AND r.batch_id = ${batchId} AND r.status = 'valid' AND (SELECT firsts FROM d) ? r.line::text`.execute(db);
  // A kind that sends rows in groups flags the groups that cannot be sent whole (a row it flags
  // keeps its dedupe key, so the first statement above frees it again next time).
  await BATCH_KIND_DEFINITIONS[kind].groups?.reviewGroups(db, businessId, batchId);
}

class Superseded extends Error {}

/**
 * The `batches.check` job: reads the stored file again, streaming, and checks its rows a chunk
 * at a time, each chunk stored with the progress in one transaction. A run whose mapping was
 * replaced (or whose batch was discarded) stops without a trace; a run that died is run again
 * by the queue and rewrites the same rows.
 */
export async function checkBatch(
  db: Kysely<DB>,
  { businessId, batchId, version }: { businessId: string; batchId: string; version: number },
  { copy = false }: { copy?: boolean } = {},
): Promise<void> {
  const batch = await db.selectFrom('batches').selectAll().where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirst();
  if (!batch || batch.phase !== 'validating' || batch.mapping_version !== version) return;
  const business = await businessForJob(db, businessId);
  const file = await db.selectFrom('batch_files').select('content').where('business_id', '=', businessId).where('batch_id', '=', batchId).executeTakeFirst();
  if (!business || !file) return;
  const def = BATCH_KIND_DEFINITIONS[batch.kind];
  const { text } = decodeCsvBytes(file.content);
  const mapping = batch.mapping;
  const index = Object.fromEntries(Object.entries(mapping.columns).map(([key, column]) => [key, batch.columns.indexOf(column)]));

  // Each step: the rows and the progress together, only while this run's mapping is current.
  const step = async (work: (trx: Executor) => Promise<void>, done: number) => {
    await db.transaction().execute(async (trx) => {
      const current = await trx
        .updateTable('batches')
        .set({ progress_done: done, heartbeat_at: new Date() })
        .where('business_id', '=', businessId)
        .where('id', '=', batchId)
        .where('phase', '=', 'validating')
        .where('mapping_version', '=', version)
        .returning('id')
        .executeTakeFirst();
      if (!current) throw new Superseded();
      await work(trx);
    });
  };

  // Rows an earlier run of this batch wrote (COPY only; the JSON insert replaces them row by row).
  let earlierRows =
    copy &&
    (await db.selectFrom('batch_rows').select('line').where('business_id', '=', businessId).where('batch_id', '=', batchId).limit(1).executeTakeFirst()) !==
      undefined;
  let header = true;
  let done = 0;
  let chunk: { line: number; fields: RowFields; extra: FieldErrors }[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const rows = chunk;
    chunk = [];
    const outcomes = await def.checkRows(db, business, mapping, rows);
    done += rows.length;
    const checked = rows.map((r, i) => stored(r.line, r.fields, outcomes[i]!, r.extra));
    // On PostgreSQL the rows go by COPY; the embedded database's server takes no COPY data.
    await step(
      (trx) => (copy ? copyStoredRows(trx, businessId, batchId, checked, { clearFirst: earlierRows }) : storeRows(trx, businessId, batchId, checked)),
      done,
    );
    earlierRows = false;
  };
  try {
    for await (const record of readCsvRecords(text, batch.delimiter as CsvDelimiter)) {
      // As the upload read it: the first record is the header; blank rows after it are skipped.
      if (header) {
        if (!isBlankLine(record)) header = false;
        continue;
      }
      if (isBlankRecord(record)) continue;
      const extra: FieldErrors = {};
      if (record.cells.slice(batch.columns.length).some((c) => c.trim() !== '')) {
        extra.row = `This row has ${record.cells.length} values but the header has ${batch.columns.length} columns. A value with a comma must be in double quotes.`;
      }
      chunk.push({ line: record.line, fields: fieldsOf(mapping, index, record.cells), extra });
      if (chunk.length >= CHECK_CHUNK) await flush();
    }
    await flush();
    await step(async (trx) => {
      // A file with no rows at all still leaves nothing of an earlier run behind.
      if (earlierRows) await copyStoredRows(trx, businessId, batchId, [], { clearFirst: true });
      await markRepeats(trx, businessId, batchId);
      await recount(trx, businessId, batchId);
      await trx
        .updateTable('batches')
        .set({ phase: 'validated', heartbeat_at: null })
        .where('business_id', '=', businessId)
        .where('id', '=', batchId)
        .execute();
    }, done);
  } catch (error) {
    if (error instanceof Superseded) return;
    throw error;
  }
}

/** Loads a Draft batch whose rows are checked, locked, for a change of its rows. */
async function reviewable(trx: Executor, businessId: string, batchId: string, what: string): Promise<BatchRecord> {
  const batch = await lockBatch(trx, businessId, batchId);
  assertDraft(batch, what);
  if (batch.phase !== 'validated') throw new AppError(ErrorCode.Conflict, 'The rows of this batch are still being checked. Wait for the check to finish.');
  return batch;
}

/** PATCH …/rows/:row: the row's values as corrected, checked again at once (with the repeats of the file). */
export async function fixRow({
  db,
  business,
  batchId,
  line,
  fields,
  actor,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  batchId: string;
  line: number;
  fields: Record<string, string>;
  actor: BatchActor;
}): Promise<{ row: BatchRow; batch: Batch }> {
  return db.transaction().execute(async (trx) => {
    const batch = await reviewable(trx, business.id, batchId, 'its rows cannot change');
    const def = BATCH_KIND_DEFINITIONS[batch.kind];
    const current = await trx
      .selectFrom('batch_rows')
      .selectAll()
      .where('business_id', '=', business.id)
      .where('batch_id', '=', batchId)
      .where('line', '=', line)
      .executeTakeFirst();
    if (!current) throw AppError.notFound('Row');
    const unknown = Object.keys(fields).filter((key) => !def.fields.some((f) => f.key === key));
    if (unknown.length > 0) {
      throw AppError.validation(
        `There is no field ${unknown.map((k) => `"${k}"`).join(', ')} in this batch.`,
        Object.fromEntries(unknown.map((k) => [k, 'Unknown field.'])),
      );
    }
    const merged: RowFields = { ...current.fields };
    for (const [key, value] of Object.entries(fields)) merged[key] = value.trim();
    // The fields by name only: a row may hold a patient's details, which the audit trail never copies.
    const changed = Object.keys(fields).filter((key) => (current.fields[key] ?? '') !== merged[key]);
    await recordBatchEvent(trx, business.id, actor, 'batch.row_fixed', { batchId, fileName: batch.file_name, line, fields: changed });
    const [outcome] = await def.checkRows(trx, business, batch.mapping, [{ line, fields: merged }]);
    await storeRows(trx, business.id, batchId, [stored(line, merged, outcome!, {})]);
    await markRepeats(trx, business.id, batchId);
    await recount(trx, business.id, batchId);
    const row = await trx
      .selectFrom('batch_rows')
      .selectAll()
      .where('business_id', '=', business.id)
      .where('batch_id', '=', batchId)
      .where('line', '=', line)
      .executeTakeFirstOrThrow();
    return { row: rowOf(row, null), batch: await batchOf(trx, business.id, batchId) };
  });
}

/** DELETE …/rows/:row: the row is left out of the batch. */
export async function dropRow({
  db,
  business,
  batchId,
  line,
  actor,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  batchId: string;
  line: number;
  actor: BatchActor;
}): Promise<Batch> {
  return db.transaction().execute(async (trx) => {
    const batch = await reviewable(trx, business.id, batchId, 'its rows cannot change');
    const dropped = await trx
      .deleteFrom('batch_rows')
      .where('business_id', '=', business.id)
      .where('batch_id', '=', batchId)
      .where('line', '=', line)
      .executeTakeFirst();
    if (Number(dropped.numDeletedRows) === 0) throw AppError.notFound('Row');
    await recordBatchEvent(trx, business.id, actor, 'batch.row_dropped', { batchId, fileName: batch.file_name, line });
    await markRepeats(trx, business.id, batchId);
    await recount(trx, business.id, batchId);
    return batchOf(trx, business.id, batchId);
  });
}

/**
 * POST …/batches/:batchId/rows/drop: several rows of a Draft dropped together, named by line or
 * every row with errors, in one transaction (all or none; a line that is not in the batch is 404
 * and nothing is dropped).
 */
export async function dropRows({
  db,
  business,
  batchId,
  which,
  actor,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  batchId: string;
  which: { lines: number[] } | 'invalid';
  actor: BatchActor;
}): Promise<Batch> {
  return db.transaction().execute(async (trx) => {
    const batch = await reviewable(trx, business.id, batchId, 'its rows cannot change');
    let query = trx.deleteFrom('batch_rows').where('business_id', '=', business.id).where('batch_id', '=', batchId);
    query = which === 'invalid' ? query.where('status', '=', 'invalid') : query.where('line', 'in', [...new Set(which.lines)]);
    const dropped = Number((await query.executeTakeFirst()).numDeletedRows);
    if (which !== 'invalid' && dropped !== new Set(which.lines).size) throw AppError.notFound('Row');
    if (dropped === 0) throw new AppError(ErrorCode.Conflict, 'No row of this batch has errors: there is nothing to drop.');
    await recordBatchEvent(trx, business.id, actor, 'batch.rows_dropped', {
      batchId,
      fileName: batch.file_name,
      count: dropped,
      which: which === 'invalid' ? 'invalid' : 'lines',
      ...(which === 'invalid' ? {} : { lines: [...new Set(which.lines)].sort((a, b) => a - b) }),
    });
    await markRepeats(trx, business.id, batchId);
    await recount(trx, business.id, batchId);
    return batchOf(trx, business.id, batchId);
  });
}

/** DELETE /api/businesses/:id/batches/:batchId: a Draft goes, with its file and rows; nothing was sent. */
export async function discardBatch({
  db,
  business,
  batchId,
  actor,
}: {
  db: Kysely<DB>;
  business: ScopedBusiness;
  batchId: string;
  actor: BatchActor;
}): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, business.id, batchId);
    assertDraft(batch, 'it cannot be discarded');
    await trx.deleteFrom('batch_files').where('business_id', '=', business.id).where('batch_id', '=', batchId).execute();
    await trx.deleteFrom('batches').where('business_id', '=', business.id).where('id', '=', batchId).execute();
    await recordBatchEvent(trx, business.id, actor, 'batch.discarded', { batchId, fileName: batch.file_name, rows: batch.row_count });
  });
}
