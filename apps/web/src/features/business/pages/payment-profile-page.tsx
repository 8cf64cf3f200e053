import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useBusiness } from '../api/business-api';
import { BankAccountCard } from '../components/bank-account-card';
import { useReadOnly } from '../components/read-only-notice';
import { SetupPage } from '../components/setup-page';
import { paths } from '@tay/contract';

/** /business/setup/payment/profile: the settlement account as the spec's bank display record. */
export function PaymentProfilePage() {
  const business = useBusiness();
  const readOnly = useReadOnly(business.data, 'business:owner');
  const account = business.data?.bankAccount;
  return (
    <SetupPage
      title="Settlement account"
      description="Payouts of the money you collect go to this account."
      business={business}
      lockNotice={false}
      back={{ to: paths.business.setupPayments, label: 'Back to payments' }}
    >
      {account ? (
        <Stack gap="lg">
          <BankAccountCard account={account} />
          {!readOnly && (
            <Group>
              <Button component={Link} to={paths.business.linkAccount} variant="default">
                Change account
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Text c="dimmed">There is no settlement account yet.</Text>
          <Button component={Link} to={paths.business.setupPayments}>
            Add a bank account
          </Button>
        </Stack>
      )}
    </SetupPage>
  );
}
