import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { Business } from '@tay/contract';

/** Details cannot change while they are under review or while the business is disabled. */
export function ReadOnlyNotice({ business }: { business: Business | undefined }) {
  if (!business || (business.businessState !== 'Pending' && business.businessState !== 'Disabled')) return null;
  return (
    <Alert color="gray" icon={<IconLock />} mb="md" title="These details are locked">
      {business.businessState === 'Pending'
        ? 'Your business is under review; you can change its details again once the review is done.'
        : 'Your business is disabled; contact Tay support to change its details.'}
    </Alert>
  );
}

export function isReadOnly(business: Business | undefined): boolean {
  return business?.businessState === 'Pending' || business?.businessState === 'Disabled';
}
