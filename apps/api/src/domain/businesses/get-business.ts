import type { Business } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { loadBusiness } from './business-record';

/** One business, for one of its members (others get 404). */
export async function getBusiness({ db, businessId }: { db: Executor; businessId: string }): Promise<Business> {
  return loadBusiness(db, businessId);
}
