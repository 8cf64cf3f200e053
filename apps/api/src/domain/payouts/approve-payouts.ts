import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode, formatMoney, INSUFFICIENT_BALANCE, payoutReference, shortfallMessage } from '@tay/contract';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import { requireMoneyRule } from '../businesses/money-rules';
import { ensureAccounts, postPayoutReserved } from '../ledger/post';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { reviewReceivers } from '../receivers/receiver-record';
import { auditActor, movePayout, receiverBlocksApproval, type PayoutRow } from './payout-record';

/** What approving needs besides the database: the job queue (sending) and the fee per payout. */
export interface PayoutDeps {
  jobs: Pick<Jobs, 'send'>;
  /** FEE_PAYOUT_CENTS. */
  payoutFeeCents: number;
}

/** Runs `work` in `db` when it is a transaction already, in a new one otherwise. */
export function inTransaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

/**
 * Locks the business's available-balance account row: every approval of the business queues here,
 * so the balance read under it is the balance the reservation is taken from (ADR 035). Returns
 * that balance (a credit balance: the negated sum of its entries).
 */
export async function lockAvailable(trx: Transaction<DB>, businessId: string): Promise<number> {
  const accounts = await ensureAccounts(trx, businessId);
  await trx.selectFrom('ledger_accounts').select('id').where('id', '=', accounts.business_available).forUpdate().execute();
  const { rows } = await sql<{ total: string | number | null }>`
    SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM journal_entries WHERE account_id = ${accounts.business_available}`.execute(trx);
  return -Number(rows[0]?.total ?? 0) || 0;
}

/**
 * Approves Submitted payouts all or none (a single payout, or a bulk batch): under the lock of the
 * available balance, refuses (409 INSUFFICIENT_BALANCE, naming the shortfall) when amount + fee of
 * them all exceed it; otherwise reserves each (`payout_reserved`), marks it Approved with its fee,
 * and queues its sending — all in one transaction. `db` may be the caller's transaction (the bulk
 * engine's). A payout that needs a second person — submitted while the business required one
 * (`second_approver_required`, kept whatever the setting says later), or `selfApproval: 'refuse'`
 * (the business requires one now) — is refused (403) to whoever submitted or created it. A payout
 * whose receiver was disabled (or has no bank account) since it was submitted is refused (409),
 * naming the receiver; the receivers are held (FOR SHARE) until the approval commits. `what` says
 * what the approver may reject instead: the payout, or its batch. Only an owner or admin approves
 * (`MONEY_RULES.approvePayout`, their role read in this transaction); approving a payout to a
 * receiver a member or a check-in added reviews that receiver (the approver saw it flagged).
 */
