import { Avatar, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';
import type { BankAccountDisplay } from '@tay/contract';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text ff="monospace">{value}</Text>
    </div>
  );
}

/** Spec §3 bank display record: bank name and logo, masked numbers (the directory id is ours, not the merchant's). */
export function BankAccountCard({ account }: { account: BankAccountDisplay }) {
  return (
    <Stack gap="md">
      <Group>
        <Avatar src={account.institutionLogo} alt={`${account.bankName} logo`} radius="sm" size={48} color="blue">
          <IconBuildingBank size={24} aria-hidden="true" />
        </Avatar>
        <div>
          <Text fw={600}>{account.bankName}</Text>
          <Text size="sm" c="dimmed">
            {account.accountType === 'checking' ? 'Checking' : 'Savings'} · {account.accountHolderName}
          </Text>
        </div>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field label="Account number" value={account.accountNumber} />
        <Field label="Routing number" value={account.routingNumber} />
      </SimpleGrid>
    </Stack>
  );
}
