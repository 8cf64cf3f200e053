import { formatMoney, type PaymentReceipt } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { MailMessage } from '../../mail/mailer';
import { referenceNumber, type RequestRow } from '../requests/request-record';
import type { PaymentRow } from './payment-record';

/** The receipt of a processed payment as the payer sees it: no fee (that is the business's cost). */
export async function buildReceipt(db: Executor, request: RequestRow, payment: PaymentRow): Promise<PaymentReceipt> {
  const business = await db.selectFrom('businesses').select('business_name').where('id', '=', request.business_id).executeTakeFirstOrThrow();
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
  };
}

export function receiptEmail(to: string, receipt: PaymentReceipt): MailMessage {
  const amount = formatMoney(receipt.amountCents);
  const date = new Date(receipt.paidAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const lines = [
    `Thank you for your payment to ${receipt.businessName}.`,
    '',
    `Amount paid: ${amount}`,
    `Paid with: ${receipt.methodLabel}`,
    `Date: ${date} UTC`,
    `Reference: ${receipt.referenceNumber}`,
    `Payment: ${receipt.paymentId}`,
    receipt.remainingCents > 0 ? `Still to pay: ${formatMoney(receipt.remainingCents)} of ${formatMoney(receipt.requestAmountCents)}` : 'This request is now paid in full.',
  ];
  if (receipt.method === 'bank_account') lines.push('', 'Bank payments take a few days to reach the business; if your bank returns it, we will tell you.');
  return { to, subject: `Receipt: ${amount} paid to ${receipt.businessName} (${receipt.referenceNumber})`, text: `${lines.join('\n')}\n` };
}
