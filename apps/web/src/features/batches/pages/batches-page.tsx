import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { formatMoney, type Batch } from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useBusinessTime } from '../../../lib/business-time';
import { useListParams } from '../../../lib/list-params';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useBatches } from '../api/batches-api';
import { BatchProgress, BatchStateBadge } from '../components/batch-status';
import { downloadTemplate, type BatchFlow } from '../batch-flows';

/** Where a batch is continued: the map step until its rows were read, the review after. */
export function batchHref(flow: BatchFlow, batch: Pick<Batch, 'batchId' | 'phase'>): string {
  return `${batch.phase === 'uploaded' ? flow.paths.map : flow.paths.review}?batchId=${encodeURIComponent(batch.batchId)}`;
}

/**
 * The landing of a bulk flow (`/business/payment/request/bulkrtp`): every batch of the business,
 * newest first, with who uploaded it, its rows, outcome, total, state and progress; a new upload;
 * the CSV template.
 */
export function BatchesPage({ flow }: { flow: BatchFlow }) {
  useDocumentTitle(flow.title);
  const navigate = useNavigate();
  const clock = useBusinessTime();
  const access = useEndpointAccess(flow.access);
  const { update, page, pageSize } = useListParams();
  const batches = useBatches({ kind: flow.kind, page, pageSize });
  const data = batches.data;

  const columns: Column<Batch>[] = [
    {
      key: 'file',
      header: 'File',
      render: (b) => (
        <Stack gap={0}>
          <Text component={Link} to={batchHref(flow, b)} size="sm" fw={500} c="blue">
            {b.fileName}
          </Text>
          <Text size="xs" c="dimmed">
            {b.uploadedBy}
          </Text>
        </Stack>
      ),
    },
    { key: 'uploaded', header: 'Uploaded', render: (b) => clock.dateTime(b.createdAt) },
    { key: 'rows', header: 'Rows', align: 'right', render: (b) => b.counts.rows.toLocaleString('en-US') },
    {
      key: 'outcome',
      header: 'Valid / errors',
      render: (b) =>
        b.phase === 'uploaded' ? (
          <Text size="sm" c="dimmed">
            Not checked yet
          </Text>
        ) : (
          <Text size="sm">
            {(b.counts.valid + b.counts.sent).toLocaleString('en-US')} / {(b.counts.invalid + b.counts.failed).toLocaleString('en-US')}
          </Text>
        ),
    },
    ...(flow.amounts === false ? [] : [{ key: 'total', header: 'Total', align: 'right', render: (b) => formatMoney(b.totalCents) } satisfies Column<Batch>]),
    {
      key: 'state',
      header: 'State',
      render: (b) => (
        <Stack gap={4} miw={120}>
          <BatchStateBadge batch={b} />
          <BatchProgress batch={b} compact />
        </Stack>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{flow.title}</Title>
          <Text c="dimmed" size="sm">
            Upload a CSV file, match its columns, check every row, then send all the {flow.made} at once.
          </Text>
        </div>
        <Group>
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => downloadTemplate(flow.kind)}>
            CSV template
          </Button>
          {access.allowed ? (
            <Button component={Link} to={flow.paths.upload} leftSection={<IconUpload size={16} />}>
              {flow.newLabel}
            </Button>
          ) : (
            <Button leftSection={<IconUpload size={16} />} disabled>
              {flow.newLabel}
            </Button>
          )}
        </Group>
      </Group>
      <AccessAlert access={access} />
      <DataTable
        caption="Your bulk batches"
        columns={columns}
        rows={data?.items}
        rowKey={(b) => b.batchId}
        total={data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={(p) => update({ page: p }, false)}
        onPageSizeChange={(size) => update({ pageSize: size })}
        loading={batches.isFetching && !batches.isRefetching}
        error={batches.error}
        onRetry={() => void batches.refetch()}
        onRowClick={(b) => void navigate(batchHref(flow, b))}
        empty={{
          title: 'No bulk batches yet',
          description: `Upload a CSV file with one row per ${flow.madeOne}. Download the template to see the columns.`,
          ...(access.allowed
            ? {
                action: (
                  <Button component={Link} to={flow.paths.upload} leftSection={<IconUpload size={16} />}>
                    {flow.newLabel}
                  </Button>
                ),
              }
            : {}),
        }}
      />
    </Stack>
  );
}
