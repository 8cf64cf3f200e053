import type { Transaction } from 'kysely';
import { ErrorCode, formatMoney, type PaymentMethod, type PaymentOutcome } from '@tay/contract';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { ChargeRequest, ChargeResult } from '../../processor/port';
import { computeFee } from '../ledger/fees';
import { PAY_BUSINESS_COLUMNS, payStatus } from '../payment-requests/public-pay-page';
import type { RequestRow } from '../payment-requests/request-record';
import { transitionRequest } from '../payment-requests/transition';
import { applyChargeResult, type PaymentDeps } from './apply-charge-result';
import { payerActor, toPaymentSummary, type PaymentRow } from './payment-record';

/** When the reconciliation job looks at a payment that may have been left half-done by a crash. */
export const RECONCILE_AFTER_SECONDS = 60;

export interface PayRequestOptions extends PaymentDeps {
  request: Pick<RequestRow, 'business_id' | 'id'>;
  body: { method: PaymentMethod; processorToken: string; amountCents: number; payerEmail?: string | undefined };
  /**
   * Called inside the transaction that creates the payment, so what it records (the
   * Idempotency-Key's recovery point) commits with the payment or not at all.
   */
  onPaymentCreated?: (trx: Transaction<DB>, paymentId: string) => Promise<void>;
}

/**
 * The payer pays on the hosted page (ARCHITECTURE.md §5, docs/product.md §4 "Payment"). No processor call
 * ever happens inside a transaction:
 *
 * 1. tx1 — lock the request, check it can take this amount, insert the payment (Pending, with its
 *    fee), move the request to Accepted (payerPays), and queue the reconciliation job;
 * 2. the processor charges the token, idempotently keyed by the payment id;
 * 3. tx2 — apply the answer (captured, failed, or pending for a bank debit).
 *
 * When the processor's answer never comes the payment may or may not have been taken: the call
 * fails with 503 and the payment stays Pending, to be finished by a retry under the same
 * Idempotency-Key (`resumePayment`) or by the reconciliation job, both with the same key at the
 * processor, so it is charged once.
 *
 * Concurrent payments of one request serialize on the row lock in tx1: the first moves it to
 * Accepted and every other finds it no longer payable, so money moves once.
 */
export async function payRequest(options: PayRequestOptions): Promise<PaymentOutcome> {
  const { db, body } = options;
  const instrument = await checkInstrument(options.processor, body);

  const payment = await db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom('payment_requests')
      .selectAll()
      .where('business_id', '=', options.request.business_id)
      .where('id', '=', options.request.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const business = await trx.selectFrom('businesses').select(PAY_BUSINESS_COLUMNS).where('id', '=', request.business_id).executeTakeFirstOrThrow();
    // The same rules and sentences as the pay page: business approved, request payable, not past expiry.
    const { status, message } = payStatus({ row: request, business });
    if (status !== 'payable') throw new AppError(ErrorCode.Conflict, message ?? 'This request cannot be paid.');
    const remaining = request.amount_cents - request.amount_paid_cents;
    if (!request.allow_partial && body.amountCents !== remaining) {
      throw AppError.validation(`Pay the full amount of ${formatMoney(remaining)}.`, {
        amountCents: `This request must be paid in full: ${formatMoney(remaining)}.`,
      });
    }
    if (body.amountCents > remaining) {
      throw AppError.validation(`Enter an amount up to ${formatMoney(remaining)}.`, { amountCents: `The most you can pay is ${formatMoney(remaining)}.` });
    }
    return startPayment(trx, options, request, instrument, body.payerEmail ?? request.payer_email);
  });

  return outcome(await chargePayment(options, payment, body.processorToken));
}

/** The processor's description of the token the payer's browser made; refused when gone or of the other method. */
export async function checkInstrument(
  processor: PaymentDeps['processor'],
  body: { method: PaymentMethod; processorToken: string },
): Promise<{ method: PaymentMethod; label: string }> {
  const instrument = await processor.describeToken(body.processorToken);
  if (!instrument) {
    throw AppError.validation('These card or bank details can no longer be used. Enter them again.', {
      processorToken: 'Enter your card or bank account details again.',
    });
  }
  if (instrument.method !== body.method) {
    throw AppError.validation('The payment method does not match the details entered.', {
      method: `These details are a ${instrument.method === 'card' ? 'card' : 'bank account'}.`,
    });
  }
  return instrument;
}

