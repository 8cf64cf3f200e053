import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A report's title, what it covers and on whose clock, its controls (the period) and its downloads. */
export function ReportHeader({
  title,
  covers,
  timeZone,
  controls,
  downloads,
}: {
  title: string;
  covers: string;
  timeZone: string | undefined;
  controls: ReactNode;
  downloads: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={1}>{title}</Title>
        <Text c="dimmed" size="sm">
          {covers}
          {timeZone ? ` · on your business’s calendar and clock (${timeZone})` : ''}
        </Text>
      </div>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group align="flex-end" gap="xs">
          {controls}
        </Group>
        {downloads}
      </Group>
    </Stack>
  );
}
