import { canApply, formatMoney, type RequestState } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import { postCapture, postReturn, postSettlement } from '../ledger/post';
import type { RequestRow } from '../payment-requests/request-record';
import { recordRequestEvent, transitionRequest } from '../payment-requests/transition';
import { afterPaymentProcessed } from './payment-processed';
import { PROCESSOR_ACTOR, type PaymentRow } from './payment-record';
import { receiptEmail } from './receipt';

/**
 * What the processor's answers do to a payment, its request and the ledger. Each function runs
 * inside the caller's transaction with the request and payment rows locked (request first), and
 * each is idempotent: it acts only when the payment is in the state it expects, and the ledger's
 * unique (payment, kind) refuses a second posting anyway. The synchronous answer to a charge, the
 * processor's webhooks and the reconciliation job all come through here, in any order.
 */
export interface OutcomeContext {
  trx: Transaction<DB>;
  mailer: Pick<Mailer, 'send' | 'sendText'>;
  request: RequestRow;
  payment: PaymentRow;
}

async function reload(ctx: OutcomeContext): Promise<void> {
  ctx.request = await ctx.trx
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', ctx.request.business_id)
    .where('id', '=', ctx.request.id)
    .executeTakeFirstOrThrow();
  ctx.payment = await ctx.trx
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', ctx.payment.business_id)
    .where('id', '=', ctx.payment.id)
    .executeTakeFirstOrThrow();
}

function posting(payment: PaymentRow, what: string) {
  return {
    businessId: payment.business_id,
    paymentId: payment.id,
    amountCents: payment.amount_cents,
    feeCents: payment.fee_cents,
    description: `${what}: ${payment.instrument}, ${formatMoney(payment.amount_cents)}`,
  };
}

/** A pending debit: remember the processor's charge id; the webhooks carry on from here. */
export async function recordCharge(ctx: OutcomeContext, chargeId: string): Promise<void> {
  if (ctx.payment.processor_charge_id) return;
  await ctx.trx
    .updateTable('payments')
    .set({ processor_charge_id: chargeId })
    .where('business_id', '=', ctx.payment.business_id)
    .where('id', '=', ctx.payment.id)
    .execute();
  await reload(ctx);
}

/**
 * Captured (a card at once, a bank debit on `charge.succeeded`): Processed, posted to the ledger,
 * counted in the request's amount paid, the payer's receipt e-mailed and the business told
 * (`afterPaymentProcessed`). The request stays Accepted until the money settles.
 */
export async function markCaptured(ctx: OutcomeContext, chargeId: string | null): Promise<boolean> {
  const { trx, payment } = ctx;
  if (payment.state !== 'Pending') return false;
  await trx
    .updateTable('payments')
    .set({ state: 'Processed', processed_at: new Date(), ...(chargeId && !payment.processor_charge_id ? { processor_charge_id: chargeId } : {}) })
    .where('business_id', '=', payment.business_id)
    .where('id', '=', payment.id)
    .execute();
  await postCapture(trx, posting(payment, 'Payment captured'));
  await trx
    .updateTable('payment_requests')
    .set((eb) => ({ amount_paid_cents: eb('amount_paid_cents', '+', payment.amount_cents), updated_at: new Date() }))
    .where('business_id', '=', payment.business_id)
    .where('id', '=', payment.request_id)
    .execute();
  await recordRequestEvent({
    db: trx,
    businessId: payment.business_id,
    requestId: payment.request_id,
    actor: PROCESSOR_ACTOR,
    event: 'paymentProcessed',
    from: null,
    to: null,
    detail: `${formatMoney(payment.amount_cents)} received by ${payment.instrument} (${payment.id}).`,
  });
  await reload(ctx);
  // A payer through a QR code who gave no e-mail gets the receipt on the page only.
  const receiptTo = ctx.payment.payer_email || ctx.request.payer_email;
  if (receiptTo) await ctx.mailer.send(await receiptEmail(trx, receiptTo, ctx.request, ctx.payment), trx);
  await afterPaymentProcessed(trx, ctx.mailer, ctx.request, ctx.payment);
  return true;
}

