import type { Executor } from '../../db/executor';
import type { BusinessState, EntityType, MemberRole } from '@tay/contract';

/**
 * The business a business endpoint acts on, resolved once per request together with the
 * caller's membership (`apps/api/src/http/mount.ts`). A use case that receives one may trust that
 * the caller's access and the endpoint's state rules were checked.
 */
export interface ScopedBusiness {
  id: string;
  name: string;
  state: BusinessState;
  timeZone: string;
  defaultExpiryDays: number;
  payoutEnabled: boolean;
  /** The template (`entities[0].entityType`): standard, student or healthCare. */
  entityType: EntityType;
  role: MemberRole;
}

/**
 * Whether the person is still a member of the business: a long-lived stream (live updates)
 * re-checks this now and then, after the endpoint's own check let it in.
 */
export async function isMember(db: Executor, businessId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('business_members').select('role').where('business_id', '=', businessId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
