import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { RequestContext } from './request-context';
import { requestEmail, type RequestEmailKind } from './request-emails';
import { payLink, payToken, payTokenHash, type RequestRow } from './request-record';

/**
 * Makes a fresh payer link for the request (the previous one stops working) and queues the
 * e-mail with it, both inside the caller's transaction. Returns the new sent-at time, which the
 * caller's state transition records (the link is derived from it).
 */
export async function issueLinkAndEmail(
  ctx: RequestContext,
  trx: Transaction<DB>,
  row: RequestRow,
  businessName: string,
  kind: RequestEmailKind,
): Promise<Date> {
  const sentAt = new Date();
  const token = payToken(ctx.authSecret, row.id, sentAt);
  await trx
    .updateTable('payment_requests')
    .set({ pay_token_hash: payTokenHash(token) })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .execute();
  await ctx.mailer.send(requestEmail(kind, row, businessName, payLink(ctx.publicUrl, token)), trx);
  return sentAt;
}
