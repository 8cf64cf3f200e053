import { Badge } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { Link } from 'react-router';
import { qrCodeTransactionsHref } from '../../../lib/qr-code-paths';

/** The QR code a payment came through, as a small badge that opens that code's payments. */
export function QrCodeBadge({ qrCodeId, label }: { qrCodeId: string; label: string | null }) {
  const name = label ?? 'QR code';
  return (
    <Badge
      component={Link}
      to={qrCodeTransactionsHref(qrCodeId)}
      variant="light"
      color="cyan"
      radius="sm"
      leftSection={<IconQrcode size={12} aria-hidden="true" />}
      style={{ cursor: 'pointer', textTransform: 'none' }}
      aria-label={`Paid through QR code ${name}`}
    >
      {name}
    </Badge>
  );
}
