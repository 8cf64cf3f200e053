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
import type { AuthSession } from '../plugins/authenticate';

const acting = (session: AuthSession) => ({ userId: session.user.id, email: session.user.email, ip: session.user.ip });

/** Billing cycles of the student template (`packages/contract/src/students/billing-cycles.ts`, ADR 036). */
export const billingCycleRoutes: FastifyPluginAsync<{ db: Kysely<DB>; jobs: Pick<Jobs, 'send'> }> = async (app, { db, jobs }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listBillingCycles(db, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportBillingCycles(db, { business, query }), `billing-cycles-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.create, async ({ business, session, body, reply }) =>
    reply.status(201).send(success(await createBillingCycle(db, { business, user: acting(session), body }))),
  );
  mount(e.get, async ({ business, params }) => success(await getBillingCycle(db, { business, cycleId: params.cycleId })));
  mount(e.update, async ({ business, session, params, body }) =>
    success(await updateBillingCycle(db, { business, user: acting(session), cycleId: params.cycleId, body })),
  );
  mount(e.remove, async ({ business, session, params, reply }) => {
    await deleteBillingCycle(db, { business, user: acting(session), cycleId: params.cycleId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, session, params }) =>
    success(await setBillingCycleStatus(db, { business, user: acting(session), cycleId: params.cycleId, activate: true })),
  );
  mount(e.deactivate, async ({ business, session, params }) =>
    success(await setBillingCycleStatus(db, { business, user: acting(session), cycleId: params.cycleId, activate: false })),
  );
  mount(e.run, async ({ business, session, params }) =>
    success(await runBillingCycleNow({ db, jobs }, { business, user: acting(session), cycleId: params.cycleId })),
  );
  mount(e.runs, async ({ business, params, query }) => success(await listBillingRuns(db, { business, cycleId: params.cycleId, query })));
};
