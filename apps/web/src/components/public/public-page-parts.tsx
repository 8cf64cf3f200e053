import { Avatar, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBuildingStore } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { wrapAnywhere } from '../ui/wrap-anywhere';

/**
 * The business at the top of a page for someone who is not a member (a payer paying, a receiver
 * entering their bank account, an event check-in): its logo (or a shop icon), its name, and a line under it.
 */
export function PublicBusinessHeader({ name, logoUrl, children }: { name: string; logoUrl: string | null; children?: ReactNode }) {
  return (
    <Group wrap="nowrap">
      <Avatar src={logoUrl} alt={`${name} logo`} size={48} radius="md" color="blue">
        <IconBuildingStore size={24} aria-hidden="true" />
      </Avatar>
      <div style={{ ...wrapAnywhere, minWidth: 0 }}>
        <Text fw={700}>{name}</Text>
        {children && (
          <Text size="sm" c="dimmed">
            {children}
          </Text>
        )}
      </div>
    </Group>
  );
}

/** A public page that cannot be shown (an unknown, used-up or expired link or code): what went wrong, said plainly, as the page's heading. */
export function PublicProblem({ title, children }: { title: string; children: ReactNode }) {
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
