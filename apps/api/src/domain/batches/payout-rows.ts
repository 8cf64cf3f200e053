import { amountCellProblem, parseDateCell, PAYOUT_BATCH_FIELDS, RECEIVER_REVIEW_ERROR_KEY, type BatchMapping, type FieldErrors } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { newId } from '../../lib/ids';
import type { ScopedBusiness } from '../businesses/business-scope';
import { todayIn } from '../payment-requests/request-record';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import { amountLimitsOf } from '../businesses/amount-limits';
import { mayNow } from '../businesses/money-rules';
import type { RequestContext } from '../payment-requests/request-context';
import { approvePayouts } from '../payouts/approve-payouts';
import { takePayoutNumbers } from '../payouts/payout-record';
import {
  mappingCheck,
  type BatchKindDefinition,
  type BatchRunDeps,
  type RowFields,
  type RowOutcome,
  type RowToSend,
  type SendContext,
  type SendOutcome,
} from './batch-kind';

/** What a valid payout row will do when the batch is submitted: a Submitted payout to this receiver. */
export interface PayoutPlan {
  receiverId: string;
  receiverName: string;
  receiverEmail: string;
  amountCents: number;
  memo: string;
  /** 'YYYY-MM-DD' or null (as soon as it is approved). */
  payOn: string | null;
}

const DATE_FORMS = 'as 2026-12-31, 12/31/2026 or Dec 31, 2026';
const YIELD_EVERY = 100;

interface ReceiverMatch {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  reference: string | null;
  status: string;
  verification: string;
  added_via: 'team' | 'check_in';
  reviewed_at: Date | null;
}

const nameOf = (r: Pick<ReceiverMatch, 'first_name' | 'last_name'>) => `${r.first_name} ${r.last_name}`;

async function receiversOf(db: Executor, businessId: string, emails: string[], references: string[]): Promise<ReceiverMatch[]> {
  if (emails.length === 0 && references.length === 0) return [];
  return db
    .selectFrom('receivers')
    .select(['id', 'first_name', 'last_name', 'email', 'reference', 'status', 'verification', 'added_via', 'reviewed_at'])
    .where('business_id', '=', businessId)
    .where((eb) => {
      const any = [];
      if (emails.length > 0) any.push(eb(eb.fn('lower', ['email']), 'in', emails));
      if (references.length > 0) any.push(eb(eb.fn('lower', ['reference']), 'in', references));
      return eb.or(any);
    })
    .execute();
}

/**
 * Why a receiver cannot be paid by a bulk payout now, or null: the single payout's rule and words,
 * then the review — a receiver a member or a check-in added (anyone holding an event's link can
 * check in) is left out until an owner or admin reviews them. Its message is under the row's
 * `receiverReview` key, so the review page offers to include the row.
 */
export function unpayableReason(r: Pick<ReceiverMatch, 'first_name' | 'last_name' | 'status' | 'verification' | 'added_via' | 'reviewed_at'>): {
  key: 'receiver' | typeof RECEIVER_REVIEW_ERROR_KEY;
  message: string;
} | null {
  if (r.status !== 'active') return { key: 'receiver', message: `${nameOf(r)} is disabled; enable them first.` };
  if (r.verification !== 'verified')
    return {
      key: 'receiver',
      message: `${nameOf(r)} has not entered their bank account yet, so they cannot be paid. Send them the link again from Manage Receivers.`,
    };
  if (r.reviewed_at === null) {
    const how = r.added_via === 'check_in' ? 'checked in as a new receiver' : 'was added by a member';
    return {
      key: RECEIVER_REVIEW_ERROR_KEY,
      message: `${nameOf(r)} ${how} and no owner or admin has reviewed them yet, so this row is left out. An owner or admin can include it.`,
    };
  }
  return null;
}

