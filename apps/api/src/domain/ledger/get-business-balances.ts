import type { Balances } from '@tay/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { requireMember } from '../businesses/access';
import { getBalances } from './get-balances';

/** Balances for a member of the business; anyone else gets 404, as if it did not exist. */
export async function getBusinessBalances({ db, businessId, userId }: { db: Kysely<DB>; businessId: string; userId: string }): Promise<Balances> {
  await requireMember(db, { businessId, userId, access: 'read' });
  return getBalances(db, businessId);
}
