import { QrCodeTransactionsPage } from '../../features/qr-codes/pages/qr-code-transactions-page';
import { RequestsTable } from '../../features/payment-requests/components/requests-table';

/** /business/payment/qrcode/transactions: the QR code (QR codes feature) over the payments taken through it (payments feature). */
export function QrCodeTransactionsRoute() {
  return (
    <QrCodeTransactionsPage
      requests={(scope) => (
        <RequestsTable
          view="history"
          caption={scope.qrId === 'any' ? 'Payments through QR codes' : `Payments through ${scope.label ?? 'this QR code'}`}
          qrCode={scope}
        />
      )}
    />
  );
}
