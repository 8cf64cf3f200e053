import { Badge } from '@mantine/core';
import { QR_STATUS_LABELS, type QrCodeDisplayStatus } from '@tay/contract';

const COLORS: Record<QrCodeDisplayStatus, string> = { active: 'teal', Disabled: 'gray', Expired: 'orange' };

/** A code's status as the list shows it: Active, Disabled, or Expired once its last day has passed. */
export function QrStatusBadge({ status }: { status: QrCodeDisplayStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm" data-status={status}>
      {QR_STATUS_LABELS[status]}
    </Badge>
  );
}
