import { PayerTransactionsPage } from '../../features/payers/pages/payer-transactions-page';
import { RequestsTable } from '../../features/payment-requests/components/requests-table';

/** /business/payment/payers/transactions: the payer (payers feature) over their requests (payments feature). */
export function PayerTransactionsRoute() {
  return (
    <PayerTransactionsPage
      requests={(payer) => (
        <RequestsTable
          view="history"
          caption={`Requests to pay of ${payer.displayName}`}
          payer={{ payerId: payer.payerId, displayName: payer.displayName, active: payer.status === 'active' }}
        />
      )}
    />
  );
}
