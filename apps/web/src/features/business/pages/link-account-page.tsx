import { Avatar, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuildingBank, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { type DirectoryBank, paths } from '@tay/contract';
import { useBankDirectory, useBusiness } from '../api/business-api';
import { BankAccountForm } from '../components/bank-account-form';
import { useReadOnly } from '../components/read-only-notice';
import { SetupPage } from '../components/setup-page';

/** /business/setup/payment/link-account: pick the bank from the (sandbox) bank directory. */
export function LinkAccountPage() {
  const business = useBusiness();
  // The settlement account is the owners' (ADR 031).
  const readOnly = useReadOnly(business.data, 'business:owner');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const banks = useBankDirectory(debounced);
  const [chosen, setChosen] = useState<DirectoryBank | null>(null);

  return (
    <SetupPage
      title="Link your bank"
      description="Choose your bank, then enter the account the money you collect is paid out to."
      business={business}
      access="business:owner"
      back={{ to: paths.business.setupPayments, label: 'Back to payments' }}
    >
      {chosen ? (
        <Stack gap="md">
          <Group justify="space-between">
            <Group>
              <Avatar src={chosen.institutionLogo} alt="" radius="sm" color="blue">
                <IconBuildingBank size={18} />
              </Avatar>
              <div>
                <Text fw={600}>{chosen.bankName}</Text>
                <Text size="sm" c="dimmed">
                  Routing number {chosen.routingNumber}
                </Text>
              </div>
            </Group>
            <Button variant="subtle" onClick={() => setChosen(null)}>
              Choose another bank
            </Button>
          </Group>
          <BankAccountForm directoryId={chosen.directoryId} disabled={readOnly} />
        </Stack>
      ) : (
        <Stack gap="md">
          <TextInput
            label="Find your bank"
            placeholder="Bank name or routing number"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          {banks.error && <Text c="red">The bank directory could not be loaded. {banks.error.message}</Text>}
          {banks.data && banks.data.length === 0 && <Text c="dimmed">No bank matches “{debounced}”. You can enter the account details by hand instead.</Text>}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {(banks.data ?? []).map((bank) => (
              <UnstyledButton key={bank.directoryId} onClick={() => setChosen(bank)} aria-label={`Choose ${bank.bankName}`}>
                <Card withBorder radius="md" padding="md">
                  <Group wrap="nowrap">
                    <Avatar src={bank.institutionLogo} alt="" radius="sm" color="blue">
                      <IconBuildingBank size={18} />
                    </Avatar>
                    <div>
                      <Text fw={600} size="sm">
                        {bank.bankName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {bank.routingNumber}
                      </Text>
                    </div>
                  </Group>
                </Card>
              </UnstyledButton>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </SetupPage>
  );
}
