import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { ErrorCode, payoutActions, payoutReference, type Payout, type PayoutDetail, type PayoutState } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { PayoutsTable, ReceiversTable } from '../../db/schema/payouts';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { Actor } from '../businesses/audit';
import type { ActingUser } from '../payment-requests/request-context';

export type PayoutRow = Selectable<PayoutsTable>;
export type ReceiverRow = Selectable<ReceiversTable>;

/** Who moved a payout on: a member, or the processor (its webhooks) and the sending job. */
export const PROCESSOR_PAYOUT_ACTOR: Actor = { userId: null, label: 'processor' };

export const auditActor = (user: ActingUser): Actor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A payout row, with whether its receiver is reviewed when the query read it (`receiverReviewedColumn`). */
export type PayoutRowRead = PayoutRow & { receiver_reviewed?: boolean | null };

/** The select that reads whether each payout's receiver is reviewed, for lists (the approval queue flags those that are not). */
export const receiverReviewedColumn =
  sql<boolean>`(SELECT r.reviewed_at IS NOT NULL FROM receivers r WHERE r.business_id = payouts.business_id AND r.id = payouts.receiver_id)`.as(
    'receiver_reviewed',
  );

export function toPayout(row: PayoutRowRead): Payout {
  return {
    payoutId: row.id,
    number: Number(row.number),
    reference: payoutReference(Number(row.number)),
    receiverId: row.receiver_id,
    receiverName: row.receiver_name,
    receiverEmail: row.receiver_email,
    // Not read (a payout just approved or rejected, whose receiver its approval reviewed): reviewed.
    receiverReviewed: row.receiver_reviewed ?? true,
    amountCents: Number(row.amount_cents),
    feeCents: Number(row.fee_cents),
    memo: row.memo,
    payOn: row.pay_on,
    state: row.state,
    batchId: row.batch_id,
    eventId: row.event_id,
    rejectReason: row.reject_reason,
    failureReason: row.failure_reason,
    submittedBy: row.submitted_by,
    submittedAt: iso(row.submitted_at),
    createdByUserId: row.created_by,
    secondApproverRequired: row.second_approver_required,
    approvedBy: row.approved_by,
    approvedAt: iso(row.approved_at),
    processedAt: iso(row.processed_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: payoutActions(row.state),
  };
}

export async function selectPayout(db: Executor, businessId: string, payoutId: string, options: { lock?: boolean } = {}): Promise<PayoutRow> {
  let q = db.selectFrom('payouts').selectAll().where('business_id', '=', businessId).where('id', '=', payoutId);
  if (options.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw AppError.notFound('Payout');
  return row;
}

export async function toPayoutDetail(db: Executor, row: PayoutRow): Promise<PayoutDetail> {
  const [receiver, events] = await Promise.all([
    db
      .selectFrom('receivers')
      .select(['first_name', 'last_name', 'email', 'bank_name', 'account_number_last4', 'verification', 'status', 'reviewed_at'])
      .where('business_id', '=', row.business_id)
      .where('id', '=', row.receiver_id)
      .executeTakeFirst(),
    db
      .selectFrom('payout_events')
      .selectAll()
      .where('business_id', '=', row.business_id)
      .where('payout_id', '=', row.id)
      .orderBy('created_at')
      .orderBy(sql`id`)
      .execute(),
  ]);
  return {
    ...toPayout({ ...row, receiver_reviewed: receiver ? receiver.reviewed_at !== null : true }),
    receiver: {
      name: receiver ? `${receiver.first_name} ${receiver.last_name}` : row.receiver_name,
      email: receiver?.email ?? row.receiver_email,
      bankName: receiver?.bank_name ?? null,
      accountMasked: receiver?.account_number_last4 ? `•••• ${receiver.account_number_last4}` : null,
      verified: receiver?.verification === 'verified',
      active: receiver?.status === 'active',
    },
    timeline: events.map((e) => ({
      event: e.event,
      fromState: e.from_state,
      toState: e.to_state,
      detail: e.detail,
      actor: e.actor,
      at: e.created_at.toISOString(),
    })),
  };
}

/** One line of a payout's timeline. */
export async function recordPayoutEvent(
  db: Executor,
  e: { businessId: string; payoutId: string; event: string; from: PayoutState | null; to: PayoutState | null; detail: string | null; actor: string | null },
): Promise<void> {
  await db
    .insertInto('payout_events')
    .values({
      business_id: e.businessId,
      id: newId('pev'),
      payout_id: e.payoutId,
      event: e.event,
      from_state: e.from,
      to_state: e.to,
      detail: e.detail,
      actor: e.actor,
    })
    .execute();
}

/** Moves a payout from the state it was read in; anything else means it moved meanwhile (409). */
export async function movePayout(
  db: Executor,
  row: PayoutRow,
  to: PayoutState,
  set: Partial<Record<keyof PayoutsTable, unknown>>,
  timeline: { event: string; detail: string | null; actor: string | null },
): Promise<PayoutRow> {
  const updated = await db
    .updateTable('payouts')
    .set({ ...(set as object), state: to, updated_at: sql<Date>`now()` })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .where('state', '=', row.state)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new AppError(ErrorCode.Conflict, `${payoutReference(Number(row.number))} changed meanwhile. Reload it and try again.`);
  await recordPayoutEvent(db, {
    businessId: row.business_id,
    payoutId: row.id,
    event: timeline.event,
    from: row.state,
    to,
    detail: timeline.detail,
    actor: timeline.actor,
  });
  return updated;
}

/** A business's first payout is PAY-1000. */
export const FIRST_PAYOUT_NUMBER = 1000;

/**
 * Takes the business's next `count` PAY- numbers and returns the first. The counter row stays
 * locked until the caller's transaction commits, so the numbers are gap-free within a commit and
 * count this business's payouts only (as the requests' TRX- numbers do).
 */
export async function takePayoutNumbers(db: Executor, businessId: string, count: number): Promise<number> {
  const { rows } = await sql<{ value: string | number }>`
    INSERT INTO business_counters (business_id, name, value) VALUES (${businessId}, 'payout', ${FIRST_PAYOUT_NUMBER - 1 + count})
    ON CONFLICT (business_id, name) DO UPDATE SET value = business_counters.value + ${count}
    RETURNING value`.execute(db);
  return Number(rows[0]!.value) - count + 1;
}

/**
 * Why a waiting payout to this receiver cannot be approved now (409), or null: the receiver was
 * disabled, or has no bank account, after it was submitted. `what` is what the approver would
 * reject instead: the payout, or its whole batch.
 */
export function receiverBlocksApproval(
  r: Pick<ReceiverRow, 'first_name' | 'last_name' | 'status' | 'verification'> | undefined,
  what: 'payout' | 'batch',
): string | null {
  if (!r) return `The receiver of this ${what} no longer exists; reject this ${what}.`;
  const name = `${r.first_name} ${r.last_name}`;
  if (r.status !== 'active') return `${name} is disabled; enable them first, or reject this ${what}.`;
  if (r.verification !== 'verified')
    return `${name} has not entered their bank account yet, so they cannot be paid. Send them the link again from Manage Receivers, or reject this ${what}.`;
  return null;
}

/** Why the sending job will not send an approved payout to this receiver (it fails instead), or null. */
export function receiverBlocksSending(r: Pick<ReceiverRow, 'first_name' | 'last_name' | 'status' | 'verification'>): string | null {
  const name = `${r.first_name} ${r.last_name}`;
  if (r.status !== 'active') return `${name} was disabled after this payout was approved, so it was not sent. Enable them, then copy this payout to pay them.`;
  if (r.verification !== 'verified') return `${name} has no bank account on file, so this payout was not sent. Send them the link again from Manage Receivers.`;
  return null;
}

/** Why a receiver cannot be paid now, or null (the bulk engine's words: `unpayableReason`). */
export function receiverProblem(r: Pick<ReceiverRow, 'first_name' | 'last_name' | 'status' | 'verification'> | undefined): string | null {
  if (!r) return 'Choose a receiver of this business.';
  const name = `${r.first_name} ${r.last_name}`;
  if (r.status !== 'active') return `${name} is disabled; enable them first.`;
  if (r.verification !== 'verified')
    return `${name} has not entered their bank account yet, so they cannot be paid. Send them the link again from Manage Receivers.`;
  return null;
}
