import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { balanceEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { getBusinessBalances } from '../domain/ledger/get-business-balances';
import { endpointMounter, success } from '../http/mount';

/** The business's balances: pending, available, collected and fees, derived from the ledger. */
export const balanceRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  endpointMounter(app, db)(e.get, async ({ business }) => success(await getBusinessBalances({ db, businessId: business.id })));
};
