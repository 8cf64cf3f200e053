import { ErrorCode, formatDateTime, NO_MOBILE_MESSAGE, type PaymentRequest, type PaymentRequestValues, type RequestState } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { checkAmount } from '../businesses/amount-limits';
import type { ScopedBusiness } from '../businesses/business-scope';
import { sourceOf } from '../request-sources';
import { insertRequests } from './insert-requests';
import { userActor, type ActingUser, type RequestContext } from './request-context';
import { expiryAfter, todayIn, toPaymentRequest, type RequestRow } from './request-record';
import { OWN_SOURCE, type RequestSource } from './request-source';
import { capitalized, issueLinkAndMessage } from './send-request-email';
import { recordRequestEvent, transitionRequest } from './transition';

type Input = PaymentRequestValues;

interface Checked {
  payer: { id: string; display_name: string; email: string; mobile_number: string | null };
  expiresOn: string;
  sendAt: Date | null;
}

/**
 * The payer a request (or an invoice) is for: one of this business's, active, with a mobile
 * number when it is to go by text message. Each refusal names its field.
 */
export async function checkPayer(trx: Transaction<DB>, businessId: string, payerId: string, channel: 'email' | 'sms'): Promise<Checked['payer']> {
  const payer = await trx
    .selectFrom('payers')
    .select(['id', 'display_name', 'email', 'mobile_number', 'status'])
    .where('business_id', '=', businessId)
    .where('id', '=', payerId)
    .executeTakeFirst();
  if (!payer) throw AppError.validation('Choose one of your payers.', { payerId: 'Choose one of your payers.' });
  if (payer.status !== 'active') {
    throw AppError.validation(`${payer.display_name} is deactivated; activate them first.`, {
      payerId: 'This payer is deactivated; activate them first.',
    });
  }
  if (channel === 'sms' && !payer.mobile_number) {
    throw AppError.validation(`${payer.display_name} has no mobile number to text the request to.`, { channel: NO_MOBILE_MESSAGE });
  }
  return payer;
}

async function check(trx: Transaction<DB>, business: ScopedBusiness, input: Input): Promise<Checked> {
  const payer = await checkPayer(trx, business.id, input.payerId, input.channel);
  await checkAmount(trx, business.id, {
    amountCents: input.amountCents,
    confirmedAmountCents: input.confirmedAmountCents,
    field: 'amountCents',
    what: 'a request to pay',
    goesOut: input.mode !== 'draft',
  });
  const today = todayIn(business.timeZone);
  if (input.dueDate < today) {
    throw AppError.validation('The due date cannot be in the past.', { dueDate: 'Choose today or a later date.' });
  }
  const expiresOn = input.expiresOn ?? expiryAfter(input.dueDate, business.defaultExpiryDays);
  let sendAt: Date | null = null;
  if (input.mode === 'schedule') {
    sendAt = new Date(input.sendAt!);
    if (sendAt.getTime() <= Date.now()) {
      throw AppError.validation('The send time must be in the future.', { sendAt: 'Choose a time in the future.' });
    }
    // The day it goes out, as the business counts days (its expiry date is one of those days).
    if (todayIn(business.timeZone, sendAt) > expiresOn) {
      throw AppError.validation('It would expire before it is sent.', { sendAt: 'Send it before it expires.' });
    }
  }
  return { payer, expiresOn, sendAt };
}

function columns(input: Input, checked: Checked) {
  return {
    payer_id: checked.payer.id,
    payer_display_name: checked.payer.display_name,
    payer_email: checked.payer.email,
    amount_cents: input.amountCents,
    memo: input.memo,
    reference: input.reference,
    due_date: input.dueDate,
    expires_on: checked.expiresOn,
    allow_partial: input.allowPartial,
    channel: input.channel,
  };
}

async function applyMode(
  ctx: RequestContext,
  trx: Transaction<DB>,
  business: ScopedBusiness,
  row: RequestRow,
  input: Input,
  checked: Checked,
  user: ActingUser,
): Promise<void> {
  const actor = userActor(user);
  if (input.mode === 'send') {
    const { sentAt, how } = await issueLinkAndMessage(ctx, trx, row, business.name, 'request');
    await transitionRequest({
      db: trx,
      businessId: business.id,
      requestId: row.id,
      event: 'send',
      from: row.state,
      to: 'Sent',
      actor,
      set: { sent_at: sentAt, send_at: null },
      detail: capitalized(how),
    });
  } else if (input.mode === 'schedule' && row.state === 'Draft') {
    await transitionRequest({
      db: trx,
      businessId: business.id,
      requestId: row.id,
      event: 'schedule',
      from: 'Draft',
      to: 'Pending',
      actor,
      set: { send_at: checked.sendAt },
      detail: `To be sent ${formatDateTime(checked.sendAt, business.timeZone)} (${business.timeZone})`,
    });
  }
}

