import type { Balances } from '@tay/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { getBalances } from './get-balances';

/** Balances for a member of the business; anyone else gets 404, as if it did not exist. */
export async function getBusinessBalances({ db, businessId }: { db: Kysely<DB>; businessId: string }): Promise<Balances> {
  return getBalances(db, businessId);
}
