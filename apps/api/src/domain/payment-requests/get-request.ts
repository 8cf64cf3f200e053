import type { Kysely } from 'kysely';
import { MAIL_DELIVERY_ATTEMPTS, REQUEST_DETAIL_SOURCE_FIELDS, type EmailDelivery, type PaymentRequestDetail } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { authSecretsOf } from '../../lib/secret-box';
import { sourceOf } from '../request-sources';
import type { RequestContext } from './request-context';
import { toPaymentSummary } from '../payments/payment-record';
import { payLink, sentPayToken, toPaymentRequest } from './request-record';

/** The newest e-mails of a request its detail lists (a reminder schedule sends a handful). */
const REQUEST_EMAILS_SHOWN = 50;

/** Where an outbox row's delivery stands, in the contract's words. */
export function emailDelivery(m: {
  transport: 'outbox' | 'smtp' | 'sms-api';
  status: 'stored' | 'queued' | 'sent' | 'failed';
  attempts: number;
}): EmailDelivery {
  if (m.transport === 'outbox' || m.status === 'stored') return 'outbox';
  if (m.status === 'sent') return 'delivered';
  if (m.status === 'queued') return 'sending';
  return m.attempts >= MAIL_DELIVERY_ATTEMPTS ? 'failed' : 'retrying';
}

/** One request with its timeline (every state change: who, when, what), its payments and its e-mails. */
export async function getRequest({
  db,
  businessId,
  requestId,
  authSecret,
  previousAuthSecrets,
  publicUrl,
}: Pick<RequestContext, 'authSecret' | 'previousAuthSecrets'> & {
  db: Kysely<DB>;
  businessId: string;
  requestId: string;
  publicUrl: string;
}): Promise<PaymentRequestDetail> {
  const row = await db.selectFrom('payment_requests').selectAll().where('business_id', '=', businessId).where('id', '=', requestId).executeTakeFirst();
  if (!row) throw AppError.notFound('Request');
  const [events, payments, emails, batch] = await Promise.all([
    db
      .selectFrom('payment_request_events')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('request_id', '=', requestId)
      .orderBy('id', 'asc')
      .execute(),
    db.selectFrom('payments').selectAll().where('business_id', '=', businessId).where('request_id', '=', requestId).orderBy('created_at', 'asc').execute(),
    db
      .selectFrom('mail_outbox')
      .select(['id', 'channel', 'to_address', 'subject', 'transport', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
      .where('business_id', '=', businessId)
      .where('request_id', '=', requestId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(REQUEST_EMAILS_SHOWN)
      .execute(),
    row.batch_id
      ? db.selectFrom('batches').select(['id', 'file_name']).where('business_id', '=', businessId).where('id', '=', row.batch_id).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  // The link the payer was sent; none before sending, or when the secret that made it is gone (ADR 018).
  const token =
    row.pay_token_hash && row.sent_at ? sentPayToken(authSecretsOf({ authSecret, previousAuthSecrets }), row.id, row.sent_at, row.pay_token_hash) : null;
  return {
    ...toPaymentRequest(row),
    payLink: token ? payLink(publicUrl, token) : '',
    timeline: events.map((e) => ({
      at: e.created_at.toISOString(),
      actor: e.actor_label,
      event: e.event,
      fromState: e.from_state,
      toState: e.to_state,
      detail: e.detail,
    })),
    channel: row.channel,
    batch: batch ? { batchId: batch.id, fileName: batch.file_name } : null,
    ...REQUEST_DETAIL_SOURCE_FIELDS,
    ...(sourceOf(row.source_kind).detail?.(row) as Partial<Pick<PaymentRequestDetail, keyof typeof REQUEST_DETAIL_SOURCE_FIELDS>> | undefined),
    emails: emails.map((m) => ({
      messageId: m.id,
      channel: m.channel,
      to: m.to_address,
      subject: m.subject,
      delivery: emailDelivery(m),
      attempts: m.attempts,
      lastError: m.last_error,
      createdAt: m.created_at.toISOString(),
      sentAt: m.sent_at?.toISOString() ?? null,
    })),
    payments: payments.map(toPaymentSummary),
  };
}
