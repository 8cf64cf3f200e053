import { formatDateTime } from '@tay/contract';
import { insertRequests } from '../payment-requests/insert-requests';
import { userActor } from '../payment-requests/request-context';
import { requestEmail, requestText } from '../payment-requests/request-emails';
import { payLink, payToken, payTokenHash, type RequestRow } from '../payment-requests/request-record';
import { OWN_SOURCE, type RequestSource } from '../payment-requests/request-source';
import { sourceOf } from '../request-sources';
import type { SendContext, SendOutcome } from './batch-kind';

/** One request a batch row sends, its row already checked again. */
export interface RequestToSend {
  line: number;
  id: string;
  /** Who pays and what. */
  values: Pick<
    RequestRow,
    'payer_id' | 'payer_display_name' | 'payer_email' | 'amount_cents' | 'memo' | 'reference' | 'due_date' | 'expires_on' | 'allow_partial' | 'channel'
  >;
  /** What it is made for (ADR 045): a student's charge, a patient's statement; a request for itself otherwise. */
  source?: RequestSource;
  /** The payer's mobile number: an 'sms' request is texted to it. */
  mobile: string | null;
  /** Someone e-mailed the same link too (a student's second guardian). */
  copy?: { display_name: string; email: string } | null;
  /** The timeline's detail of its creation: "From bulk batch …". */
  detail: string;
}

/**
 * Writes a chunk of a batch's requests as sent, set-based in the engine's transaction: made by
 * the one way requests are made (`insertRequests`: their numbers, rows and creations, each one
 * statement), then their sends in the timelines and their e-mails and texts, each one statement.
 * Returns each row's request, in the order given.
 */
export async function insertSentRequests(send: SendContext, items: RequestToSend[]): Promise<SendOutcome[]> {
  const { ctx, trx, business, batchId, user, scheduledFor } = send;
  if (items.length === 0) return [];

  const now = new Date();
  const actor = userActor(user);
  const links = items.map((item) => payToken(ctx.authSecret, item.id, now));
  const rows = await insertRequests(
    trx,
    business.id,
    items.map((item, i) => ({
      id: item.id,
      payer: { id: item.values.payer_id, displayName: item.values.payer_display_name, email: item.values.payer_email },
      amountCents: item.values.amount_cents,
      memo: item.values.memo,
      reference: item.values.reference,
      dueDate: item.values.due_date,
      expiresOn: item.values.expires_on,
      allowPartial: item.values.allow_partial,
      channel: item.values.channel,
      source: item.source ?? OWN_SOURCE,
      batchId,
      createdBy: user.userId,
      actor,
      sent: { at: now, payTokenHash: payTokenHash(links[i]!) },
      // Its timeline says it was made, then sent (below).
      createdAs: 'Draft',
      detail: item.detail,
    })),
  );
  const made = items.map((item, i) => {
    const row = rows[i]!;
    const texted = row.channel === 'sms' && item.mobile ? item.mobile : null;
    return { item, row, link: payLink(ctx.publicUrl, links[i]!), texted, source: sourceOf(row.source_kind) };
  });

  const scheduled = scheduledFor ? ` (scheduled for ${formatDateTime(scheduledFor, business.timeZone)}, ${business.timeZone})` : '';
  const how = (m: (typeof made)[number]) =>
    m.texted ? `Texted to ${m.texted}` : `E-mailed to ${m.row.payer_email}${m.item.copy ? ` and ${m.item.copy.email}` : ''}`;
  await trx
    .insertInto('payment_request_events')
    .values(
      made.map((m) => ({
        business_id: business.id,
        request_id: m.row.id,
        actor_type: actor.type,
        actor_id: actor.id,
        actor_label: actor.label,
        event: 'send',
        from_state: 'Draft' as const,
        to_state: 'Sent' as const,
        detail: `${how(m)}${scheduled}`,
        ip_address: actor.ip ?? null,
      })),
    )
    .execute();

  // The payer's e-mail (and the same link to the copied one, unless it is the same address), or the text.
  const emails = made.flatMap((m) => {
    if (m.texted) return [];
    const mail = requestEmail('request', m.row, business.name, m.link, m.source);
    if (!m.item.copy) return [mail];
    const copyRow = { ...m.row, payer_display_name: m.item.copy.display_name, payer_email: m.item.copy.email };
    const copy = requestEmail('request', copyRow, business.name, m.link, m.source);
    return mail.to === copy.to ? [mail] : [mail, { ...copy, to: m.item.copy.email }];
  });
  const texts = made.flatMap((m) => (m.texted ? [requestText('request', m.row, business.name, m.link, m.texted, m.source)] : []));
  await ctx.mailer.sendMany(emails, texts, trx);
  return made.map((m) => ({ line: m.item.line, requestId: m.row.id }));
}
