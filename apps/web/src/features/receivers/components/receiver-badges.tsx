import { Badge } from '@mantine/core';
import { RECEIVER_STATUS_LABELS, RECEIVER_VERIFICATION_LABELS, type ReceiverStatus, type ReceiverVerification } from '@tay/contract';

export function ReceiverStatusBadge({ status }: { status: ReceiverStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {RECEIVER_STATUS_LABELS[status]}
    </Badge>
  );
}

export function ReceiverVerificationBadge({ verification }: { verification: ReceiverVerification }) {
  return (
    <Badge color={verification === 'verified' ? 'blue' : 'yellow'} variant="light">
      {RECEIVER_VERIFICATION_LABELS[verification]}
    </Badge>
  );
}
