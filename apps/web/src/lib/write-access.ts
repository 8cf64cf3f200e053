import { roleAllows, type Access, type UserBusinessSummary } from '@tay/contract';
import { useSession } from './session';

/** What a page changes: the business's requests to pay, or its payers. */
export type WriteArea = 'requests' | 'payers';

export type WriteAccess = { allowed: true } | { allowed: false; title: string; reason: string };

/**
 * Whether the person may change the business's requests or payers, and if not, why — the API's
 * own rule (an owner or admin of an Approved business) and its words, so the page says before a
 * click what the server would answer after it.
 */
export function writeAccess(business: Pick<UserBusinessSummary, 'businessState' | 'role'> | undefined, area: WriteArea): WriteAccess {
  const requests = area === 'requests';
  if (!business) {
    return { allowed: false, title: 'No business yet', reason: 'Create your business first.' };
  }
  // The permission table the API enforces (packages/contract/src/common/endpoint.ts).
  if (!roleAllows(business.role, 'business:operate')) {
    return {
      allowed: false,
      title: 'View only',
      reason: requests
        ? 'Your role in this business is view only: you can read and export requests, not create or change them.'
        : 'Your role in this business is view only: you can read and export payers, not add or change them.',
    };
  }
  if (business.businessState === 'Approved') return { allowed: true };
  if (business.businessState === 'Disabled') {
    return {
      allowed: false,
      title: 'Your business is disabled',
      reason: requests
        ? 'This business is disabled, so it cannot request payments. Contact Tay support.'
        : 'Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.',
    };
  }
  return {
    allowed: false,
    title: requests ? 'Requests open once your business is approved' : 'Payers open once your business is approved',
    reason: requests
      ? 'Requests to pay can be created and sent once your business is approved.'
      : 'Payers can be added or changed once your business is approved. Finish and submit your business setup first.',
  };
}

/** `writeAccess` for the person's selected business. */
export function useWriteAccess(area: WriteArea): WriteAccess {
  return writeAccess(useSession().business, area);
}

/** Whether the selected business's role allows an access level (the Team and Audit pages, the bank account). */
export function useRoleAllows(access: Access): boolean {
  const business = useSession().business;
  return business ? roleAllows(business.role, access) : false;
}
