import { useBusiness } from '../api/business-api';
import { BankAccountForm } from '../components/bank-account-form';
import { isReadOnly } from '../components/read-only-notice';
import { SetupPage } from '../components/setup-page';
import { paths } from '@tay/contract';

/** /business/setup/payment/add-bank-account: typed routing number (checksum-checked) and account number twice. */
export function AddBankAccountPage() {
  const business = useBusiness();
  return (
    <SetupPage
      title="Enter account details"
      description="The account the money you collect is paid out to. We only ever show its last 4 digits."
      business={business}
      back={{ to: paths.business.setupPayments, label: 'Back to payments' }}
    >
      <BankAccountForm disabled={isReadOnly(business.data)} />
    </SetupPage>
  );
}
