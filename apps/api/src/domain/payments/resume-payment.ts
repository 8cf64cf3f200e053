import type { PaymentOutcome } from '@tay/contract';
import type { RequestRow } from '../payment-requests/request-record';
import type { PaymentDeps } from './apply-charge-result';
import { chargePayment, outcome } from './pay-request';

export interface ResumePaymentOptions {
  request: Pick<RequestRow, 'business_id' | 'id'>;
  /** The payment the first run created (the Idempotency-Key's recovery point). */
  paymentId: string;
  /** The token the first run was given: a retry sends the very same body. */
  processorToken: string;
  /**
   * Whether this retry may finish the payment itself. Only when the first run is known to be
   * gone (its lease ran out); while it may still be talking to the processor, a retry reports
   * only an outcome already recorded.
   */
  mayCharge: boolean;
}

/**
 * A retry of a pay call whose first run created the payment and never answered: its process
 * died before, during or after the processor call, or the processor's answer was lost. Answers
 * with what happened, as the first run would have: a payment already Processed, Rejected or
 * Returned (by that run, the processor's webhook or the reconciliation job), or a bank debit the
 * processor accepted, is reported as it stands. A payment still Pending with no answer from the
 * processor is charged with its own id as the processor's idempotency key, so the processor
 * returns the charge it already made or makes the one that never reached it — once either way.
 * Returns null when that is still to be learnt and this retry may not charge.
 */
export async function resumePayment(deps: Omit<PaymentDeps, 'fees' | 'jobs'>, options: ResumePaymentOptions): Promise<PaymentOutcome | null> {
  const { db } = deps;
  const payment = await db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', options.request.business_id)
    .where('request_id', '=', options.request.id)
    .where('id', '=', options.paymentId)
    .executeTakeFirst();
  // Recorded in the transaction that created it: it exists unless the key was misused by code.
  if (!payment) throw new Error(`Payment ${options.paymentId} recorded under a key of request ${options.request.id} does not exist`);
  if (payment.state !== 'Pending' || payment.processor_charge_id !== null) {
    const request = await db
      .selectFrom('payment_requests')
      .selectAll()
      .where('business_id', '=', payment.business_id)
      .where('id', '=', payment.request_id)
      .executeTakeFirstOrThrow();
    return outcome({ payment, request });
  }
  if (!options.mayCharge) return null;
  return outcome(await chargePayment(deps, payment, options.processorToken));
}
