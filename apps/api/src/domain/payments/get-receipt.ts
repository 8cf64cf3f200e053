import type { PaymentReceipt } from '@tay/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { findByPayToken } from '../payment-requests/public-pay-page';
import { buildReceipt } from './receipt';

/** The receipt of a payment made through this payer link; only processed (or later returned) payments have one. */
export async function getReceipt({ db, token, paymentId }: { db: Kysely<DB>; token: string; paymentId: string }): Promise<PaymentReceipt> {
  const { row: request } = await findByPayToken(db, token);
  const payment = await db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', request.business_id)
    .where('request_id', '=', request.id)
    .where('id', '=', paymentId)
    .where('state', 'in', ['Processed', 'Returned'])
    .executeTakeFirst();
  if (!payment) throw AppError.notFound('Receipt');
  return buildReceipt(db, request, payment);
}