export async function approvePayouts(
  db: Kysely<DB>,
  deps: PayoutDeps,
  business: Pick<ScopedBusiness, 'id' | 'timeZone'>,
  payoutIds: readonly string[],
  actor: ActingUser,
  options: { selfApproval?: 'refuse' | 'allow'; detail?: string; what?: 'payout' | 'batch' } = {},
): Promise<PayoutRow[]> {
  if (payoutIds.length === 0) return [];
  const what = options.what ?? 'payout';
  return inTransaction(db, async (trx) => {
    // The role first, then the balance: every approval and submit takes the locks in this order.
    await requireMoneyRule(trx, business.id, actor.userId, 'approvePayout');
    const available = await lockAvailable(trx, business.id);
    const rows = await trx
      .selectFrom('payouts')
      .selectAll()
      .where('business_id', '=', business.id)
      .where('id', 'in', [...new Set(payoutIds)])
      .orderBy('id')
      .forUpdate()
      .execute();
    if (rows.length !== new Set(payoutIds).size) throw AppError.notFound('Payout');
    for (const row of rows) {
      if (row.state !== 'Submitted') {
        throw new AppError(
          ErrorCode.Conflict,
          `${payoutReference(Number(row.number))} is ${row.state}, so it cannot be approved; only a Submitted payout can.`,
        );
      }
      if (options.selfApproval !== 'refuse' && !row.second_approver_required) continue;
      if (row.submitted_by && row.submitted_by.toLowerCase() === actor.email.toLowerCase()) {
        throw new AppError(
          ErrorCode.Forbidden,
          `You submitted ${payoutReference(Number(row.number))}, so another owner or admin must approve it: this business requires a second person to approve payouts.`,
        );
      }
      if (row.created_by && row.created_by === actor.userId) {
        throw new AppError(
          ErrorCode.Forbidden,
          what === 'batch'
            ? `You created ${payoutReference(Number(row.number))} in this batch; another person must approve it.`
            : 'You created this payout; another person must approve it.',
        );
      }
    }
    const receivers = await trx
      .selectFrom('receivers')
      .select(['id', 'first_name', 'last_name', 'status', 'verification', 'reviewed_at'])
      .where('business_id', '=', business.id)
      .where('id', 'in', [...new Set(rows.map((r) => r.receiver_id))])
      .orderBy('id')
      .forShare()
      .execute();
    const receiverById = new Map(receivers.map((r) => [r.id, r]));
    for (const row of rows) {
      const blocked = receiverBlocksApproval(receiverById.get(row.receiver_id), what);
      if (blocked) throw new AppError(ErrorCode.Conflict, blocked);
    }
    const fee = deps.payoutFeeCents;
    const needed = rows.reduce((sum, r) => sum + Number(r.amount_cents) + fee, 0);
    // Below zero after refunds the business allowed (ADR 051): nothing goes out until it recovers.
    if (available < 0) {
      throw new AppError(
        INSUFFICIENT_BALANCE,
        `The available balance is ${formatMoney(available)} after refunds, so no payout can be approved until payments bring it back above $0.00.`,
        undefined,
        409,
      );
    }
    if (needed > available) throw new AppError(INSUFFICIENT_BALANCE, shortfallMessage(needed, Math.max(0, available)), undefined, 409);

    await reviewReceivers(
      trx,
      business.id,
      receivers.filter((r) => r.reviewed_at === null).map((r) => r.id),
      actor,
      'payout_approved',
    );

    const today = todayIn(business.timeZone);
    const approved: PayoutRow[] = [];
    for (const row of rows) {
      const amount = Number(row.amount_cents);
      await postPayoutReserved(trx, {
        businessId: business.id,
        paymentId: row.id,
        amountCents: amount,
        feeCents: fee,
        description: `Payout ${payoutReference(Number(row.number))} to ${row.receiver_name} approved: ${formatMoney(amount)} + ${formatMoney(fee)} fee`,
      });
      const updated = await movePayout(
        trx,
        row,
        'Approved',
        { fee_cents: fee, approved_by: actor.email, approved_at: new Date() },
        {
          event: 'approve',
          detail: options.detail ?? `${formatMoney(amount + fee)} reserved from the available balance (fee ${formatMoney(fee)}).`,
          actor: actor.email,
        },
      );
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(actor),
        action: 'payout.approved',
        details: { payoutId: row.id, amountCents: amount, feeCents: fee, ...(row.batch_id ? { batchId: row.batch_id } : {}) },
      });
      const later = row.pay_on && row.pay_on > today ? row.pay_on : null;
      const startAfter = later ? await midnightIn(trx, later, business.timeZone) : undefined;
      await deps.jobs.send(
        'payouts.send',
        { businessId: business.id, payoutId: row.id },
        { db: jobDb(trx), singletonKey: `payout:${row.id}`, ...(startAfter ? { startAfter } : {}) },
      );
      approved.push(updated);
    }
    return approved;
  });
}

/** The instant a day starts in a time zone. */
async function midnightIn(trx: Transaction<DB>, day: string, timeZone: string): Promise<Date> {
  const { rows } = await sql<{ at: Date }>`SELECT (${day}::date::timestamp AT TIME ZONE ${timeZone}) AS at`.execute(trx);
  return new Date(rows[0]!.at);
}
