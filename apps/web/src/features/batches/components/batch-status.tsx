import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { BATCH_STATE_LABELS, type Batch, type BatchRowStatus } from '@tay/contract';

const STATE_COLORS: Record<Batch['state'], string> = { Draft: 'gray', Submitted: 'blue', Processed: 'teal', Error: 'red' };

/** A batch's state: Draft reads "In review" (or "Checking…" while its rows are checked). */
export function BatchStateBadge({ batch }: { batch: Pick<Batch, 'state' | 'phase'> }) {
  const label = batch.phase === 'validating' ? 'Checking' : batch.phase === 'sending' ? 'Sending' : BATCH_STATE_LABELS[batch.state];
  return (
    <Badge color={STATE_COLORS[batch.state]} variant="light" radius="sm" data-state={batch.state}>
      {label}
    </Badge>
  );
}

const ROW_COLORS: Record<BatchRowStatus, string> = { pending: 'gray', valid: 'teal', invalid: 'red', sent: 'blue', failed: 'red' };
const ROW_LABELS: Record<BatchRowStatus, string> = { pending: 'Waiting', valid: 'Valid', invalid: 'Error', sent: 'Sent', failed: 'Failed' };

export function RowStatusBadge({ status }: { status: BatchRowStatus }) {
  return (
    <Badge color={ROW_COLORS[status]} variant="light" radius="sm">
      {ROW_LABELS[status]}
    </Badge>
  );
}

const number = (n: number) => n.toLocaleString('en-US');

/** What the work under way has done, as a bar with its counts; nothing when no work runs. */
export function BatchProgress({ batch, compact = false }: { batch: Batch; compact?: boolean }) {
  const running = batch.phase === 'validating' || batch.phase === 'sending';
  if (!running) return null;
  const { done, total } = batch.progress;
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const what = batch.phase === 'validating' ? 'Checking rows' : 'Sending';
  const label = `${what}: ${number(done)} of ${number(total)}`;
  if (compact) return <Progress value={percent} size="sm" aria-label={label} title={label} animated />;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500} role="status">
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} size="lg" aria-label={label} animated striped />
      <Text size="xs" c="dimmed">
        This runs on our side: you can leave this page and come back.
      </Text>
    </Stack>
  );
}