/** Declined or failed before settlement: Rejected; the request goes to Error, or back to PartiallyPaid. */
export async function markFailed(ctx: OutcomeContext, failure: { chargeId: string | null; message: string }): Promise<boolean> {
  const { trx, payment } = ctx;
  if (payment.state !== 'Pending') return false;
  await trx
    .updateTable('payments')
    .set({
      state: 'Rejected',
      failure_reason: failure.message,
      ...(failure.chargeId && !payment.processor_charge_id ? { processor_charge_id: failure.chargeId } : {}),
    })
    .where('business_id', '=', payment.business_id)
    .where('id', '=', payment.id)
    .execute();
  const to: RequestState = ctx.request.amount_paid_cents > 0 ? 'PartiallyPaid' : 'Error';
  await moveRequest(ctx, 'paymentFails', to, `${payment.instrument}: ${failure.message}`);
  await reload(ctx);
  return true;
}

/** The money arrived: available to the business; the request is Paid or PartiallyPaid. */
export async function markSettled(ctx: OutcomeContext): Promise<boolean> {
  // Settlement implies the capture; a missed or late `charge.succeeded` is applied first.
  if (ctx.payment.state === 'Pending') await markCaptured(ctx, null);
  const { trx, payment } = ctx;
  if (payment.state !== 'Processed' || payment.settled_at) return false;
  await postSettlement(trx, posting(payment, 'Payment settled'));
  await trx.updateTable('payments').set({ settled_at: new Date() }).where('business_id', '=', payment.business_id).where('id', '=', payment.id).execute();
  const paid = ctx.request.amount_paid_cents >= ctx.request.amount_cents;
  await moveRequest(
    ctx,
    'paymentSettles',
    paid ? 'Paid' : 'PartiallyPaid',
    `${formatMoney(payment.amount_cents)} by ${payment.instrument} settled.`,
    paid ? { paid_at: new Date() } : {},
  );
  await reload(ctx);
  return true;
}

/**
 * Returned after settlement (e.g. ACH R01): Returned, the capture reversed in the ledger, the
 * amount taken off what was paid. The request goes to Error when nothing remains paid,
 * PartiallyPaid otherwise, and stays Accepted while another payment is in flight.
 */
export async function markReturned(ctx: OutcomeContext, failure: { message: string }): Promise<boolean> {
  if (ctx.payment.state === 'Pending') await markSettled(ctx);
  const { trx, payment } = ctx;
  if (payment.state !== 'Processed') return false;
  await postReturn(trx, { ...posting(payment, 'Payment returned'), settled: payment.settled_at !== null });
  await trx
    .updateTable('payments')
    .set({ state: 'Returned', returned_at: new Date(), failure_reason: failure.message })
    .where('business_id', '=', payment.business_id)
    .where('id', '=', payment.id)
    .execute();
  const remainingPaid = ctx.request.amount_paid_cents - payment.amount_cents;
  const to: RequestState = ctx.request.state === 'Accepted' ? 'Accepted' : remainingPaid > 0 ? 'PartiallyPaid' : 'Error';
  await moveRequest(ctx, 'paymentReturned', to, `${formatMoney(payment.amount_cents)} by ${payment.instrument} was returned: ${failure.message}`, {
    amount_paid_cents: remainingPaid,
    paid_at: null,
  });
  await reload(ctx);
  return true;
}

/**
 * Moves the request if the state machine allows it from where it is; otherwise (it was moved on
 * meanwhile, e.g. withdrawn) the columns still change and the timeline still says what happened.
 */
async function moveRequest(
  ctx: OutcomeContext,
  event: 'paymentFails' | 'paymentSettles' | 'paymentReturned',
  to: RequestState,
  detail: string,
  set: Record<string, unknown> = {},
): Promise<void> {
  const { trx, request } = ctx;
  if (canApply(event, request.state, to)) {
    await transitionRequest({
      db: trx,
      businessId: request.business_id,
      requestId: request.id,
      event,
      from: request.state,
      to,
      actor: PROCESSOR_ACTOR,
      detail,
      set,
    });
    return;
  }
  if (Object.keys(set).length > 0) {
    await trx
      .updateTable('payment_requests')
      .set({ ...set, updated_at: new Date() } as never)
      .where('business_id', '=', request.business_id)
      .where('id', '=', request.id)
      .execute();
  }
  await recordRequestEvent({ db: trx, businessId: request.business_id, requestId: request.id, actor: PROCESSOR_ACTOR, event, from: null, to: null, detail });
}
