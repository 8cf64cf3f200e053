import type { Kysely, Selectable, Transaction } from 'kysely';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { SandboxProcessorPayoutsTable } from '../../db/schema/payouts';
import type { Jobs } from '../../jobs/queue';
import { newId } from '../../lib/ids';
import { queueWebhook } from './deliver-webhook';
import type { PayoutEventType, PayoutProcessorEvent, PayoutRequest, PayoutResult } from '../port';

type PayoutRow = Selectable<SandboxProcessorPayoutsTable>;

/** The sandbox's test account that the receiving bank returns (ADR 035). */
export const SANDBOX_RETURNED_ACCOUNT = '000111111113';
export const RETURN_CODE = 'R03';
export const RETURN_MESSAGE = 'No account / unable to locate account (R03).';

export interface SandboxPayoutOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
  /** Delay before the credit is paid or returned (SANDBOX_SETTLEMENT_SECONDS). */
  settlementSeconds: number;
}

/**
 * The sandbox's credit to a bank account: one per idempotency key (our payout id), stored with the
 * last 4 digits only; it answers `pending` and, after the settlement delay, pays or returns it.
 */
export async function sendSandboxPayout(options: SandboxPayoutOptions, request: PayoutRequest): Promise<PayoutResult> {
  const { destination } = request;
  if (!/^[0-9]{9}$/.test(destination.routingNumber) || !/^[0-9]{4,17}$/.test(destination.accountNumber)) {
    return { status: 'failed', processorPayoutId: null, failureCode: 'invalid_account', failureMessage: 'The bank account details are not valid.' };
  }
  return options.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('sandbox_processor_payouts')
      .values({
        id: newId('po'),
        amount_cents: request.amountCents,
        routing_number: destination.routingNumber,
        account_last4: destination.accountNumber.slice(-4),
        behaviour: destination.accountNumber === SANDBOX_RETURNED_ACCOUNT ? 'returned' : 'paid',
        idempotency_key: request.idempotencyKey,
        status: 'pending',
        failure_code: null,
        metadata: JSON.stringify(request.metadata),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) {
      // Sent before with this key: the same answer, nothing sent twice.
      const first = await trx
        .selectFrom('sandbox_processor_payouts')
        .select('id')
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { status: 'pending' as const, processorPayoutId: first.id };
    }
    await options.jobs.send('sandbox.advance-payout', { processorPayoutId: inserted.id }, { db: jobDb(trx), startAfter: options.settlementSeconds });
    return { status: 'pending' as const, processorPayoutId: inserted.id };
  });
}

/**
 * The `sandbox.advance-payout` job: a pending credit is paid, or returned for the return test
 * account, and the webhook saying so is queued. Idempotent: a credit no longer pending is left alone.
 */
export async function advanceSandboxPayout(
  options: Pick<SandboxPayoutOptions, 'db' | 'jobs'>,
  { processorPayoutId }: { processorPayoutId: string },
): Promise<string> {
  return options.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('sandbox_processor_payouts').selectAll().where('id', '=', processorPayoutId).forUpdate().executeTakeFirst();
    if (!row) return 'not-found';
    if (row.status !== 'pending') return 'already-done';
    const returned = row.behaviour === 'returned';
    const updated = await trx
      .updateTable('sandbox_processor_payouts')
      .set({ status: returned ? 'returned' : 'paid', failure_code: returned ? RETURN_CODE : null, updated_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitPayoutEvent(trx, options.jobs, updated, returned ? 'payout.returned' : 'payout.paid');
    return updated.status;
  });
}

async function emitPayoutEvent(trx: Transaction<DB>, jobs: Pick<Jobs, 'send'>, row: PayoutRow, type: PayoutEventType) {
  const event: PayoutProcessorEvent = {
    id: newId('evt'),
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      processorPayoutId: row.id,
      amountCents: row.amount_cents,
      metadata: row.metadata as PayoutProcessorEvent['data']['metadata'],
      ...(type === 'payout.returned' ? { failureCode: RETURN_CODE, failureMessage: RETURN_MESSAGE } : {}),
    },
  };
  await queueWebhook(trx, jobs, event);
}
