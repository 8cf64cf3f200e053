import type { Business } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { requireMember } from './access';
import { loadBusiness } from './business-record';

/** One business, for one of its members (others get 404). */
export async function getBusiness({ db, businessId, userId }: { db: Executor; businessId: string; userId: string }): Promise<Business> {
  await requireMember(db, { businessId, userId, access: 'read' });
  return loadBusiness(db, businessId);
}
