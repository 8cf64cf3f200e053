import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { searchEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { searchBusiness } from '../domain/search/search-business';
import { endpointMounter, success } from '../http/mount';

/** The header's search (`packages/contract/src/search/endpoints.ts`). */
export const searchRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);
  mount(e.search, async ({ business, query }) => success(await searchBusiness(db, { business, q: query.q })));
};
