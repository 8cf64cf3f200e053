import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { BatchFlow } from '../batch-flows';
import { BatchPageHeader } from './batch-page-header';

/**
 * A step of a bulk flow opened without `?batchId=` (a bookmark, a link cut short): the step's
 * heading and a plain notice leading to the flow's batches, rather than a silent redirect.
 */
export function NoBatchChosen({ flow, title, step }: { flow: BatchFlow; title: string; step: string }) {
  return (
    <Stack gap="md">
      <BatchPageHeader flow={flow} title={title} subtitle={step} />
      <Alert color="yellow" icon={<IconInfoCircle />} title="No batch chosen">
        <Text size="sm">This page shows one batch, and the link that opened it names none. Open a batch from the list, or upload a new file there.</Text>
        <Group mt="sm">
          <Button component={Link} to={flow.paths.list} variant="light" size="xs">
            See the batches
          </Button>
        </Group>
      </Alert>
    </Stack>
  );
}
