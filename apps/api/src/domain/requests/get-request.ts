import type { Kysely } from 'kysely';
import type { PaymentRequestDetail } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { authSecretsOf } from '../../lib/secret-box';
import { businessForRequests, type RequestContext } from './request-context';
import { payLink, sentPayToken, toPaymentRequest } from './request-record';

/** One request with its timeline (every state change: who, when, what) and its payments. */
export async function getRequest({
  db,
  businessId,
  requestId,
  userId,
  authSecret,
  previousAuthSecrets,
  publicUrl,
}: Pick<RequestContext, 'authSecret' | 'previousAuthSecrets'> & {
  db: Kysely<DB>;
  businessId: string;
  requestId: string;
  userId: string;
  publicUrl: string;
}): Promise<PaymentRequestDetail> {
  await businessForRequests(db, { businessId, userId, access: 'read' });
  const row = await db.selectFrom('payment_requests').selectAll().where('business_id', '=', businessId).where('id', '=', requestId).executeTakeFirst();
  if (!row) throw AppError.notFound('Request');
  const [events, payments] = await Promise.all([
    db
      .selectFrom('payment_request_events')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('request_id', '=', requestId)
      .orderBy('id', 'asc')
      .execute(),
    db
      .selectFrom('payments')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('request_id', '=', requestId)
      .orderBy('created_at', 'asc')
      .execute(),
  ]);
  // The link the payer was sent; none before sending, or when the secret that made it is gone (ADR 018).
  const token = row.pay_token_hash && row.sent_at ? sentPayToken(authSecretsOf({ authSecret, previousAuthSecrets }), row.id, row.sent_at, row.pay_token_hash) : null;
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
    payments: payments.map((p) => ({
      paymentId: p.id,
      method: p.method,
      instrument: p.instrument,
      amountCents: p.amount_cents,
      feeCents: p.fee_cents,
      state: p.state,
      failureReason: p.failure_reason,
      createdAt: p.created_at.toISOString(),
      settledAt: p.settled_at?.toISOString() ?? null,
    })),
  };
}
