import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { CreatePaymentBody, DeclineBody, ErrorResponse, PaymentOutcomeResponse, PublicPayPage, ReceiptParams, ReceiptResponse } from '@tay/contract';
import type { DB } from '../db/schema';
import { getReceipt } from '../domain/payments/get-receipt';
import { payRequest } from '../domain/payments/pay-request';
import type { PaymentDeps } from '../domain/payments/apply-charge-result';
import { declineRequest, findByPayToken, getPayPage } from '../domain/requests/public-pay-page';
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
        params: TokenParams,
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: CreatePaymentBody,
        response: { 201: PaymentOutcomeResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { row } = await findByPayToken(db, request.params.token);
      const result = await withIdempotency({
        db,
        scope: `pay:${row.id}`,
        key: request.headers['idempotency-key'],
        request: request.body,
        run: async () => ({
          status: 201,
          body: { status: 'Success' as const, data: await payRequest({ ...payments, log: request.log, request: row, body: request.body }) },
        }),
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
