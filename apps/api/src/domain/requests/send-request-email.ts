import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { RequestContext } from './request-context';
import { requestEmail, type RequestEmailKind } from './request-emails';
import { payLink, payToken, payTokenHash, type RequestRow } from './request-record';

/**
 * The request with its payer's current name and address, copied onto it as it is e-mailed: a
 * request goes where the payer is now, not where they were when it was made (the business may
 * have corrected the address since). What each e-mail went to stays in the timeline.
 */
export async function withCurrentPayer<T extends RequestRow>(trx: Transaction<DB>, row: T): Promise<T> {
  const payer = await trx
    .selectFrom('payers')
    .select(['display_name', 'email'])
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.payer_id)
    .executeTakeFirstOrThrow();
  if (payer.email === row.payer_email && payer.display_name === row.payer_display_name) return row;
  await trx
    .updateTable('payment_requests')
    .set({ payer_display_name: payer.display_name, payer_email: payer.email })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .execute();
  return { ...row, payer_display_name: payer.display_name, payer_email: payer.email };
}

/**
 * Makes a fresh payer link for the request (the previous one stops working) and queues the
 * e-mail with it to the payer's current address, both inside the caller's transaction. Returns
 * the new sent-at time, which the caller's state transition records (the link is derived from
 * it), and the address it went to, for the timeline.
 */
export async function issueLinkAndEmail(
  ctx: RequestContext,
  trx: Transaction<DB>,
  row: RequestRow,
  businessName: string,
  kind: RequestEmailKind,
): Promise<{ sentAt: Date; sentTo: string }> {
  const current = await withCurrentPayer(trx, row);
  const sentAt = new Date();
  const token = payToken(ctx.authSecret, row.id, sentAt);
  await trx
    .updateTable('payment_requests')
    .set({ pay_token_hash: payTokenHash(token) })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .execute();
  await ctx.mailer.send(requestEmail(kind, current, businessName, payLink(ctx.publicUrl, token)), trx);
  return { sentAt, sentTo: current.payer_email };
}
