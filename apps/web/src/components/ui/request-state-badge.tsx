import { Badge, Group } from '@mantine/core';
import { REFUND_STATUS_LABELS, refundStatusOf, type RequestState } from '@tay/contract';

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

/**
 * A request's state with what refunds did to it beside it (ADR 051): "Paid" and "Refunded" or
 * "Partially refunded", in the history's rows and a request's details.
 */
export function RequestStatusBadges({ request }: { request: { transactionState: RequestState; amountPaidCents: number; refundedCents: number } }) {
  const refund = refundStatusOf(request);
  if (!refund) return <StatusBadge state={request.transactionState} />;
  return (
    <Group gap={4} wrap="wrap">
      <StatusBadge state={request.transactionState} />
      <Badge color={refund === 'Refunded' ? 'grape' : 'violet'} variant="outline" radius="sm" data-refund={refund}>
        {REFUND_STATUS_LABELS[refund]}
      </Badge>
    </Group>
  );
}
