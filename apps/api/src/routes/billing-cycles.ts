import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { billingCycleEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import {
  createBillingCycle,
  deleteBillingCycle,
  exportBillingCycles,
  getBillingCycle,
  listBillingCycles,
  listBillingRuns,
  setBillingCycleStatus,
  updateBillingCycle,
} from '../domain/billing-cycles/cycles';
import { runBillingCycleNow } from '../domain/billing-cycles/run-cycle';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import type { Jobs } from '../jobs/queue';

/** Billing cycles of the student template (`packages/contract/src/students/billing-cycles.ts`, ADR 036). */
export const billingCycleRoutes: FastifyPluginAsync<{ db: Kysely<DB>; jobs: Pick<Jobs, 'send'> }> = async (app, { db, jobs }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listBillingCycles(db, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportBillingCycles(db, { business, query }), `billing-cycles-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createBillingCycle(db, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getBillingCycle(db, { business, cycleId: params.cycleId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updateBillingCycle(db, { business, user: actor, cycleId: params.cycleId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteBillingCycle(db, { business, user: actor, cycleId: params.cycleId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, actor, params }) =>
    success(await setBillingCycleStatus(db, { business, user: actor, cycleId: params.cycleId, activate: true })),
  );
  mount(e.deactivate, async ({ business, actor, params }) =>
    success(await setBillingCycleStatus(db, { business, user: actor, cycleId: params.cycleId, activate: false })),
  );
  mount(e.run, async ({ business, actor, params }) => success(await runBillingCycleNow({ db, jobs }, { business, user: actor, cycleId: params.cycleId })));
  mount(e.runs, async ({ business, params, query }) => success(await listBillingRuns(db, { business, cycleId: params.cycleId, query })));
};
