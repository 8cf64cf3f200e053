import type { Kysely } from 'kysely';
import { ErrorCode, type RequestReceipt } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { ScopedBusiness } from '../businesses/business-scope';
import { referenceNumber } from '../payment-requests/request-record';
import { toReceipt } from './receipt';

/**
 * The business's receipt of one of its requests: each processed (or later returned) payment as
 * the payer's receipt shows it. Members only; another business's request is 404 like a missing one.
 */
export async function getRequestReceipt({ db, business, requestId }: { db: Kysely<DB>; business: ScopedBusiness; requestId: string }): Promise<RequestReceipt> {
  const businessId = business.id;
  const request = await db.selectFrom('payment_requests').selectAll().where('business_id', '=', businessId).where('id', '=', requestId).executeTakeFirst();
  if (!request) throw AppError.notFound('Request');
  const payments = await db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('request_id', '=', requestId)
    .where('state', 'in', ['Processed', 'Returned'])
    .orderBy('processed_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  if (payments.length === 0) {
    throw new AppError(ErrorCode.NotFound, `${referenceNumber(request.number)} has no processed payment yet, so it has no receipt.`);
  }
  return {
    transactionId: request.id,
    referenceNumber: referenceNumber(request.number),
    businessName: business.name,
    timeZone: business.timeZone,
    payerName: request.payer_display_name,
    payerEmail: request.payer_email,
    memo: request.memo,
    reference: request.reference,
    transactionState: request.state,
    requestAmountCents: request.amount_cents,
    amountPaidCents: request.amount_paid_cents,
    remainingCents: request.amount_cents - request.amount_paid_cents,
    payments: payments.map((payment) => toReceipt({ business_name: business.name, time_zone: business.timeZone }, request, payment)),
  };
}
