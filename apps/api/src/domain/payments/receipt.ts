import { formatDateTime, formatMoney, type PaymentReceipt } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { MailMessage } from '../../mail/mailer';
import { referenceNumber, type RequestRow } from '../payment-requests/request-record';
import type { PaymentRow } from './payment-record';

/** What a receipt needs to know about the business that was paid. */
export interface ReceiptBusiness {
  business_name: string;
  /** Receipts show times on the business's clock (its configuration), not the server's. */
  time_zone: string;
}

export async function receiptBusiness(db: Executor, businessId: string): Promise<ReceiptBusiness> {
  return db.selectFrom('businesses').select(['business_name', 'time_zone']).where('id', '=', businessId).executeTakeFirstOrThrow();
}

/**
 * The receipt of one processed payment, as the payer and the business both see it: no fee (that
 * is the business's cost, shown in its own request details).
 */
export function toReceipt(business: ReceiptBusiness, request: RequestRow, payment: PaymentRow): PaymentReceipt {
  return {
    paymentId: payment.id,
    businessName: business.business_name,
    referenceNumber: referenceNumber(request.number),
    method: payment.method,
    methodLabel: payment.instrument,
    amountCents: payment.amount_cents,
    paymentState: payment.state,
    paidAt: (payment.processed_at ?? payment.created_at).toISOString(),
    requestAmountCents: request.amount_cents,
    remainingCents: request.amount_cents - request.amount_paid_cents,
    timeZone: business.time_zone,
  };
}

export async function buildReceipt(db: Executor, request: RequestRow, payment: PaymentRow): Promise<PaymentReceipt> {
  return toReceipt(await receiptBusiness(db, request.business_id), request, payment);
}

/** The payer's receipt e-mail; its date is on the business's clock, in the spec's format (§9). */
export async function receiptEmail(db: Executor, to: string, request: RequestRow, payment: PaymentRow): Promise<MailMessage> {
  const business = await receiptBusiness(db, request.business_id);
  const receipt = toReceipt(business, request, payment);
  const amount = formatMoney(receipt.amountCents);
  const lines = [
    `Thank you for your payment to ${receipt.businessName}.`,
    '',
    `Amount paid: ${amount}`,
    `Paid with: ${receipt.methodLabel}`,
    `Date: ${formatDateTime(receipt.paidAt, business.time_zone)} (${business.time_zone})`,
    `Reference: ${receipt.referenceNumber}`,
    `Payment: ${receipt.paymentId}`,
    receipt.remainingCents > 0
      ? `Still to pay: ${formatMoney(receipt.remainingCents)} of ${formatMoney(receipt.requestAmountCents)}`
      : 'This request is now paid in full.',
  ];
  if (receipt.method === 'bank_account') lines.push('', 'Bank payments take a few days to reach the business; if your bank returns it, we will tell you.');
  return {
    about: { businessId: request.business_id, requestId: request.id },
    to,
    subject: `Receipt: ${amount} paid to ${receipt.businessName} (${receipt.referenceNumber})`,
    text: `${lines.join('\n')}\n`,
  };
}

/**
 * The payer's refund receipt (ADR 051), sent when the processor says the refund succeeded: what
 * came back, to what, and what the request now shows as paid.
 */
export async function refundReceiptEmail(
  db: Executor,
  to: string,
  request: RequestRow,
  payment: PaymentRow,
  refund: { id: string; amount_cents: number; processed_at: Date | null },
): Promise<MailMessage> {
  const business = await receiptBusiness(db, request.business_id);
  const amount = formatMoney(refund.amount_cents);
  const reference = referenceNumber(request.number);
  const lines = [
    `${business.business_name} refunded ${amount} to you.`,
    '',
    `Amount refunded: ${amount} of the ${formatMoney(payment.amount_cents)} you paid`,
    `Refunded to: ${payment.instrument}`,
    `Date: ${formatDateTime((refund.processed_at ?? new Date()).toISOString(), business.time_zone)} (${business.time_zone})`,
    `Reference: ${reference}`,
    `Refund: ${refund.id}`,
    '',
    payment.method === 'card'
      ? 'Card refunds usually reach your statement within 5 to 10 business days.'
      : 'Bank refunds usually reach your account within a few business days.',
  ];
  return {
    about: { businessId: request.business_id, requestId: request.id },
    to,
    subject: `Refund: ${amount} from ${business.business_name} (${reference})`,
    text: `${lines.join('\n')}\n`,
  };
}
