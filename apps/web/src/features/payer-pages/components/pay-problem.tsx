import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A payer's page that cannot be shown (an unknown link or code): what went wrong, said plainly, as the page's heading. */
export function PayProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack align="center" ta="center">
        <IconAlertCircle size={40} color="var(--mantine-color-orange-6)" aria-hidden="true" />
        <Title order={1} fz="xl">
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
      </Stack>
    </Paper>
  );
}
