import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ErrorCode, ErrorResponse } from '@tay/contract';
import type { DB } from '../db/schema';
import { applyProcessorEvent } from '../domain/payments/apply-processor-event';
import { applyPayoutEvent } from '../domain/payouts/send-payout';
import { applyRefundEvent } from '../domain/refunds/refunds';
import { applyDisputeEvent, type DisputeFees } from '../domain/disputes/disputes';
import { AppError } from '../lib/app-error';
import type { Mailer } from '../mail/mailer';
import type { DisputeProcessorEvent, PayoutProcessorEvent, ProcessorEvent, RefundProcessorEvent } from '../processor/port';
import { SIGNATURE_HEADER, verifySignature } from '../processor/signature';

export interface WebhookRoutesOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send' | 'sendText'>;
  webhookSecret: string;
  disputeFees: DisputeFees;
  /** Links in the dispute e-mails. */
  publicUrl: string;
}

const Metadata = z.object({ businessId: z.string().min(1), paymentId: z.string().min(1), requestId: z.string().min(1) });
const EventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.enum(['charge.succeeded', 'charge.settled', 'charge.failed', 'charge.returned']),
  created: z.number().int(),
  data: z.object({
    chargeId: z.string().min(1),
    amountCents: z.number().int(),
    metadata: Metadata,
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
  }),
}) satisfies z.ZodType<ProcessorEvent>;

/** The processor's word on a payout (ADR 035). */
const PayoutEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.enum(['payout.paid', 'payout.returned']),
  created: z.number().int(),
  data: z.object({
    processorPayoutId: z.string().min(1),
    amountCents: z.number().int(),
    metadata: z.object({ businessId: z.string().min(1), payoutId: z.string().min(1) }),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
  }),
}) satisfies z.ZodType<PayoutProcessorEvent>;

/** The processor's word on a refund (ADR 051). */
const RefundEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.enum(['refund.succeeded', 'refund.failed']),
  created: z.number().int(),
  data: z.object({
    processorRefundId: z.string().min(1),
    amountCents: z.number().int(),
    metadata: z.object({ businessId: z.string().min(1), paymentId: z.string().min(1), refundId: z.string().min(1) }),
    failureCode: z.string().optional(),
    failureMessage: z.string().optional(),
  }),
}) satisfies z.ZodType<RefundProcessorEvent>;

/** The processor's word on a dispute of a charge (ADR 051). */
const DisputeEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.enum(['dispute.created', 'dispute.updated', 'dispute.closed']),
  created: z.number().int(),
  data: z.object({
    processorDisputeId: z.string().min(1),
    chargeId: z.string().min(1),
    amountCents: z.number().int().positive(),
    reason: z.string().min(1).max(64),
    status: z.enum(['needs_response', 'under_review', 'won', 'lost']),
    evidenceDueBy: z.number().int(),
    metadata: Metadata,
  }),
}) satisfies z.ZodType<DisputeProcessorEvent>;

/**
 * `POST /api/webhooks/processor`: the processor's signed events (ARCHITECTURE.md §5). The signature
 * covers the exact bytes sent, so this plugin keeps the body as the raw string (its own JSON
 * parser, scoped to this plugin) and parses it only after verifying.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, { db, mailer, webhookSecret, disputeFees, publicUrl }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/webhooks/processor',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Signed events from the payment processor (Tay-Signature: t=…,v1=HMAC-SHA256 of "t.body")',
        response: { 200: z.object({ received: z.literal(true), outcome: z.string() }), 400: ErrorResponse },
      },
    },
    async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = request.headers[SIGNATURE_HEADER];
      const check = verifySignature(webhookSecret, raw, Array.isArray(header) ? header.join(',') : header);
      if (!check.ok) throw new AppError(ErrorCode.BadRequest, check.reason);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        throw new AppError(ErrorCode.BadRequest, 'The webhook body is not JSON.');
      }
      const payout = PayoutEventSchema.safeParse(json);
      if (payout.success) {
        const outcome = await applyPayoutEvent(db, payout.data);
        request.log.info({ eventId: payout.data.id, type: payout.data.type, outcome }, 'processor webhook');
        return { received: true as const, outcome };
      }
      const refund = RefundEventSchema.safeParse(json);
      if (refund.success) {
        const outcome = await applyRefundEvent({ db, mailer }, refund.data);
        request.log.info({ eventId: refund.data.id, type: refund.data.type, outcome }, 'processor webhook');
        return { received: true as const, outcome };
      }
      const dispute = DisputeEventSchema.safeParse(json);
      if (dispute.success) {
        const outcome = await applyDisputeEvent({ db, mailer, fees: disputeFees, publicUrl }, dispute.data);
        request.log.info({ eventId: dispute.data.id, type: dispute.data.type, outcome }, 'processor webhook');
        return { received: true as const, outcome };
      }
      const event = EventSchema.safeParse(json);
      if (!event.success) throw new AppError(ErrorCode.BadRequest, 'The webhook body is not a processor event.');
      const outcome = await applyProcessorEvent({ db, mailer }, event.data);
      request.log.info({ eventId: event.data.id, type: event.data.type, outcome }, 'processor webhook');
      return { received: true as const, outcome };
    },
  );
};
