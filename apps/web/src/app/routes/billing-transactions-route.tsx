import { RequestsTable } from '../../features/payment-requests/components/requests-table';
import { BillingTransactionsPage } from '../../features/student-requests/pages/billing-transactions-page';

/** /business/entity/billing/transactions: the billing page (student requests feature) over the history (payments feature). */
export function BillingTransactionsRoute() {
  return (
    <BillingTransactionsPage
      history={({ columns, filters, newRequestPath }) => (
        <RequestsTable view="history" caption="Billing transactions" extraColumns={columns} extraFilters={filters} newRequestPath={newRequestPath} />
      )}
    />
  );
}
