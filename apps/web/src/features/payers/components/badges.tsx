import { Badge } from '@mantine/core';
import type { PayerStatus, RequestState, VerificationState } from '@tay/contract';

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

const REQUEST_COLORS: Record<RequestState, string> = {
  Draft: 'gray',
  Pending: 'indigo',
  Sent: 'blue',
  Resent: 'blue',
  Accepted: 'cyan',
  Paid: 'teal',
  PartiallyPaid: 'lime',
  Error: 'red',
  Rejected: 'orange',
  Expired: 'gray',
  Withdrawn: 'dark',
  Cancelled: 'dark',
};

/** A request's transactionState (spec §3) on the payer's transactions page. */
export function RequestStateBadge({ state }: { state: RequestState }) {
  return (
    <Badge color={REQUEST_COLORS[state]} variant="light" radius="sm">
      {state}
    </Badge>
  );
}
