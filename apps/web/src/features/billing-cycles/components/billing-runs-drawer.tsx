import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { BILLING_RUN_TRIGGER_LABELS, formatMoney, getHref, paths, type BillingRun, type BillingRunState } from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { DrawerOnDemand } from '../../../components/ui/drawer-on-demand';
import { useBusinessTime } from '../../../lib/business-time';
import { useBillingRuns } from '../api/billing-cycles-api';

const STATE_COLORS: Record<BillingRunState, string> = { Running: 'blue', Drafted: 'yellow', Submitted: 'teal', Empty: 'gray', Error: 'red' };
const STATE_LABELS: Record<BillingRunState, string> = {
  Running: 'Submitting',
  Drafted: 'In review',
  Submitted: 'Submitted',
  Empty: 'Nothing to bill',
  Error: 'Not submitted',
};

export function RunStateBadge({ state }: { state: BillingRunState }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light">
      {STATE_LABELS[state]}
    </Badge>
  );
}

/** Where a run's batch is seen: its review while in review, else the batch (the same page shows it sent). */
export const runBatchHref = (batchId: string) => getHref(paths.entity.programBillingReview, undefined, { batchId });

/** A run's batch link: "Review" while it waits, "View batch" once sent; nothing for an empty run or a discarded batch. */
export function RunBatchLink({ run }: { run: Pick<BillingRun, 'batchId' | 'batchState' | 'period'> }) {
  if (!run.batchId || !run.batchState) return <Text size="sm">—</Text>;
  return (
    <Anchor component={Link} to={runBatchHref(run.batchId)} size="sm">
      {run.batchState === 'Draft' ? `Review ${run.period.label}` : `View batch of ${run.period.label}`}
    </Anchor>
  );
}

function RunsTable({ cycleId }: { cycleId: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const clock = useBusinessTime();
  const runs = useBillingRuns(cycleId, { page, pageSize, sortDirection: 'desc' });
  const columns: Column<BillingRun>[] = [
    {
      key: 'period',
      header: 'Period',
      render: (r) => <NameCell name={r.period.label} detail={r.error} tone="red" />,
    },
    { key: 'state', header: 'State', render: (r) => <RunStateBadge state={r.state} /> },
    { key: 'requests', header: 'Requests', align: 'right', render: (r) => r.requests.toLocaleString('en-US') },
    { key: 'total', header: 'Total', align: 'right', render: (r) => formatMoney(r.totalCents) },
    { key: 'when', header: 'Ran', render: (r) => `${clock.dateTime(r.createdAt)} · ${BILLING_RUN_TRIGGER_LABELS[r.trigger]}` },
    { key: 'batch', header: 'Batch', render: (r) => <RunBatchLink run={r} /> },
  ];
  return (
    <DataTable
      caption="Runs"
      columns={columns}
      rows={runs.data?.items}
      rowKey={(r) => r.runId}
      total={runs.data?.total ?? 0}
      page={page}
      pageSize={pageSize}
      onPageChange={setPage}
      onPageSizeChange={(size) => {
        setPageSize(size);
        setPage(1);
      }}
      loading={runs.isPending || runs.isPlaceholderData}
      error={runs.error}
      onRetry={() => void runs.refetch()}
      empty={{ title: 'No runs yet', description: 'The cycle runs by itself at midnight of its next run day, or now with Run now.' }}
    />
  );
}

/** What each run of a cycle made: period, state, requests, total, and the link to its batch. */
export function BillingRunsDrawer({ cycle, onClose }: { cycle: { cycleId: string; name: string } | null; onClose: () => void }) {
  return (
    <DrawerOnDemand
      opened={cycle !== null}
      onClose={onClose}
      position="right"
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close runs' }}
      title={cycle ? `Runs of “${cycle.name}”` : 'Runs'}
    >
      {cycle && (
        <Stack gap="sm">
          <RunsTable cycleId={cycle.cycleId} />
        </Stack>
      )}
    </DrawerOnDemand>
  );
}
