import type { Business } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { loadBusiness } from './business-record';

/**
 * One business, for one of its members (others get 404). The owners' dates of birth and SSN
 * digits are for those who manage the business: the endpoint withholds them from a member or a
 * viewer (`withheld` in `packages/contract/src/businesses/endpoints.ts`, applied by the mount).
 */
export async function getBusiness({ db, businessId }: { db: Executor; businessId: string }): Promise<Business> {
  return loadBusiness(db, businessId);
}
