import { Badge } from '@mantine/core';
import type { RequestState } from '@tay/contract';

const COLORS: Record<RequestState, string> = {
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

/** A request's transactionState as a status badge (docs/product.md §3), wherever requests are listed. */
export function StatusBadge({ state }: { state: RequestState }) {
  return (
    <Badge color={COLORS[state]} variant="light" radius="sm" data-state={state}>
      {state}
    </Badge>
  );
}
