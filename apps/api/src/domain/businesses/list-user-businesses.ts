import type { UserBusinessSummary } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { summaryOf } from './business-record';

/** The businesses a person belongs to, oldest first: the first one is selected by default (docs/product.md §3). */
export async function listUserBusinesses({ db, userId }: { db: Executor; userId: string }): Promise<UserBusinessSummary[]> {
  const rows = await db
    .selectFrom('business_members as m')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .select(['b.id', 'b.business_name', 'b.state', 'b.payout_enabled', 'b.entity_type', 'b.logo_updated_at', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
  return rows.map(summaryOf);
}
