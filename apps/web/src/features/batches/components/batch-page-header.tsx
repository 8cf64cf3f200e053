import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BackLink } from '../../../components/ui/form-page';
import type { BatchFlow } from '../batch-flows';

/** The head of a step of a bulk flow: the way back to its batches, the step's title (with a badge), and where it stands. */
export function BatchPageHeader({ flow, title, badge, subtitle }: { flow: BatchFlow; title: string; badge?: ReactNode; subtitle: string }) {
  return (
    <div>
      <BackLink to={flow.paths.list} label={flow.title} />
      <Group gap="sm" align="center">
        <Title order={1}>{title}</Title>
        {badge}
      </Group>
      <Text c="dimmed" size="sm">
        {subtitle}
      </Text>
    </div>
  );
}
