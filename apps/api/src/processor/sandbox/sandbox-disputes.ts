import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { SandboxProcessorDisputesTable } from '../../db/schema/payments';
import type { Jobs } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { queueWebhook } from './deliver-webhook';
import type { DisputeEvidenceRequest, DisputeEventType, DisputeProcessorEvent, DisputeResult } from '../port';

type DisputeRow = Selectable<SandboxProcessorDisputesTable>;

/** How long the business has to answer a sandbox dispute, as card networks give (about three weeks). */
export const SANDBOX_EVIDENCE_DAYS = 21;

/**
 * Evidence whose text holds this word loses; any other evidence wins (README "Sandbox test cards
 * and bank accounts"), so both endings of a dispute can be tried.
 */
export const LOSING_EVIDENCE = 'losing_evidence';

export interface SandboxDisputeOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  /** Delay before the bank decides on the evidence (SANDBOX_SETTLEMENT_SECONDS). */
  settlementSeconds: number;
}

/** The card `4000 0000 0000 0259` settled: its dispute opens after the settlement delay. */
export async function scheduleSandboxDispute(trx: Transaction<DB>, options: Pick<SandboxDisputeOptions, 'jobs' | 'settlementSeconds'>, chargeId: string) {
  await options.jobs.send('sandbox.open-dispute', { chargeId }, { db: jobDb(trx), singletonKey: `dispute:${chargeId}`, startAfter: options.settlementSeconds });
}

/**
 * The `sandbox.open-dispute` job: the payer's bank disputes what is left of the charge (its amount
 * less the refunds that did not fail) as fraudulent; `dispute.created` is sent. Once per charge.
 */
export async function openSandboxDispute(options: Pick<SandboxDisputeOptions, 'db' | 'jobs'>, { chargeId }: { chargeId: string }): Promise<string> {
  return options.db.transaction().execute(async (trx) => {
    const charge = await trx.selectFrom('sandbox_processor_charges').selectAll().where('id', '=', chargeId).forUpdate().executeTakeFirst();
    if (!charge) return 'not-found';
    if (charge.status !== 'settled' && charge.status !== 'succeeded') return 'not-disputable';
    const existing = await trx.selectFrom('sandbox_processor_disputes').select('id').where('charge_id', '=', chargeId).executeTakeFirst();
    if (existing) return 'already-open';
    const { rows } = await sql<{ total: number }>`
      SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM sandbox_processor_refunds WHERE charge_id = ${chargeId} AND status <> 'failed'`.execute(trx);
    const amount = charge.amount_cents - Number(rows[0]?.total ?? 0);
    if (amount <= 0) return 'refunded';
    const row = await trx
      .insertInto('sandbox_processor_disputes')
      .values({
        id: newId('dp'),
        charge_id: chargeId,
        amount_cents: amount,
        reason: 'fraudulent',
        status: 'needs_response',
        evidence: null,
        due_by: new Date(Date.now() + SANDBOX_EVIDENCE_DAYS * 86_400_000),
        metadata: JSON.stringify(charge.metadata),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitDisputeEvent(trx, options.jobs, row, 'dispute.created');
    // Unanswered by its due date, a dispute is lost.
    await options.jobs.send(
      'sandbox.close-dispute',
      { processorDisputeId: row.id, outcome: 'lost', unanswered: true },
      { db: jobDb(trx), singletonKey: `unanswered:${row.id}`, startAfter: row.due_by },
    );
    return 'opened';
  });
}

/** Evidence puts a dispute under review; the bank decides after the settlement delay. Evidence for a dispute past review changes nothing. */
export async function submitSandboxEvidence(options: SandboxDisputeOptions, request: DisputeEvidenceRequest): Promise<DisputeResult> {
  return options.db.transaction().execute(async (trx) => {
    const row = await lockDispute(trx, request.processorDisputeId);
    if (!row) return { ok: false, failureMessage: 'The processor has no such dispute.' };
    if (row.status !== 'needs_response') return { ok: true, status: row.status };
    if (row.due_by.getTime() < Date.now()) return { ok: false, failureMessage: 'The evidence is past its due date; the dispute is lost.' };
    const updated = await trx
      .updateTable('sandbox_processor_disputes')
      .set({ status: 'under_review', evidence: JSON.stringify({ text: request.text, fileNames: request.fileNames }), updated_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitDisputeEvent(trx, options.jobs, updated, 'dispute.updated');
    const losing = Object.values(request.text).some((text) => text.includes(LOSING_EVIDENCE));
    await options.jobs.send(
      'sandbox.close-dispute',
      { processorDisputeId: row.id, outcome: losing ? 'lost' : 'won' },
      { db: jobDb(trx), singletonKey: `close:${row.id}`, startAfter: options.settlementSeconds },
    );
    return { ok: true, status: 'under_review' };
  });
}

/** Accepting closes the dispute as lost at once. */
export async function acceptSandboxDispute(
  options: Pick<SandboxDisputeOptions, 'db' | 'jobs'>,
  { processorDisputeId }: { processorDisputeId: string },
): Promise<DisputeResult> {
  return options.db.transaction().execute(async (trx) => {
    const row = await lockDispute(trx, processorDisputeId);
    if (!row) return { ok: false, failureMessage: 'The processor has no such dispute.' };
    if (row.status !== 'needs_response') return { ok: true, status: row.status };
    await closeDispute(trx, options.jobs, row, 'lost');
    return { ok: true, status: 'lost' };
  });
}

/** The `sandbox.close-dispute` job: the bank decides a dispute under review, or one left unanswered past its due date. Idempotent. */
export async function closeSandboxDispute(
  options: Pick<SandboxDisputeOptions, 'db' | 'jobs'>,
  { processorDisputeId, outcome, unanswered = false }: { processorDisputeId: string; outcome: 'won' | 'lost'; unanswered?: boolean },
): Promise<string> {
  return options.db.transaction().execute(async (trx) => {
    const row = await lockDispute(trx, processorDisputeId);
    if (!row) return 'not-found';
    const waiting = unanswered ? row.status === 'needs_response' && row.due_by.getTime() <= Date.now() : row.status === 'under_review';
    if (!waiting) return 'already-done';
    await closeDispute(trx, options.jobs, row, outcome);
    return outcome;
  });
}

function lockDispute(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('sandbox_processor_disputes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

async function closeDispute(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, row: DisputeRow, outcome: 'won' | 'lost') {
  const updated = await trx
    .updateTable('sandbox_processor_disputes')
    .set({ status: outcome, updated_at: new Date() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await emitDisputeEvent(trx, jobs, updated, 'dispute.closed');
}

async function emitDisputeEvent(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, row: DisputeRow, type: DisputeEventType) {
  const event: DisputeProcessorEvent = {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      processorDisputeId: row.id,
      chargeId: row.charge_id,
      amountCents: Number(row.amount_cents),
      reason: row.reason,
      status: row.status,
      evidenceDueBy: Math.floor(row.due_by.getTime() / 1000),
      metadata: row.metadata as unknown as DisputeProcessorEvent['data']['metadata'],
    },
  };
  await queueWebhook(trx, jobs, event);
}
