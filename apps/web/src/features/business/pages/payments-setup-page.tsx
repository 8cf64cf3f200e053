import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingBank, IconKeyboard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useBusiness } from '../api/business-api';
import { BankAccountCard } from '../components/bank-account-card';
import { useReadOnly } from '../components/read-only-notice';
import { SetupPage } from '../components/setup-page';
import { paths } from '@tay/contract';

/** /business/setup/payments: the settlement account, and the two ways to add one. */
export function PaymentsSetupPage() {
  const business = useBusiness();
  const account = business.data?.bankAccount;
  const readOnly = useReadOnly(business.data);
  return (
    <SetupPage title="Payments" description="Where the money you collect is paid out." business={business}>
      <Stack gap="lg">
        {account ? (
          <>
            <BankAccountCard account={account} />
            <Group>
              <Button component={Link} to={paths.business.paymentProfile} variant="default">
                View settlement account
              </Button>
            </Group>
          </>
        ) : (
          <Text c="dimmed">No settlement account yet. Add one to be able to submit your business.</Text>
        )}
        {!readOnly && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Card withBorder radius="md" padding="lg">
              <Stack gap="xs">
                <ThemeIcon variant="light" radius="xl">
                  <IconBuildingBank size={18} />
                </ThemeIcon>
                <Text fw={600}>Link your bank</Text>
                <Text size="sm" c="dimmed">
                  Find your bank in our directory; we fill in its routing number.
                </Text>
                <Button component={Link} to={paths.business.linkAccount} w="fit-content" mt="xs">
                  {account ? 'Link another bank' : 'Link your bank'}
                </Button>
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="lg">
              <Stack gap="xs">
                <ThemeIcon variant="light" radius="xl" color="gray">
                  <IconKeyboard size={18} />
                </ThemeIcon>
                <Text fw={600}>Enter account details</Text>
                <Text size="sm" c="dimmed">
                  Type the routing and account numbers from a cheque or your bank.
                </Text>
                <Button component={Link} to={paths.business.addBankAccount} variant="default" w="fit-content" mt="xs">
                  Enter account details
                </Button>
              </Stack>
            </Card>
          </SimpleGrid>
        )}
      </Stack>
    </SetupPage>
  );
}
