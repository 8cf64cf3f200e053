import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { refundEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { createRefund, exportRefunds, getRefund, listRefunds, type RefundDeps } from '../domain/refunds/refunds';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

/** Refunds (`packages/contract/src/refunds/refunds.ts`, ADR 051). */
export const refundRoutes: FastifyPluginAsync<{ db: Kysely<DB> } & Omit<RefundDeps, 'db'>> = async (app, { db, processor, jobs, mailer, refundReturnsFee }) => {
  const mount = endpointMounter(app, db);
  const deps: RefundDeps = { db, processor, jobs, mailer, refundReturnsFee };

  // A refund moves money: the same Idempotency-Key and request replay the first answer, never a second refund.
  mount(
    e.create,
    async ({ business, actor, params, body }) => success(await createRefund(deps, { businessId: business.id, requestId: params.requestId, body, actor })),
    { idempotent: { scope: (business) => `refunds:${business.id}`, request: ({ params, body }) => ({ requestId: params.requestId, body }) } },
  );
  mount(e.list, async ({ business, query }) => success(await listRefunds(db, business.id, query)));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportRefunds(db, business.id, business.timeZone, query), `refunds-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.get, async ({ business, params }) => success(await getRefund(db, business.id, params.refundId)));
};
