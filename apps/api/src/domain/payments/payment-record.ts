import type { Selectable } from 'kysely';
import type { PaymentSummary } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { PaymentsTable } from '../../db/schema/payments';
import type { RequestRow } from '../payment-requests/request-record';
import type { Actor } from '../payment-requests/transition';

export type PaymentRow = Selectable<PaymentsTable>;

/** Who moves a request when the processor reports on a payment. */
export const PROCESSOR_ACTOR: Actor = { type: 'system', id: null, label: 'Payment processor' };

export function payerActor(email: string): Actor {
  return { type: 'payer', id: null, label: email ? `Payer (${email})` : 'Payer' };
}

export function toPaymentSummary(row: PaymentRow): PaymentSummary {
  return {
    paymentId: row.id,
    method: row.method,
    instrument: row.instrument,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    refundedCents: Number(row.refunded_cents),
    state: row.state,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    settledAt: row.settled_at?.toISOString() ?? null,
  };
}

/** The request, then the payment, both locked — always in this order, so two writers never deadlock. */
export async function lockRequestAndPayment(
  trx: Executor,
  businessId: string,
  paymentId: string,
): Promise<{ request: RequestRow; payment: PaymentRow } | null> {
  const found = await trx.selectFrom('payments').select('request_id').where('business_id', '=', businessId).where('id', '=', paymentId).executeTakeFirst();
  if (!found) return null;
  const request = await trx
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', found.request_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const payment = await trx
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', paymentId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { request, payment };
}
