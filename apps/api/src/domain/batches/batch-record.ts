import { sql, type Selectable } from 'kysely';
import { ErrorCode, type Batch, type BatchKind } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type BusinessAction } from '../businesses/audit';
import type { BatchKindDefinition } from './batch-kind';
import { hidesBirthDates, maskedSample } from './batch-privacy';
import { requestBatches } from './request-rows';
import { payoutBatches } from './payout-rows';
import { studentBillingBatches } from './student-billing-rows';
import { studentBatches } from './student-rows';
import { patientBatches } from './patient-rows';
import { patientBillingBatches } from './patient-billing-rows';

export type BatchRecord = Selectable<DB['batches']>;

/** Every kind the engine runs, by name. */
export const BATCH_KIND_DEFINITIONS: Record<BatchKind, BatchKindDefinition> = {
  requests: requestBatches,
  payouts: payoutBatches,
  students: studentBatches,
  'student-billing': studentBillingBatches,
  patients: patientBatches,
  'patient-billing': patientBillingBatches,
};

export function toBatch(row: BatchRecord, duplicateOf: string | null): Batch {
  const running = row.phase === 'validating' || row.phase === 'sending';
  return {
    batchId: row.id,
    kind: row.kind,
    fileName: row.file_name,
    fileBytes: row.file_bytes,
    uploadedBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    state: row.state,
    phase: row.phase,
    columns: row.columns,
    // A submitted patient import shows the date of birth masked (ADR 037), here as in its rows.
    sample: hidesBirthDates(row) ? maskedSample(row.columns, row.mapping, row.sample) : row.sample,
    mapping: row.mapping,
    duplicateOf,
    counts: { rows: row.row_count, valid: row.valid_count, invalid: row.invalid_count, sent: row.sent_count, failed: row.failed_count },
    totalCents: Number(row.total_cents),
    sentCents: Number(row.sent_cents),
    // Only a kind sent in groups says how many (patient billing: statements).
    ...(BATCH_KIND_DEFINITIONS[row.kind].groups ? { groups: { valid: row.group_count, sent: row.sent_group_count } } : {}),
    progress: { done: running || row.phase === 'done' ? row.progress_done : 0, total: running || row.phase === 'done' ? row.progress_total : 0 },
    sendAt: row.send_at?.toISOString() ?? null,
    submittedAt: row.submitted_at?.toISOString() ?? null,
    submittedBy: row.submitted_by,
    processedAt: row.processed_at?.toISOString() ?? null,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The earliest other batch of the business with the same file content. */
export async function duplicateOf(db: Executor, row: Pick<BatchRecord, 'business_id' | 'id' | 'file_sha256' | 'created_at'>): Promise<string | null> {
  const earlier = await db
    .selectFrom('batches')
    .select('id')
    .where('business_id', '=', row.business_id)
    .where('file_sha256', '=', row.file_sha256)
    .where('id', '!=', row.id)
    .where('created_at', '<=', row.created_at)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return earlier?.id ?? null;
}

export async function selectBatch(db: Executor, businessId: string, batchId: string): Promise<BatchRecord> {
  const row = await db.selectFrom('batches').selectAll().where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirst();
  if (!row) throw AppError.notFound('Batch');
  return row;
}

/** The batch, locked until the transaction ends; 404 when it is not this business's. */
export async function lockBatch(db: Executor, businessId: string, batchId: string): Promise<BatchRecord> {
  const row = await db.selectFrom('batches').selectAll().where('business_id', '=', businessId).where('id', '=', batchId).forUpdate().executeTakeFirst();
  if (!row) throw AppError.notFound('Batch');
  return row;
}

export async function batchOf(db: Executor, businessId: string, batchId: string): Promise<Batch> {
  const row = await selectBatch(db, businessId, batchId);
  return toBatch(row, await duplicateOf(db, row));
}

/** Refuses a change to a batch that is no longer in review. */
export function assertDraft(row: BatchRecord, what: string): void {
  if (row.state !== 'Draft') {
    throw new AppError(ErrorCode.Conflict, `This batch was ${row.state === 'Submitted' ? 'submitted' : row.state.toLowerCase()} already, so ${what}.`);
  }
}

/**
 * Counts every row by outcome and stores the figures on the batch (after a change of many rows).
 * Only a kind sent in groups (patient billing, ADR 037) counts its groups: the distinct counts are
 * not free on a large batch, so every other kind skips them and keeps 0 (migration 0041).
 */
export async function recount(db: Executor, businessId: string, batchId: string): Promise<void> {
  const batch = await db.selectFrom('batches').select('kind').where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirst();
  if (!batch) return;
  const groups = BATCH_KIND_DEFINITIONS[batch.kind].groups
    ? sql`count(DISTINCT plan ->> 'group') FILTER (WHERE status = 'valid')::int AS groups,
             count(DISTINCT request_id) FILTER (WHERE status = 'sent')::int AS sent_groups`
    : sql`0 AS groups, 0 AS sent_groups`;
  await sql`
    UPDATE batches b SET
      row_count = c.rows, valid_count = c.valid, invalid_count = c.invalid, sent_count = c.sent, failed_count = c.failed,
      total_cents = c.total, sent_cents = c.sent_total, group_count = c.groups, sent_group_count = c.sent_groups, updated_at = now()
    FROM (
      SELECT count(*)::int AS rows,
             count(*) FILTER (WHERE status = 'valid')::int AS valid,
             count(*) FILTER (WHERE status = 'invalid')::int AS invalid,
             count(*) FILTER (WHERE status = 'sent')::int AS sent,
             count(*) FILTER (WHERE status = 'failed')::int AS failed,
             coalesce(sum(amount_cents) FILTER (WHERE status IN ('valid', 'sent')), 0) AS total,
             coalesce(sum(amount_cents) FILTER (WHERE status = 'sent'), 0) AS sent_total,
             ${groups}
      FROM batch_rows WHERE business_id = ${businessId} AND batch_id = ${batchId}
    ) c
    WHERE b.business_id = ${businessId} AND b.id = ${batchId}`.execute(db);
}

/** The person acting on a batch, as the audit trail records them. */
export interface BatchActor {
  userId: string;
  email: string;
  ip?: string | undefined;
}

/** One entry of the business's audit trail about a batch, in the transaction that made the change. */
export function recordBatchEvent(
  db: Executor,
  businessId: string,
  user: BatchActor,
  action: BusinessAction & `batch.${string}`,
  details: Record<string, unknown>,
) {
  return recordEvent(db, { businessId, actor: { userId: user.userId, label: user.email, ip: user.ip ?? null }, action, details });
}
