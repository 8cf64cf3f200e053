import type { BusinessState, EntityType, MemberRole } from '@tay/contract';

/**
 * The business a business endpoint acts on, resolved once per request together with the
 * caller's membership (`apps/api/src/http/mount.ts`). A use case that receives one may trust that
 * the caller's access, the endpoint's state rules and its subject rules were checked.
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
