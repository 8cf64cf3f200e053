import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { CreatePaymentBody, DeclineBody, ErrorResponse, PaymentOutcomeResponse, PublicPayPage, ReceiptParams, ReceiptResponse, type PaymentOutcome } from '@tay/contract';
import type { DB } from '../db/schema';
import { getReceipt } from '../domain/payments/get-receipt';
import { payRequest } from '../domain/payments/pay-request';
import { resumePayment } from '../domain/payments/resume-payment';
import type { PaymentDeps } from '../domain/payments/apply-charge-result';
import { declineRequest, findByPayToken, getPayPage } from '../domain/payment-requests/public-pay-page';
import { withIdempotency } from '../lib/idempotency';

const TokenParams = z.object({ token: z.string().min(1).max(200) });
const errors = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };
const Ok = z.object({ status: z.literal('Success'), data: PublicPayPage });

/** The payer's side (no sign-in): `/api/public/pay/:token…`, reached from the link in the e-mail. */
export const publicPayRoutes: FastifyPluginAsyncZod<{ db: Kysely<DB>; payments: Omit<PaymentDeps, 'log'> }> = async (app, { db, payments }) => {
  app.get(
    '/api/public/pay/:token',
    { schema: { tags: ['hosted payment page'], summary: 'What the payer is asked to pay', params: TokenParams, response: { 200: Ok, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'Success' as const, data: await getPayPage(db, request.params.token) };
    },
  );

  app.post(
    '/api/public/pay/:token/decline',
    { schema: { tags: ['hosted payment page'], summary: 'The payer declines the request, with a reason', params: TokenParams, body: DeclineBody, response: { 200: Ok, ...errors } } },
    async (request) => ({ status: 'Success' as const, data: await declineRequest(db, request.params.token, request.body.reason) }),
  );

  app.post(
    '/api/public/pay/:token/payments',
    {
      schema: {
        tags: ['hosted payment page'],
        summary: 'The payer pays with a processor token (card or bank account); honours Idempotency-Key',
        description:
          'A retry with the same Idempotency-Key and body answers with the payment the first try made, even when that try never answered (503, or no answer at all); it never pays twice.',
        params: TokenParams,
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: CreatePaymentBody,
        response: { 201: PaymentOutcomeResponse, ...errors, 503: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { row } = await findByPayToken(db, request.params.token);
      const deps = { ...payments, log: request.log };
      const paid = (data: PaymentOutcome) => ({ status: 201, body: { status: 'Success' as const, data } });
      const result = await withIdempotency({
        db,
        scope: `pay:${row.id}`,
        key: request.headers['idempotency-key'],
        request: request.body,
        // The key remembers the payment in the transaction that creates it, so a retry after a
        // crash finishes that payment and reports it instead of paying again.
        run: async (progress) => paid(await payRequest({ ...deps, request: row, body: request.body, onPaymentCreated: (trx, paymentId) => progress.record(trx, paymentId) })),
        resume: async (paymentId, { takenOver }) => {
          const outcome = await resumePayment(deps, { request: row, paymentId, processorToken: request.body.processorToken, mayCharge: takenOver });
          return outcome && paid(outcome);
        },
      });
      reply.header('cache-control', 'no-store');
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status).send(result.body);
    },
  );

  app.get(
    '/api/public/pay/:token/receipt/:paymentId',
    { schema: { tags: ['hosted payment page'], summary: 'The receipt of a processed payment', params: ReceiptParams, response: { 200: ReceiptResponse, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'Success' as const, data: await getReceipt({ db, token: request.params.token, paymentId: request.params.paymentId }) };
    },
  );
};
