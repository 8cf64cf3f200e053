import { Badge } from '@mantine/core';
import { PAYOUT_STATE_LABELS, type PayoutState } from '@tay/contract';

const COLORS: Record<PayoutState, string> = {
  Draft: 'gray',
  Submitted: 'yellow',
  Approved: 'blue',
  Processed: 'green',
  Rejected: 'red',
  Error: 'red',
  Cancelled: 'gray',
};

export function PayoutStateBadge({ state }: { state: PayoutState }) {
  return (
    <Badge color={COLORS[state]} variant="light">
      {PAYOUT_STATE_LABELS[state]}
    </Badge>
  );
}
