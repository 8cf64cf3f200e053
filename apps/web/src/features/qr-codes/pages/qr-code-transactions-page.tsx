import { Button, Stack } from '@mantine/core';
import { IconDownload, IconList } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { qrCodeDownloadHref, qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useQrCode } from '../api/qr-codes-api';
import { QrPageHeading } from '../components/qr-page-heading';
import { qrAmountText } from '../qr-amount';

/** Whose payments the page lists: one code's (with its label once loaded), or every code's (`any`). */
export interface QrPaymentsScope {
  qrId: string;
  label: string | null;
}

/**
 * /business/payment/qrcode/transactions: the payments taken through QR codes, as the transaction
 * history lists them (the payments feature's list, handed in by the route as `requests`).
 * `?qrcodeid=` lists one code's, under a heading naming it; without it, every code's.
 */
export function QrCodeTransactionsPage({ requests }: { requests: (scope: QrPaymentsScope) => ReactNode }) {
  const [params] = useSearchParams();
  // `any` is the list's word for every code, not a code's id.
  const asked = params.get('qrcodeid');
  const qrId = asked && asked !== 'any' ? asked : null;
  const code = useQrCode(qrId);
  const c = code.data;
  const title = !qrId ? 'Payments through QR codes' : c ? `Payments through “${c.label}”` : 'Payments through a QR code';
  useDocumentTitle(title);

  return (
    <Stack gap="md">
      <QrPageHeading
        title={title}
        status={c?.displayStatus}
        line={
          <>
            {!qrId
              ? 'Every payment taken through any of your codes, and where each one stands.'
              : c
                ? `${qrAmountText(c)} · ${c.payments} payment${c.payments === 1 ? '' : 's'} from ${c.scans} scan${c.scans === 1 ? '' : 's'}`
                : 'Every payment taken through this code.'}
          </>
        }
        actions={
          <>
            {qrId ? (
              <>
                <Button variant="default" component={Link} to={qrCodeTransactionsHref()} leftSection={<IconList size={16} />}>
                  Every code’s payments
                </Button>
                <Button variant="default" component={Link} to={qrCodeDownloadHref(qrId)} leftSection={<IconDownload size={16} />}>
                  View/Download
                </Button>
              </>
            ) : (
              <Button variant="default" component={Link} to={paths.payments.qrCodes} leftSection={<IconList size={16} />}>
                All QR codes
              </Button>
            )}
          </>
        }
      />
      {qrId && code.error ? (
        <LoadError title="We could not load this QR code" error={code.error} onRetry={() => void code.refetch()} />
      ) : (
        requests({ qrId: qrId ?? 'any', label: c?.label ?? null })
      )}
    </Stack>
  );
}
