import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { payoutEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import type { ScopedBusiness } from '../domain/businesses/business-scope';
import type { PayoutDeps } from '../domain/payouts/approve-payouts';
import {
  approveBatch,
  approveOne,
  cancelOne,
  createPayout,
  deletePayout,
  exportPayouts,
  getPayout,
  getPayoutSettings,
  listPayouts,
  payoutSummary,
  rejectBatch,
  rejectOne,
  submitOne,
  updatePayout,
  updatePayoutSettings,
} from '../domain/payouts/payouts';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { withIdempotency } from '../lib/idempotency';
import type { AuthSession } from '../plugins/authenticate';

const acting = (session: AuthSession) => ({ userId: session.user.id, email: session.user.email, ip: session.user.ip });

/** Payouts (`packages/contract/src/payouts/payouts.ts`, ADR 035): every endpoint needs payouts enabled. */
export const payoutRoutes: FastifyPluginAsync<{ db: Kysely<DB> } & PayoutDeps> = async (app, { db, jobs, payoutFeeCents }) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, jobs, payoutFeeCents };

  /**
   * Money-moving commands honour `Idempotency-Key` as the request create does: the same key and
   * request replay the stored answer; the same key with another request is refused (422).
   */
  async function idempotent<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    business: ScopedBusiness,
    what: unknown,
    status: number,
    run: () => Promise<T>,
  ): Promise<FastifyReply> {
    const result = await withIdempotency({
      db,
      scope: `payouts:${business.id}`,
      key: request.headers['idempotency-key'] as string | undefined,
      request: what,
      run: async () => ({ status, body: success(await run()) }),
    });
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(result.status).send(result.body);
  }

  mount(e.list, async ({ business, query }) => success(await listPayouts(ctx, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportPayouts(ctx, { business, query }), `payouts-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.summary, async ({ business }) => success(await payoutSummary(ctx, { business })));
  mount(e.create, async ({ business, session, body, request, reply }) =>
    idempotent(request, reply, business, { op: 'create', body }, 201, () => createPayout(ctx, { business, user: acting(session), body })),
  );
  mount(e.get, async ({ business, params }) => success(await getPayout(ctx, { business, payoutId: params.payoutId })));
  mount(e.update, async ({ business, session, params, body }) =>
    success(await updatePayout(ctx, { business, user: acting(session), payoutId: params.payoutId, body })),
  );
  mount(e.remove, async ({ business, session, params, reply }) => {
    await deletePayout(ctx, { business, user: acting(session), payoutId: params.payoutId });
    return reply.status(204).send();
  });
  mount(e.submit, async ({ business, session, params, body, request, reply }) =>
    idempotent(request, reply, business, { op: 'submit', payoutId: params.payoutId }, 200, () =>
      submitOne(ctx, { business, user: acting(session), payoutId: params.payoutId, confirmedAmountCents: body?.confirmedAmountCents ?? null }),
    ),
  );
  mount(e.approve, async ({ business, session, params, request, reply }) =>
    idempotent(request, reply, business, { op: 'approve', payoutId: params.payoutId }, 200, () =>
      approveOne(ctx, { business, user: acting(session), payoutId: params.payoutId }),
    ),
  );
  mount(e.reject, async ({ business, session, params, body }) =>
    success(await rejectOne(ctx, { business, user: acting(session), payoutId: params.payoutId, reason: body.reason })),
  );
  mount(e.cancel, async ({ business, session, params }) => success(await cancelOne(ctx, { business, user: acting(session), payoutId: params.payoutId })));
  mount(e.approveBatch, async ({ business, session, body, request, reply }) =>
    idempotent(request, reply, business, { op: 'approve-batch', batchId: body.batchId }, 200, async () => ({
      payouts: await approveBatch(ctx, { business, user: acting(session), batchId: body.batchId }),
    })),
  );
  mount(e.rejectBatch, async ({ business, session, body }) =>
    success({ payouts: await rejectBatch(ctx, { business, user: acting(session), batchId: body.batchId, reason: body.reason }) }),
  );
  mount(e.getSettings, async ({ business }) => success(await getPayoutSettings(ctx, { business })));
  mount(e.updateSettings, async ({ business, session, body }) =>
    success(await updatePayoutSettings(ctx, { business, user: acting(session), approvalRequired: body.approvalRequired })),
  );
};
