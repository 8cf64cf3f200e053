import type { Kysely, Transaction } from 'kysely';
import { formatMoney, payoutReference } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import type { PaymentProcessor, PayoutProcessorEvent, PayoutResult } from '../../processor/port';
import { recordEvent } from '../businesses/audit';
import { postPayoutProcessed, postPayoutReleased, postPayoutReturned } from '../ledger/post';
import { receiverAccountContext } from '../receivers/account-context';
import { movePayout, PROCESSOR_PAYOUT_ACTOR, receiverBlocksSending, recordPayoutEvent, type PayoutRow } from './payout-record';
import { firstDelivery } from '../../db/processor-events';

export interface SendPayoutDeps {
  db: Kysely<DB>;
  processor: Pick<PaymentProcessor, 'sendPayout'>;
  /** The bank accounts' secret box (`bankAccountNumberBox`), which seals receivers' account numbers too. */
  accountBox: SecretBox;
}

const posting = (row: PayoutRow, what: string) => ({
  businessId: row.business_id,
  paymentId: row.id,
  amountCents: Number(row.amount_cents),
  feeCents: Number(row.fee_cents),
  description: `Payout ${payoutReference(Number(row.number))} to ${row.receiver_name} ${what}: ${formatMoney(Number(row.amount_cents))}`,
});

async function lockPayout(trx: Transaction<DB>, businessId: string, payoutId: string): Promise<PayoutRow | undefined> {
  return trx.selectFrom('payouts').selectAll().where('business_id', '=', businessId).where('id', '=', payoutId).forUpdate().executeTakeFirst();
}

/** Never sent: the reservation goes back to available and the payout is in Error, saying why. */
async function fail(trx: Transaction<DB>, row: PayoutRow, reason: string): Promise<void> {
  await postPayoutReleased(trx, posting(row, 'not sent'));
  await movePayout(
    trx,
    row,
    'Error',
    { failure_reason: reason, finished_at: new Date() },
    { event: 'fail', detail: reason, actor: PROCESSOR_PAYOUT_ACTOR.label },
  );
  await recordEvent(trx, { businessId: row.business_id, actor: PROCESSOR_PAYOUT_ACTOR, action: 'payout.failed', details: { payoutId: row.id, reason } });
}

/**
 * The `payouts.send` job: sends one Approved payout to the processor. The processor's idempotency
 * key is the payout id, so a retry after a crash (between the call and recording its answer) gets
 * the first answer back and pays nothing twice. A payout already sent, or no longer Approved, is
 * left alone. A refusal at once releases the reservation (Error).
 *
 * Before its first call to the processor it checks the receiver again: one disabled (or without a
 * bank account) since the approval is not paid — the payout fails with that reason and the money
 * goes back to available. That check and `send_started_at` are one transaction holding the
 * receiver, so a receiver disabled after it is a payout already on its way; and a retry once
 * `send_started_at` is set asks the processor again instead, since the first call may have paid.
 */
export async function sendApprovedPayout(deps: SendPayoutDeps, { businessId, payoutId }: { businessId: string; payoutId: string }): Promise<string> {
  const { db } = deps;
  const row = await db.selectFrom('payouts').selectAll().where('business_id', '=', businessId).where('id', '=', payoutId).executeTakeFirst();
  if (!row) return 'not-found';
  if (row.state !== 'Approved' || row.processor_payout_id) return 'already-done';
  if (!row.send_started_at) {
    const checked = await db.transaction().execute(async (trx) => {
      const locked = await lockPayout(trx, businessId, payoutId);
      if (!locked || locked.state !== 'Approved' || locked.processor_payout_id) return 'already-done' as const;
      if (locked.send_started_at) return 'send' as const;
      const current = await trx
        .selectFrom('receivers')
        .select(['first_name', 'last_name', 'status', 'verification'])
        .where('business_id', '=', businessId)
        .where('id', '=', locked.receiver_id)
        .forShare()
        .executeTakeFirst();
      const blocked = current ? receiverBlocksSending(current) : null;
      if (blocked) {
        await fail(trx, locked, blocked);
        return 'failed' as const;
      }
      await trx.updateTable('payouts').set({ send_started_at: new Date() }).where('business_id', '=', businessId).where('id', '=', payoutId).execute();
      return 'send' as const;
    });
    if (checked !== 'send') return checked;
  }
  const receiver = await db.selectFrom('receivers').selectAll().where('business_id', '=', businessId).where('id', '=', row.receiver_id).executeTakeFirst();

  let result: PayoutResult;
  let accountNumber: string | null = null;
  if (receiver?.account_number_encrypted && receiver.routing_number) {
    try {
      accountNumber = deps.accountBox.open(receiver.account_number_encrypted, receiverAccountContext(businessId, receiver.id));
    } catch {
      accountNumber = null;
    }
  }
  if (!receiver || !accountNumber || !receiver.routing_number) {
    result = {
      status: 'failed',
      processorPayoutId: null,
      failureCode: 'no_account',
      failureMessage: "The receiver's bank account could not be read. Ask them to enter it again, then copy this payout.",
    };
  } else {
    result = await deps.processor.sendPayout({
      amountCents: Number(row.amount_cents),
      idempotencyKey: row.id,
      destination: {
        routingNumber: receiver.routing_number,
        accountNumber,
        accountHolderName: receiver.account_holder_name ?? `${receiver.first_name} ${receiver.last_name}`,
        accountType: receiver.account_type ?? 'checking',
      },
      metadata: { businessId, payoutId },
    });
  }

  return db.transaction().execute(async (trx) => {
    const locked = await lockPayout(trx, businessId, payoutId);
    if (!locked || locked.state !== 'Approved' || locked.processor_payout_id) return 'already-done';
    if (result.status === 'failed') {
      await fail(trx, locked, result.failureMessage);
      return 'failed';
    }
    await trx
      .updateTable('payouts')
      .set({ processor_payout_id: result.processorPayoutId, updated_at: new Date() })
      .where('business_id', '=', businessId)
      .where('id', '=', payoutId)
      .execute();
    await recordPayoutEvent(trx, {
      businessId,
      payoutId,
      event: 'sent',
      from: null,
      to: null,
      detail: `Sent to ${receiver!.bank_name ?? 'the bank'} •••• ${receiver!.account_number_last4 ?? ''}`.trim(),
      actor: PROCESSOR_PAYOUT_ACTOR.label,
    });
    await recordEvent(trx, {
      businessId,
      actor: PROCESSOR_PAYOUT_ACTOR,
      action: 'payout.sent',
      details: { payoutId, processorPayoutId: result.processorPayoutId },
    });
    return 'sent';
  });
}

