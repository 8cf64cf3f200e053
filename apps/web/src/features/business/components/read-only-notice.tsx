import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { Access, Business } from '@tay/contract';
import { useRoleAllows } from '../../../lib/endpoint-access';

/** Details cannot change while they are under review or while the business is disabled. */
export function isLocked(business: Business | undefined): boolean {
  return business?.businessState === 'Pending' || business?.businessState === 'Disabled';
}

/**
 * Whether a setup page's fields are read-only: locked by the business's state, or beyond the
 * person's role (`business:write` for the business's details, `business:owner` for the settlement
 * account) — the permission table the API enforces.
 */
export function useReadOnly(business: Business | undefined, access: Access = 'business:write'): boolean {
  const allowed = useRoleAllows(access);
  return isLocked(business) || !allowed;
}

/** Says why a setup page cannot be changed: the business's state, or the person's role. */
export function ReadOnlyNotice({ business, access = 'business:write' }: { business: Business | undefined; access?: Access }) {
  const allowed = useRoleAllows(access);
  if (business && !allowed) {
    return (
      <Alert color="gray" icon={<IconLock />} mb="md" title="View only">
        {access === 'business:owner'
          ? 'Only an owner of this business can change its settlement bank account.'
          : 'Only an owner or admin of this business can change its details.'}
      </Alert>
    );
  }
  if (!business || !isLocked(business)) return null;
  return (
    <Alert color="gray" icon={<IconLock />} mb="md" title="These details are locked">
      {business.businessState === 'Pending'
        ? 'Your business is under review; you can change its details again once the review is done.'
        : 'Your business is disabled; contact Tay support to change its details.'}
    </Alert>
  );
}
