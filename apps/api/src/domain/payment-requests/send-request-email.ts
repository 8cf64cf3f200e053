import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { sourceOf } from '../request-sources';
import type { RequestContext } from './request-context';
import { requestEmail, requestText, type RequestEmailKind } from './request-emails';
import { payLink, payToken, payTokenHash, type RequestRow } from './request-record';

/**
 * The request with its payer's current name and address, copied onto it as it is e-mailed: a
 * request goes where the payer is now, not where they were when it was made (the business may
 * have corrected the address since). What each message went to stays in the timeline. With the
 * payer's mobile number now, for a request that goes by text message.
 */
export async function withCurrentPayer<T extends RequestRow>(trx: Transaction<DB>, row: T): Promise<T & { payer_mobile: string | null }> {
  const payer = await trx
    .selectFrom('payers')
    .select(['display_name', 'email', 'mobile_number'])
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.payer_id)
    .executeTakeFirstOrThrow();
  if (payer.email === row.payer_email && payer.display_name === row.payer_display_name) return { ...row, payer_mobile: payer.mobile_number };
  await trx
    .updateTable('payment_requests')
    .set({ payer_display_name: payer.display_name, payer_email: payer.email })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .execute();
  return { ...row, payer_display_name: payer.display_name, payer_email: payer.email, payer_mobile: payer.mobile_number };
}

/**
 * Queues the message with the payer's link by the request's channel (ADR 020), inside the
 * caller's transaction: a text message to the payer's mobile number, or an e-mail. A request
 * meant for text messages whose payer has no mobile number any more (removed since it was made)
 * goes by e-mail rather than not at all, and the returned `how` says so for the timeline.
 */
export async function messagePayer(
  ctx: Pick<RequestContext, 'mailer'>,
  trx: Transaction<DB>,
  current: RequestRow & { payer_mobile: string | null },
  businessName: string,
  kind: RequestEmailKind,
  link: string,
): Promise<{ how: string }> {
  const source = sourceOf(current.source_kind);
  if (current.channel === 'sms' && current.payer_mobile) {
    await ctx.mailer.sendText(requestText(kind, current, businessName, link, current.payer_mobile, source), trx);
    return { how: `texted to ${current.payer_mobile}${await messageCopyPayer(ctx, trx, current, businessName, kind, link)}` };
  }
  // A source may send its own e-mail: an invoice's request sends the invoice, and its PDF (ADR 033).
  const email = source.email ? await source.email(trx, current, businessName, kind, link) : requestEmail(kind, current, businessName, link, source);
  await ctx.mailer.send(email, trx);
  const fallback = current.channel === 'sms' ? ' (the payer has no mobile number now, so not by text message)' : '';
  return { how: `e-mailed to ${current.payer_email}${fallback}${await messageCopyPayer(ctx, trx, current, businessName, kind, link)}` };
}

/**
 * A request whose source names a second payer (a student's other guardian, ADR 036) is one
 * request: that payer gets the same message with the same link, by text message when the request
 * goes that way and they have a mobile number, else by e-mail. Nothing for any other request, or
 * when that payer was deactivated since. Returns what the timeline adds (" and e-mailed to …").
 */
export async function messageCopyPayer(
  ctx: Pick<RequestContext, 'mailer'>,
  trx: Transaction<DB>,
  row: RequestRow,
  businessName: string,
  kind: RequestEmailKind,
  link: string,
): Promise<string> {
  const source = sourceOf(row.source_kind);
  const copyPayerId = source.copyPayerId?.(row) ?? null;
  if (!copyPayerId) return '';
  const copy = await trx
    .selectFrom('payers')
    .select(['display_name', 'email', 'mobile_number', 'status'])
    .where('business_id', '=', row.business_id)
    .where('id', '=', copyPayerId)
    .executeTakeFirst();
  if (!copy || copy.status !== 'active') return '';
  const addressed = { ...row, payer_display_name: copy.display_name, payer_email: copy.email };
  if (row.channel === 'sms' && copy.mobile_number) {
    await ctx.mailer.sendText(requestText(kind, addressed, businessName, link, copy.mobile_number, source), trx);
    return ` and texted to ${copy.mobile_number}`;
  }
  await ctx.mailer.send(requestEmail(kind, addressed, businessName, link, source), trx);
  return ` and e-mailed to ${copy.email}`;
}

/** "texted to …" as a timeline entry's opening: "Texted to …". */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Makes a fresh payer link for the request (the previous one stops working) and queues the
 * message with it to the payer, both inside the caller's transaction. Returns the new sent-at
 * time, which the caller's state transition records (the link is derived from it), and how and
 * where it went ("texted to +1…"), for the timeline.
 */
export async function issueLinkAndMessage(
  ctx: RequestContext,
  trx: Transaction<DB>,
  row: RequestRow,
  businessName: string,
  kind: RequestEmailKind,
): Promise<{ sentAt: Date; how: string }> {
  const current = await withCurrentPayer(trx, row);
  const sentAt = new Date();
  const token = payToken(ctx.authSecret, row.id, sentAt);
  await trx
    .updateTable('payment_requests')
    .set({ pay_token_hash: payTokenHash(token) })
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.id)
    .execute();
  const { how } = await messagePayer(ctx, trx, current, businessName, kind, payLink(ctx.publicUrl, token));
  return { sentAt, how };
}