export type PayoutEventOutcome = 'applied' | 'duplicate' | 'unchanged' | 'unknown-payout';

/**
 * The processor's `payout.paid` / `payout.returned`, applied once: the event id is recorded in
 * the transaction that applies it (a replay changes nothing), and each outcome acts only from the
 * state it expects (the ledger's unique (payout, kind) refuses a second posting anyway).
 */
export async function applyPayoutEvent(db: Kysely<DB>, event: PayoutProcessorEvent): Promise<PayoutEventOutcome> {
  return db.transaction().execute(async (trx) => {
    if (!(await firstDelivery(trx, event))) return 'duplicate';
    const { businessId, payoutId } = event.data.metadata;
    const row = await lockPayout(trx, businessId, payoutId);
    if (!row) return 'unknown-payout';
    if (row.processor_payout_id && row.processor_payout_id !== event.data.processorPayoutId) return 'unknown-payout';
    const actor = PROCESSOR_PAYOUT_ACTOR.label;
    const amount = Number(row.amount_cents);

    if (event.type === 'payout.paid') {
      if (row.state !== 'Approved') return 'unchanged';
      await postPayoutProcessed(trx, posting(row, 'paid'));
      await movePayout(
        trx,
        row,
        'Processed',
        { processed_at: new Date(), finished_at: new Date(), processor_payout_id: event.data.processorPayoutId },
        { event: 'paid', detail: `${formatMoney(amount)} paid to ${row.receiver_name}.`, actor },
      );
      await trx
        .updateTable('receivers')
        .set((eb) => ({ paid_count: eb('paid_count', '+', 1), paid_cents: eb('paid_cents', '+', amount) }))
        .where('business_id', '=', businessId)
        .where('id', '=', row.receiver_id)
        .execute();
      await recordEvent(trx, { businessId, actor: PROCESSOR_PAYOUT_ACTOR, action: 'payout.processed', details: { payoutId, amountCents: amount } });
      return 'applied';
    }

    if (row.state !== 'Approved' && row.state !== 'Processed') return 'unchanged';
    const processed = row.state === 'Processed';
    const why = event.data.failureMessage ?? 'The receiving bank returned the payout.';
    await postPayoutReturned(trx, { ...posting(row, 'returned'), processed });
    await movePayout(
      trx,
      row,
      'Error',
      { failure_reason: why, finished_at: new Date(), processor_payout_id: event.data.processorPayoutId },
      {
        event: 'returned',
        detail: `Returned by the receiver's bank: ${why} ${formatMoney(amount + Number(row.fee_cents))} is back in the available balance.`,
        actor,
      },
    );
    if (processed) {
      await trx
        .updateTable('receivers')
        .set((eb) => ({ paid_count: eb('paid_count', '-', 1), paid_cents: eb('paid_cents', '-', amount) }))
        .where('business_id', '=', businessId)
        .where('id', '=', row.receiver_id)
        .execute();
    }
    await recordEvent(trx, {
      businessId,
      actor: PROCESSOR_PAYOUT_ACTOR,
      action: 'payout.returned',
      details: { payoutId, reason: why, code: event.data.failureCode ?? null },
    });
    return 'applied';
  });
}
