import { formatDateTime, formatMoney } from '@tay/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Mailer, MailMessage, TextMessage } from '../../mail/mailer';
import { recordEvent } from '../businesses/audit';
import { referenceNumber, type RequestRow } from '../payment-requests/request-record';
import type { PaymentRow } from './payment-record';
import { sourceOf } from '../request-sources';

/** The business as the "payment received" messages name it. */
interface NoticeBusiness {
  id: string;
  business_name: string;
  time_zone: string;
}

/**
 * What else happens when a payment becomes Processed, in the transaction that makes it so: the
 * business's owners and admins hear of it, and a payer who paid through the link e-mailed to
 * them has shown that the address is theirs. The caller runs this once per payment (only on the
 * move from Pending), so a redelivered webhook or a retried job tells no one twice.
 */
export async function afterPaymentProcessed(trx: Executor, mailer: Pick<Mailer, 'send' | 'sendText'>, request: RequestRow, payment: PaymentRow): Promise<void> {
  const business = await trx
    .selectFrom('businesses')
    .select(['id', 'business_name', 'time_zone'])
    .where('id', '=', request.business_id)
    .executeTakeFirstOrThrow();
  await notifyPaymentReceived(trx, mailer, business, request, payment);
  await verifyPayerByPayment(trx, request, payment);
}

/**
 * "Payment received", by e-mail and by text message, to each owner and admin of the business as
 * their notification settings ask (`enrollNotificationViaEmail`, `…ViaMobileNumber` with a mobile
 * number on file). Members only read; they are not told.
 */
async function notifyPaymentReceived(
  trx: Executor,
  mailer: Pick<Mailer, 'send' | 'sendText'>,
  business: NoticeBusiness,
  request: RequestRow,
  payment: PaymentRow,
): Promise<void> {
  const people = await trx
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.mobile_number', 'u.enroll_notification_via_email', 'u.enroll_notification_via_mobile_number'])
    .where('m.business_id', '=', business.id)
    .where('m.role', 'in', ['owner', 'admin'])
    .orderBy('m.created_at')
    .execute();
  for (const person of people) {
    if (person.enroll_notification_via_email) await mailer.send(paymentReceivedEmail(person.email, business, request, payment), trx);
    if (person.enroll_notification_via_mobile_number && person.mobile_number) {
      await mailer.sendText(paymentReceivedText(person.mobile_number, business, request, payment), trx);
    }
  }
}

function remainingLine(request: RequestRow): string {
  const remaining = request.amount_cents - request.amount_paid_cents;
  return remaining > 0 ? `${formatMoney(remaining)} of ${formatMoney(request.amount_cents)} remains to be paid.` : 'The request is now paid in full.';
}

export function paymentReceivedEmail(to: string, business: NoticeBusiness, request: RequestRow, payment: PaymentRow): MailMessage {
  const amount = formatMoney(payment.amount_cents);
  const ref = referenceNumber(request.number);
  const lines = [
    `${request.payer_display_name} paid ${amount} to ${business.business_name} for ${ref}${request.memo ? ` (${request.memo})` : ''}.`,
    `Paid with: ${payment.instrument}`,
    `Date: ${formatDateTime(payment.processed_at ?? payment.created_at, business.time_zone)} (${business.time_zone})`,
    `Fee: ${formatMoney(payment.fee_cents)}`,
    remainingLine(request),
    payment.method === 'bank_account'
      ? 'A bank payment becomes available once it settles, in a few days; the bank may still return it.'
      : 'It becomes available once the card payment settles.',
    'See it under Payments In, in Tay.',
  ];
  return {
    to,
    subject: `Payment received: ${amount} from ${request.payer_display_name} (${ref})`,
    text: `${lines.join('\n')}\n\nYou receive this because notifications by e-mail are on in your Tay profile.\n`,
  };
}

export function paymentReceivedText(to: string, business: NoticeBusiness, request: RequestRow, payment: PaymentRow): TextMessage {
  return {
    to,
    text: `Tay: ${request.payer_display_name} paid ${formatMoney(payment.amount_cents)} to ${business.business_name} for ${referenceNumber(request.number)}. ${remainingLine(request)}`,
  };
}

/**
 * A payer who paid through a request's e-mailed link opened a link sent to that address, which
 * is what the confirmation e-mail asks of them: they count as verified. Only when the request went
 * by e-mail and to the payer's current address (a text message proves the number, not the address,
 * and an address since changed proves nothing about the new one).
 */
async function verifyPayerByPayment(trx: Executor, request: RequestRow, payment: PaymentRow): Promise<void> {
  // Unless its source says the payer typed the address themselves (a QR code's payer): that proves nothing about it.
  if (request.channel !== 'email' || request.payer_id === null || sourceOf(request.source_kind).verifiesPayer === false) return;
  const verified = await trx
    .updateTable('payers')
    .set({ verification: 'verified', verified_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('business_id', '=', request.business_id)
    .where('id', '=', request.payer_id)
    .where('verification', '<>', 'verified')
    .where(sql<boolean>`lower(email) = lower(${request.payer_email})`)
    .returning('id')
    .executeTakeFirst();
  if (!verified) return;
  await recordEvent(trx, {
    businessId: request.business_id,
    actor: { userId: null, label: 'payer' },
    action: 'payer.verified',
    details: { payerId: request.payer_id, via: 'payment', requestId: request.id, reference: referenceNumber(request.number), paymentId: payment.id },
  });
}