async function checkRows(db: Executor, business: ScopedBusiness, mapping: BatchMapping, rows: { line: number; fields: RowFields }[]): Promise<RowOutcome[]> {
  const emails = new Set<string>();
  const references = new Set<string>();
  for (const { fields } of rows) {
    const email = (fields.email ?? '').trim().toLowerCase();
    if (email) emails.add(email);
    const reference = (fields.receiverReference ?? '').trim().toLowerCase();
    if (reference) references.add(reference);
  }
  const found = await receiversOf(db, business.id, [...emails], [...references]);
  const byEmail = new Map(found.map((r) => [r.email.toLowerCase(), r]));
  const byReference = new Map(found.filter((r) => r.reference).map((r) => [r.reference!.toLowerCase(), r]));
  const today = todayIn(business.timeZone);
  const { amountCeilingCents } = await amountLimitsOf(db, business.id);
  const outcomes: RowOutcome[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    outcomes.push(checkRow(mapping, today, amountCeilingCents, rows[i]!.fields, byEmail, byReference));
  }
  return outcomes;
}

function checkRow(
  mapping: BatchMapping,
  today: string,
  ceilingCents: number,
  fields: RowFields,
  byEmail: Map<string, ReceiverMatch>,
  byReference: Map<string, ReceiverMatch>,
): RowOutcome {
  const errors: FieldErrors = {};
  const amount = amountCellProblem(fields.amount ?? '', { ceilingCents });
  if (amount.error) errors.amount = amount.error;
  const amountCents = amount.cents;
  const memo = (fields.memo ?? '').trim();
  if (memo.length > 500) errors.memo = `The memo is ${memo.length} characters; at most 500 fit.`;
  const payOnText = (fields.payOn ?? '').trim();
  const payOn = payOnText === '' ? null : parseDateCell(payOnText);
  if (payOnText !== '' && !payOn) errors.payOn = `"${payOnText}" is not a date we can read. Write it ${DATE_FORMS}.`;
  else if (payOn && payOn < today) errors.payOn = 'The pay date cannot be in the past.';

  const email = (fields.email ?? '').trim().toLowerCase();
  const reference = (fields.receiverReference ?? '').trim();
  let receiver: ReceiverMatch | undefined;
  if (email) {
    receiver = byEmail.get(email);
    if (!receiver) errors.email = `No receiver of yours has the e-mail address ${email}. Add them under Manage Receivers first.`;
  } else if (reference) {
    receiver = byReference.get(reference.toLowerCase());
    if (!receiver) errors.receiverReference = `No receiver of yours has the reference ${reference}.`;
  } else {
    errors[mapping.columns.email ? 'email' : 'receiverReference'] = "Enter the receiver's e-mail address or reference.";
  }
  if (receiver) {
    const why = unpayableReason(receiver);
    if (why) errors[why.key === 'receiver' ? (email ? 'email' : 'receiverReference') : why.key] = why.message;
  }
  const receiverName = receiver ? nameOf(receiver) : null;
  if (Object.keys(errors).length > 0) return { status: 'invalid', errors, amountCents, payerName: receiverName };
  const plan: PayoutPlan = {
    receiverId: receiver!.id,
    receiverName: receiverName!,
    receiverEmail: receiver!.email,
    amountCents: amountCents!,
    memo,
    payOn,
  };
  return {
    status: 'valid',
    plan,
    amountCents: plan.amountCents,
    payerName: plan.receiverName,
    dedupeKey: `${plan.receiverId}|${plan.amountCents}|${memo.toLowerCase()}`,
  };
}

/**
 * Sends a chunk of valid rows as Submitted payouts, set-based, in the engine's transaction. Each
 * receiver is checked again (disabled, or its account removed, since the review): such a row
 * fails with its reason and the others go on. The payouts then wait in the approval queue as one
 * batch (approved at once when the business needs no second approver: `afterSend`).
 */
