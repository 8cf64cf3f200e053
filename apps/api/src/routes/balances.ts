import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { BalancesResponse, BusinessIdParams, ErrorResponse } from '@tay/contract';
import type { DB } from '../db/schema';
import { getBusinessBalances } from '../domain/ledger/get-business-balances';
import { requireUser, sessionOf } from '../plugins/authenticate';

/** `GET /api/businesses/:id/balances`: pending, available, collected and fees, derived from the ledger. */
export const balanceRoutes: FastifyPluginAsyncZod<{ db: Kysely<DB> }> = async (app, { db }) => {
  app.get(
    '/api/businesses/:id/balances',
    {
      preHandler: requireUser,
      schema: {
        tags: ['businesses'],
        summary: 'The business’s balances from the ledger (members only)',
        security: [{ bearer: [] }],
        params: BusinessIdParams,
        response: { 200: BalancesResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      status: 'Success' as const,
      data: await getBusinessBalances({ db, businessId: request.params.id, userId: sessionOf(request).user.id }),
    }),
  );
};
