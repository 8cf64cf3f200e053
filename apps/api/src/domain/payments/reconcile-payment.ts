import { applyChargeResult, type PaymentDeps } from './apply-charge-result';
import { chargeRequestFor } from './pay-request';

export type ReconcileOutcome = 'not-found' | 'already-final' | 'awaiting-processor' | 'applied';

/**
 * The `payments.reconcile` job, queued with every payment a minute ahead: the safety net for a
 * process that died between creating the payment and recording the processor's answer. A payment
 * still Pending with no charge id is charged again with the same idempotency key (the payment
 * id), so the processor either returns the charge it already made or makes the one that never
 * reached it — exactly one either way — and the answer is applied as the pay call would have.
 * A pending bank debit (charge id known) is left to the processor's webhooks.
 */
export async function reconcilePayment(
  deps: Pick<PaymentDeps, 'db' | 'processor' | 'mailer'>,
  job: { businessId: string; paymentId: string; processorToken: string },
): Promise<ReconcileOutcome> {
  const payment = await deps.db
    .selectFrom('payments')
    .select(['business_id', 'id', 'state', 'processor_charge_id', 'amount_cents', 'request_id'])
    .where('business_id', '=', job.businessId)
    .where('id', '=', job.paymentId)
    .executeTakeFirst();
  if (!payment) return 'not-found';
  if (payment.state !== 'Pending') return 'already-final';
  if (payment.processor_charge_id) return 'awaiting-processor';
  const result = await deps.processor.charge(chargeRequestFor(payment, job.processorToken));
  await applyChargeResult(deps, job, result);
  return 'applied';
}
