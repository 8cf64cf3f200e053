import type { BusinessState, MemberRole } from '@tay/contract';

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
  role: MemberRole;
}