/**
 * Step 1's writes, inside the caller's transaction, for a request it has locked and found payable
 * for this amount: the payment (Pending, with its fee), the request moved to Accepted, the
 * reconciliation job, and the Idempotency-Key's recovery point. The caller charges after commit.
 */
export async function startPayment(
  trx: Transaction<DB>,
  options: Pick<PayRequestOptions, 'jobs' | 'fees' | 'onPaymentCreated' | 'body'>,
  request: RequestRow,
  instrument: { method: PaymentMethod; label: string },
  payerEmail: string,
): Promise<PaymentRow> {
  const { body } = options;
  const inserted = await trx
    .insertInto('payments')
    .values({
      business_id: request.business_id,
      id: newId('pay'),
      request_id: request.id,
      method: instrument.method,
      instrument: instrument.label,
      amount_cents: body.amountCents,
      fee_cents: computeFee(instrument.method, body.amountCents, options.fees),
      state: 'Pending',
      failure_reason: null,
      processor_charge_id: null,
      payer_email: payerEmail,
      processed_at: null,
      settled_at: null,
      returned_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await transitionRequest({
    db: trx,
    businessId: request.business_id,
    requestId: request.id,
    event: 'payerPays',
    from: request.state,
    to: 'Accepted',
    actor: payerActor(payerEmail),
    detail: `${formatMoney(inserted.amount_cents)} by ${inserted.instrument} (${inserted.id}).`,
  });
  await options.jobs.send(
    'payments.reconcile',
    { businessId: inserted.business_id, paymentId: inserted.id, processorToken: body.processorToken },
    { db: jobDb(trx), startAfter: RECONCILE_AFTER_SECONDS, singletonKey: inserted.id },
  );
  await options.onPaymentCreated?.(trx, inserted.id);
  return inserted;
}

/** What the processor is asked for a payment: always keyed by the payment id, so it charges once. */
export function chargeRequestFor(payment: Pick<PaymentRow, 'business_id' | 'id' | 'request_id' | 'amount_cents'>, token: string): ChargeRequest {
  return {
    token,
    amountCents: payment.amount_cents,
    idempotencyKey: payment.id,
    metadata: { businessId: payment.business_id, paymentId: payment.id, requestId: payment.request_id },
  };
}

/**
 * Charges a Pending payment and applies the answer. With no answer from the processor the
 * payment stays Pending (the request Accepted) and the caller gets 503: charging again with the
 * same key returns the charge the processor made, or makes the one that never reached it.
 */
export async function chargePayment(
  deps: Pick<PaymentDeps, 'db' | 'processor' | 'mailer' | 'log'>,
  payment: Pick<PaymentRow, 'business_id' | 'id' | 'request_id' | 'amount_cents'>,
  token: string,
): Promise<{ payment: PaymentRow; request: RequestRow }> {
  let result: ChargeResult;
  try {
    result = await deps.processor.charge(chargeRequestFor(payment, token));
  } catch (error) {
    deps.log.warn({ err: error, paymentId: payment.id }, 'processor charge failed; a retry or the reconciliation job will finish the payment');
    throw new AppError(
      ErrorCode.Unavailable,
      'We could not confirm the payment with the payment processor. Try again in a moment: you will not be charged twice.',
    );
  }
  return applyChargeResult(deps, { businessId: payment.business_id, paymentId: payment.id }, result);
}

export function outcome({ payment, request }: { payment: PaymentRow; request: RequestRow }): PaymentOutcome {
  return {
    payment: toPaymentSummary(payment),
    transactionState: request.state,
    amountCents: request.amount_cents,
    amountPaidCents: request.amount_paid_cents,
    remainingCents: request.amount_cents - request.amount_paid_cents,
  };
}
