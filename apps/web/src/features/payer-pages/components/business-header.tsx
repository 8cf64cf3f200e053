import { Avatar, Group, Text } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The business the payer pays, at the top of a payer's page: its logo (or a shop icon), its name, and a line under it. */
export function BusinessHeader({ name, logoUrl, children }: { name: string; logoUrl: string | null; children?: ReactNode }) {
  return (
    <Group wrap="nowrap">
      <Avatar src={logoUrl} alt={`${name} logo`} size={48} radius="md" color="blue">
        <IconBuildingStore size={24} aria-hidden="true" />
      </Avatar>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
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
