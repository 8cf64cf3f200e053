import { IconQrcode } from '@tabler/icons-react';
import { qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { LinkBadge } from './link-badge';

/** The QR code a payment came through, as a small badge that opens that code's payments. */
export function QrCodeBadge({ qrCodeId, label }: { qrCodeId: string; label: string | null }) {
  const name = label ?? 'QR code';
  return (
    <LinkBadge to={qrCodeTransactionsHref(qrCodeId)} color="cyan" icon={<IconQrcode size={12} aria-hidden="true" />} label={`Paid through QR code ${name}`}>
      {name}
    </LinkBadge>
  );
}