async function sendRows(send: SendContext, rows: RowToSend[]): Promise<SendOutcome[]> {
  const { trx, business, batchId, user } = send;
  const plans = rows.map((r) => ({ line: r.line, plan: r.plan as PayoutPlan }));
  const ids = [...new Set(plans.map((p) => p.plan.receiverId))];
  const receivers = await trx
    .selectFrom('receivers')
    .select(['id', 'first_name', 'last_name', 'email', 'reference', 'status', 'verification', 'added_via', 'reviewed_at'])
    .where('business_id', '=', business.id)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(receivers.map((r) => [r.id, r]));
  const today = todayIn(business.timeZone);
  const outcomes: SendOutcome[] = [];
  const ready: { line: number; plan: PayoutPlan; receiver: ReceiverMatch }[] = [];
  for (const { line, plan } of plans) {
    const receiver = byId.get(plan.receiverId);
    const why = receiver ? unpayableReason(receiver)?.message : 'The receiver was deleted after the file was checked.';
    if (why) outcomes.push({ line, error: why });
    else if (plan.payOn && plan.payOn < today) outcomes.push({ line, error: 'The pay date is now in the past.' });
    else ready.push({ line, plan, receiver: receiver! });
  }
  // A batch made from an event's check-ins pays each check-in once: one already paid (by an
  // earlier batch) fails its row instead of paying the receiver twice.
  const { event_id: eventId } = await trx
    .selectFrom('batches')
    .select('event_id')
    .where('business_id', '=', business.id)
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  let payable = ready;
  if (eventId) {
    const checkIns = await trx
      .selectFrom('event_check_ins as c')
      .leftJoin('payouts as p', (join) => join.onRef('p.business_id', '=', 'c.business_id').onRef('p.id', '=', 'c.payout_id'))
      .select(['c.receiver_id', 'c.payout_id', 'p.number', 'p.state'])
      .where('c.business_id', '=', business.id)
      .where('c.event_id', '=', eventId)
      .where(
        'c.receiver_id',
        'in',
        ready.map((r) => r.receiver.id),
      )
      .forUpdate('c')
      .execute();
    const byReceiver = new Map(checkIns.map((c) => [c.receiver_id, c]));
    payable = [];
    const taken = new Set<string>();
    for (const r of ready) {
      const checkIn = byReceiver.get(r.receiver.id);
      const paidBy = checkIn?.payout_id && !['Rejected', 'Cancelled', 'Error'].includes(checkIn.state ?? '') ? checkIn : null;
      if (!checkIn) outcomes.push({ line: r.line, error: `${nameOf(r.receiver)} did not check in to this event.` });
      else if (paidBy) outcomes.push({ line: r.line, error: `${nameOf(r.receiver)}'s check-in is already paid by PAY-${String(paidBy.number)}.` });
      else if (taken.has(r.receiver.id)) outcomes.push({ line: r.line, error: `${nameOf(r.receiver)}'s check-in is paid by another row of this batch.` });
      else {
        taken.add(r.receiver.id);
        payable.push(r);
      }
    }
    if (payable.length === 0) return outcomes;
  }
  const now = new Date();
  const made = payable.map((r) => ({ ...r, id: newId('pout') }));
  // The chunk's PAY- numbers in one step, this business's own; and whether a second person must
  // approve them, which they keep whatever the setting says later.
  const first = await takePayoutNumbers(trx, business.id, made.length);
  const settings = await trx.selectFrom('businesses').select('payout_approval_required').where('id', '=', business.id).executeTakeFirstOrThrow();
  await trx
    .insertInto('payouts')
    .values(
      made.map((m, i) => ({
        business_id: business.id,
        id: m.id,
        number: first + i,
        receiver_id: m.receiver.id,
        receiver_name: nameOf(m.receiver),
        receiver_email: m.receiver.email,
        amount_cents: m.plan.amountCents,
        memo: m.plan.memo,
        pay_on: m.plan.payOn,
        state: 'Submitted' as const,
        batch_id: batchId,
        event_id: eventId,
        created_by: user.userId,
        submitted_by: user.email,
        submitted_at: now,
        second_approver_required: Boolean(settings.payout_approval_required),
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await trx
    .insertInto('payout_events')
    .values(
      made.flatMap((m) => [
        {
          business_id: business.id,
          id: newId('pev'),
          payout_id: m.id,
          event: 'create',
          from_state: null,
          to_state: 'Draft' as const,
          detail: `From bulk batch ${batchId}, line ${m.line}`,
          actor: user.email,
          created_at: now,
        },
        {
          business_id: business.id,
          id: newId('pev'),
          payout_id: m.id,
          event: 'submit',
          from_state: 'Draft' as const,
          to_state: 'Submitted' as const,
          detail: `Submitted with bulk batch ${batchId}`,
          actor: user.email,
          created_at: now,
        },
      ]),
    )
    .execute();
  if (eventId) {
    for (const m of made) {
      await trx
        .updateTable('event_check_ins')
        .set({ payout_id: m.id })
        .where('business_id', '=', business.id)
        .where('event_id', '=', eventId)
        .where('receiver_id', '=', m.receiver.id)
        .execute();
    }
  }
  for (const m of made) outcomes.push({ line: m.line, requestId: m.id });
  return outcomes;
}

const checkMapping = mappingCheck(PAYOUT_BATCH_FIELDS, (has) => {
  const errors: FieldErrors = {};
  if (!has('email') && !has('receiverReference')) errors['mapping.email'] = "Choose the column with the receiver's e-mail address or reference.";
  if (!has('amount')) errors['mapping.amount'] = 'Choose the column with the amount.';
  return errors;
});

/**
 * Once every row went, before the batch reads Processed: a batch an owner or admin submitted, in a
 * business that needs no second approver, is approved at once, all or none, as a single payout
 * would be on submit. A member's batch waits in the approval queue for an owner or admin
 * (`MONEY_RULES.approvePayout`, asked again by the approval in its transaction). When the
 * available balance does not cover it all, the payouts stay Submitted (nothing is reserved) and
 * the audit trail says why.
 */
async function afterSend(ctx: RequestContext, deps: BatchRunDeps, business: ScopedBusiness, batchId: string, user: { userId: string; email: string }) {
  const settings = await ctx.db.selectFrom('businesses').select('payout_approval_required').where('id', '=', business.id).executeTakeFirst();
  if (!settings || settings.payout_approval_required) return;
  if (!(await mayNow(ctx.db, business.id, user.userId, 'approvePayout'))) return;
  const submitted = await ctx.db
    .selectFrom('payouts')
    .select('id')
    .where('business_id', '=', business.id)
    .where('batch_id', '=', batchId)
    .where('state', '=', 'Submitted')
    .execute();
  if (submitted.length === 0) return;
  try {
    await approvePayouts(
      ctx.db,
      deps,
      business,
      submitted.map((p) => p.id),
      user,
      { selfApproval: 'allow', detail: `Approved with bulk batch ${batchId} (this business needs no second approver).` },
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Another run of this batch (resumed after a stall) approved them meanwhile: nothing is waiting.
    const still = await ctx.db
      .selectFrom('payouts')
      .select('id')
      .where('business_id', '=', business.id)
      .where('batch_id', '=', batchId)
      .where('state', '=', 'Submitted')
      .execute();
    if (still.length === 0) return;
    await recordEvent(ctx.db, {
      businessId: business.id,
      actor: { userId: user.userId, label: user.email },
      action: 'batch.approval_waiting',
      details: { batchId, payouts: submitted.length, reason: error.message },
    });
  }
}

export const payoutBatches: BatchKindDefinition = {
  kind: 'payouts',
  fields: PAYOUT_BATCH_FIELDS,
  checkMapping,
  checkRows,
  sendRows,
  repeat: { same: 'Same receiver, amount and memo', fix: 'Change the memo, or drop one of them.' },
  afterSend,
};