/**
 * What a request made for something else carries beside the request's own fields, found in the
 * request's transaction before it is checked: its payer and its source (ADR 045). A student's
 * request (ADR 036) is billed to the student's guardian and carries the student, program and period.
 */
export type RequestAttachment = (trx: Transaction<DB>) => Promise<{
  payerId: string;
  source: RequestSource;
  /** Runs once the request is inserted, in its transaction (a student's charge for the period, the audit). */
  afterInsert?: (trx: Transaction<DB>, row: RequestRow) => Promise<void>;
}>;

/** Creates a request to pay: saved as a draft, sent now, or scheduled (docs/product.md §4). */
export async function createRequest(
  ctx: RequestContext,
  { business, user, body, attach }: { business: ScopedBusiness; user: ActingUser; body: PaymentRequestValues; attach?: RequestAttachment | undefined },
): Promise<PaymentRequest> {
  const businessId = business.id;
  return ctx.db.transaction().execute(async (trx) => {
    const attached = attach ? await attach(trx) : null;
    const input = attached ? { ...body, payerId: attached.payerId } : body;
    const checked = await check(trx, business, input);
    const [row] = await insertRequests(trx, businessId, [
      {
        payer: { id: checked.payer.id, displayName: checked.payer.display_name, email: checked.payer.email },
        amountCents: input.amountCents,
        memo: input.memo,
        reference: input.reference,
        dueDate: input.dueDate,
        expiresOn: checked.expiresOn,
        allowPartial: input.allowPartial,
        channel: input.channel,
        source: attached?.source ?? OWN_SOURCE,
        createdBy: user.userId,
        actor: userActor(user),
      },
    ]);
    await attached?.afterInsert?.(trx, row!);
    await applyMode(ctx, trx, business, row!, input, checked, user);
    return toPaymentRequest(await selectRequest(trx, businessId, row!.id));
  });
}

/** Edits a Draft (any mode) or a Pending request (its details and its send time). */
export async function updateRequest(
  ctx: RequestContext,
  { business, requestId, user, body: input }: { business: ScopedBusiness; requestId: string; user: ActingUser; body: PaymentRequestValues },
): Promise<PaymentRequest> {
  const businessId = business.id;
  return ctx.db.transaction().execute(async (trx) => {
    const current = await lockRequest(trx, businessId, requestId);
    // A request made for something else may be edited only as its source allows (ADR 045).
    const refusal = sourceOf(current.source_kind).editRefusal?.(current, input);
    if (refusal) throw refusal;
    if (current.state !== 'Draft' && current.state !== 'Pending') {
      throw new AppError(ErrorCode.Conflict, `A request that is ${current.state} cannot be edited. Copy it to make a new one.`);
    }
    if (current.state === 'Pending' && input.mode === 'draft') {
      throw AppError.validation('A scheduled request cannot go back to draft; cancel it instead.', { mode: 'Cancel the scheduled request instead.' });
    }
    const checked = await check(trx, business, input);
    await trx
      .updateTable('payment_requests')
      .set({
        ...columns(input, checked),
        ...(current.state === 'Pending' && input.mode === 'schedule' ? { send_at: checked.sendAt } : {}),
        updated_at: new Date(),
      })
      .where('business_id', '=', businessId)
      .where('id', '=', requestId)
      .execute();
    await recordRequestEvent({ db: trx, businessId, requestId, actor: userActor(user), event: 'edit', from: current.state, to: current.state, detail: null });
    const row = await selectRequest(trx, businessId, requestId);
    if (current.state === 'Pending' && input.mode === 'send') {
      const { sentAt, how } = await issueLinkAndMessage(ctx, trx, row, business.name, 'request');
      await transitionRequest({
        db: trx,
        businessId,
        requestId,
        event: 'scheduledSend',
        from: 'Pending',
        to: 'Sent',
        actor: userActor(user),
        set: { sent_at: sentAt, send_at: null },
        detail: capitalized(how),
      });
    } else {
      await applyMode(ctx, trx, business, row, input, checked, user);
    }
    return toPaymentRequest(await selectRequest(trx, businessId, requestId));
  });
}

export async function selectRequest(trx: Transaction<DB>, businessId: string, requestId: string): Promise<RequestRow> {
  const row = await trx.selectFrom('payment_requests').selectAll().where('business_id', '=', businessId).where('id', '=', requestId).executeTakeFirst();
  if (!row) throw AppError.notFound('Request');
  return row;
}

/** The request row, locked until the transaction ends; 404 when it is not this business's. */
export async function lockRequest(trx: Transaction<DB>, businessId: string, requestId: string): Promise<RequestRow> {
  const row = await trx
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', requestId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Request');
  return row;
}

export type { RequestState };
