import { roleAllows, type Business, type MemberRole } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { loadBusiness } from './business-record';

/**
 * One business, for one of its members (others get 404). The owners' dates of birth and SSN
 * digits are for those who manage the business (owners and admins); a member or a viewer gets
 * null in their place.
 */
export async function getBusiness({ db, businessId, role }: { db: Executor; businessId: string; role: MemberRole }): Promise<Business> {
  const business = await loadBusiness(db, businessId);
  if (roleAllows(role, 'business:write')) return business;
  return { ...business, owners: business.owners.map((o) => ({ ...o, dateOfBirth: null, ssnLast4: null })) };
}
