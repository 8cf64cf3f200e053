import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { platformEndpoints as e } from '@tay/contract';
import type { Database } from '../db/database';
import { endpointMounter } from '../http/mount';
import { AppError } from '../lib/app-error';

/** Liveness and readiness, for the load balancer and the orchestrator: never rate limited. */
export const healthRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  const mount = endpointMounter(app, database.db);
  const unlimited = { config: { rateLimit: false as const } };
  mount(e.health, async () => ({ status: 'ok' as const }), unlimited);
  mount(
    e.ready,
    async ({ request }) => {
      try {
        await sql`SELECT 1`.execute(database.db);
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable');
        throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
      }
      return { status: 'ok' as const, database: database.kind };
    },
    unlimited,
  );
};
