import { useBusiness } from '../api/business-api';
import { BankAccountForm } from '../components/bank-account-form';
import { useReadOnly } from '../components/read-only-notice';
import { SetupPage } from '../components/setup-page';
import { paths } from '@tay/contract';

/** /business/setup/payment/add-bank-account: typed routing number (checksum-checked) and account number twice. */
export function AddBankAccountPage() {
  const business = useBusiness();
  // The settlement account is the owners' (ADR 031).
  const readOnly = useReadOnly(business.data, 'business:owner');
  return (
    <SetupPage
      title="Enter account details"
      description="The account the money you collect is paid out to. We only ever show its last 4 digits."
      business={business}
      access="business:owner"
      back={{ to: paths.business.setupPayments, label: 'Back to payments' }}
    >
      <BankAccountForm disabled={readOnly} />
    </SetupPage>
  );
}
