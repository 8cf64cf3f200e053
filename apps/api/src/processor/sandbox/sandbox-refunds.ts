import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { SandboxProcessorRefundsTable } from '../../db/schema/payments';
import type { Jobs } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { queueWebhook } from './deliver-webhook';
import type { RefundEventType, RefundProcessorEvent, RefundRequest, RefundResult } from '../port';

type RefundRow = Selectable<SandboxProcessorRefundsTable>;

export const REFUND_FAILURES = {
  account_closed: 'The payer’s bank account is closed, so the refund could not be delivered (R02).',
  amount_too_large: 'The refund is more than what is left of the charge.',
  charge_not_refundable: 'The charge has not been captured, or was returned, so it cannot be refunded.',
  no_such_charge: 'The processor has no such charge.',
  charge_returned: 'The payer’s bank returned the payment before the refund went out, so the refund was cancelled: the return already gave the money back.',
} as const;

export interface SandboxRefundOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  /** Delay before a bank refund succeeds or fails (SANDBOX_SETTLEMENT_SECONDS). */
  settlementSeconds: number;
}

function firstResult(row: RefundRow): RefundResult {
  if (row.status === 'failed') {
    const code = (row.failure_code ?? 'account_closed') as keyof typeof REFUND_FAILURES;
    return { status: 'failed', processorRefundId: row.id, failureCode: code, failureMessage: REFUND_FAILURES[code] ?? REFUND_FAILURES.account_closed };
  }
  return { status: row.status, processorRefundId: row.id };
}

/**
 * The sandbox's refund of a charge: one per idempotency key (our refund id), never more in all than
 * the charge (refunds that did not fail are counted under the charge's lock). A card's refund
 * succeeds at once; a bank account's is pending until, after the settlement delay, it succeeds —
 * or fails for the test account `000333333335`, whose account was closed.
 */
export async function refundSandboxCharge(options: SandboxRefundOptions, request: RefundRequest): Promise<RefundResult> {
  return options.db.transaction().execute(async (trx) => {
    const charge = await trx.selectFrom('sandbox_processor_charges').selectAll().where('id', '=', request.chargeId).forUpdate().executeTakeFirst();
    const existing = await trx.selectFrom('sandbox_processor_refunds').selectAll().where('idempotency_key', '=', request.idempotencyKey).executeTakeFirst();
    if (existing) return firstResult(existing);
    if (!charge) return { status: 'failed', processorRefundId: null, failureCode: 'no_such_charge', failureMessage: REFUND_FAILURES.no_such_charge };
    if (charge.status !== 'succeeded' && charge.status !== 'settled') {
      return { status: 'failed', processorRefundId: null, failureCode: 'charge_not_refundable', failureMessage: REFUND_FAILURES.charge_not_refundable };
    }
    const { rows } = await sql<{ total: number }>`
      SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM sandbox_processor_refunds WHERE charge_id = ${charge.id} AND status <> 'failed'`.execute(trx);
    if (Number(rows[0]?.total ?? 0) + request.amountCents > charge.amount_cents) {
      return { status: 'failed', processorRefundId: null, failureCode: 'amount_too_large', failureMessage: REFUND_FAILURES.amount_too_large };
    }
    const token = await trx.selectFrom('sandbox_processor_tokens').select(['kind', 'behaviour']).where('id', '=', charge.token_id).executeTakeFirstOrThrow();
    const card = token.kind === 'card';
    const inserted = await trx
      .insertInto('sandbox_processor_refunds')
      .values({
        id: newId('re'),
        charge_id: charge.id,
        amount_cents: request.amountCents,
        idempotency_key: request.idempotencyKey,
        status: card ? 'succeeded' : 'pending',
        failure_code: null,
        metadata: JSON.stringify(request.metadata),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (card) await emitRefundEvent(trx, options.jobs, inserted, 'refund.succeeded');
    else
      await options.jobs.send(
        'sandbox.advance-refund',
        { processorRefundId: inserted.id, to: token.behaviour === 'refund_fails' ? 'failed' : 'succeeded' },
        { db: jobDb(trx), startAfter: options.settlementSeconds },
      );
    return firstResult(inserted);
  });
}

/**
 * The `sandbox.advance-refund` job: a pending bank refund succeeds or fails, and the webhook saying
 * so is queued. A refund of a debit the payer's bank returned meanwhile is cancelled (it fails):
 * the return already took the whole amount back, so sending the refund too would pay it twice.
 * Idempotent.
 */
export async function advanceSandboxRefund(
  options: Pick<SandboxRefundOptions, 'db' | 'jobs'>,
  { processorRefundId, to }: { processorRefundId: string; to: 'succeeded' | 'failed' },
): Promise<string> {
  return options.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('sandbox_processor_refunds').selectAll().where('id', '=', processorRefundId).forUpdate().executeTakeFirst();
    if (!row) return 'not-found';
    if (row.status !== 'pending') return 'already-done';
    // The charge's lock, as every refund of it takes: a return and this refund never cross.
    const charge = await trx.selectFrom('sandbox_processor_charges').select('status').where('id', '=', row.charge_id).forUpdate().executeTakeFirstOrThrow();
    const returned = charge.status === 'returned';
    const outcome = returned ? 'failed' : to;
    const updated = await trx
      .updateTable('sandbox_processor_refunds')
      .set({ status: outcome, failure_code: returned ? 'charge_returned' : outcome === 'failed' ? 'account_closed' : null, updated_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitRefundEvent(trx, options.jobs, updated, outcome === 'failed' ? 'refund.failed' : 'refund.succeeded');
    return updated.status;
  });
}

async function emitRefundEvent(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, row: RefundRow, type: RefundEventType) {
  const result = firstResult(row);
  const event: RefundProcessorEvent = {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      processorRefundId: row.id,
      amountCents: row.amount_cents,
      metadata: row.metadata as unknown as RefundProcessorEvent['data']['metadata'],
      ...(result.status === 'failed' ? { failureCode: result.failureCode, failureMessage: result.failureMessage } : {}),
    },
  };
  await queueWebhook(trx, jobs, event);
}
