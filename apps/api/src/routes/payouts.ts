import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { payoutEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
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

/** Payouts (`packages/contract/src/payouts/payouts.ts`, ADR 035): every endpoint needs payouts enabled. */
export const payoutRoutes: FastifyPluginAsync<{ db: Kysely<DB> } & PayoutDeps> = async (app, { db, jobs, payoutFeeCents }) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, jobs, payoutFeeCents };

  /**
   * Money-moving commands honour `Idempotency-Key` as the request create does, in one key space per
   * business: the same key and request replay the stored answer; the same key with another is refused (422).
   */
  const scope = (business: { id: string }) => `payouts:${business.id}`;

  mount(e.list, async ({ business, query }) => success(await listPayouts(ctx, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportPayouts(ctx, { business, query }), `payouts-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.summary, async ({ business }) => success(await payoutSummary(ctx, { business })));
  mount(e.create, async ({ business, actor, body }) => success(await createPayout(ctx, { business, user: actor, body })), {
    idempotent: { scope, request: ({ body }) => ({ op: 'create', body }) },
  });
  mount(e.get, async ({ business, params }) => success(await getPayout(ctx, { business, payoutId: params.payoutId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updatePayout(ctx, { business, user: actor, payoutId: params.payoutId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deletePayout(ctx, { business, user: actor, payoutId: params.payoutId });
    return reply.status(204).send();
  });
  mount(
    e.submit,
    async ({ business, actor, params, body }) =>
      success(await submitOne(ctx, { business, user: actor, payoutId: params.payoutId, confirmedAmountCents: body?.confirmedAmountCents ?? null })),
    { idempotent: { scope, request: ({ params }) => ({ op: 'submit', payoutId: params.payoutId }) } },
  );
  mount(e.approve, async ({ business, actor, params }) => success(await approveOne(ctx, { business, user: actor, payoutId: params.payoutId })), {
    idempotent: { scope, request: ({ params }) => ({ op: 'approve', payoutId: params.payoutId }) },
  });
  mount(e.reject, async ({ business, actor, params, body }) =>
    success(await rejectOne(ctx, { business, user: actor, payoutId: params.payoutId, reason: body.reason })),
  );
  mount(e.cancel, async ({ business, actor, params }) => success(await cancelOne(ctx, { business, user: actor, payoutId: params.payoutId })));
  mount(e.approveBatch, async ({ business, actor, body }) => success({ payouts: await approveBatch(ctx, { business, user: actor, batchId: body.batchId }) }), {
    idempotent: { scope, request: ({ body }) => ({ op: 'approve-batch', batchId: body.batchId }) },
  });
  mount(e.rejectBatch, async ({ business, actor, body }) =>
    success({ payouts: await rejectBatch(ctx, { business, user: actor, batchId: body.batchId, reason: body.reason }) }),
  );
  mount(e.getSettings, async ({ business }) => success(await getPayoutSettings(ctx, { business })));
  mount(e.updateSettings, async ({ business, actor, body }) =>
    success(await updatePayoutSettings(ctx, { business, user: actor, approvalRequired: body.approvalRequired })),
  );
};
