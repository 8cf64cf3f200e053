import { Badge } from '@mantine/core';
import { RECEIVER_REVIEW_LABELS, type ReceiverAddedVia } from '@tay/contract';

/**
 * A receiver a member or a check-in added, until an owner or admin reviews them (nothing when
 * reviewed): Manage Receivers, an event's check-ins and the payout approval queue show it.
 */
export function ReceiverReviewBadge({ reviewed, addedVia }: { reviewed: boolean; addedVia?: ReceiverAddedVia | undefined }) {
  if (reviewed) return null;
  return (
    <Badge color="orange" variant="light" style={{ whiteSpace: 'normal', height: 'auto' }}>
      {addedVia ? RECEIVER_REVIEW_LABELS[addedVia] : 'New receiver, not reviewed'}
    </Badge>
  );
}
