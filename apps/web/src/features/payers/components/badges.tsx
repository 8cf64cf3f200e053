import { Badge } from '@mantine/core';
import type { PayerStatus, VerificationState } from '@tay/contract';

export function PayerStatusBadge({ status }: { status: PayerStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light" radius="sm">
      {status === 'active' ? 'Active' : 'Disabled'}
    </Badge>
  );
}

export function VerificationBadge({ verification }: { verification: VerificationState }) {
  return (
    <Badge color={verification === 'verified' ? 'blue' : 'yellow'} variant="light" radius="sm">
      {verification === 'verified' ? 'Verified' : 'Unverified'}
    </Badge>
  );
}
