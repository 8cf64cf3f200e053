import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { ErrorResponse, HealthResponse, ReadyResponse } from '@tay/contract';
import type { Database } from '../db/database';
import { AppError } from '../lib/app-error';

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      config: { rateLimit: false },
      schema: { tags: ['system'], summary: 'Liveness: the process answers', response: { 200: HealthResponse } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/ready',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers',
        response: { 200: ReadyResponse, 503: ErrorResponse },
      },
    },
    async (request) => {
      try {
        await sql`SELECT 1`.execute(database.db);
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable');
        throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
      }
      return { status: 'ok' as const, database: database.kind };
    },
  );
};
