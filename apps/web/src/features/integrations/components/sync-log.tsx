import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import {
  INTEGRATION_PROVIDER_LABELS,
  SYNC_OUTCOME_LABELS,
  SYNC_RECORD_TYPE_LABELS,
  SyncOutcome,
  SyncRecordType,
  type IntegrationProvider,
  type SyncLogEntry,
} from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { downloadSyncLogCsv, useRetryItem, useSyncLog, type SyncLogFilters } from '../api/integrations-api';
import { LinkRecordModal } from './link-record-modal';
import { useBusinessTime } from '../../../lib/business-time';

const OUTCOME_COLORS: Record<SyncOutcome, string> = { created: 'teal', updated: 'blue', voided: 'orange', failed: 'red', info: 'gray' };

/** The log's filters, read from the URL (`recordType`, `outcome`); anything else there is ignored. */
export function logFilters(get: (key: string) => string | undefined): SyncLogFilters {
  const recordType = SyncRecordType.safeParse(get('recordType'));
  const outcome = SyncOutcome.safeParse(get('outcome'));
  return { ...(recordType.success ? { recordType: recordType.data } : {}), ...(outcome.success ? { outcome: outcome.data } : {}) };
}

/** A push that failed, of a record we can name: what Retry and Link act on. */
const failedPush = (entry: SyncLogEntry) => entry.outcome === 'failed' && entry.direction === 'push' && entry.recordType !== null && entry.recordId !== null;

/**
 * One provider's sync log, newest first: every record pushed (or connection event), its outcome
 * and the provider's own message for a failure; filtered by record type and outcome, paged, and
 * downloadable as CSV with the same filters. For an owner, a failed row has actions: Retry (that
 * record now) and, for a payer, Link to an existing record at the provider.
 */
export function SyncLog({ provider }: { provider: IntegrationProvider }) {
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const canManage = useRoleAllows('business:owner');
  const retry = useRetryItem();
  const [linking, setLinking] = useState<SyncLogEntry | null>(null);
  const { get, update, page, pageSize } = useListParams();
  const filters = logFilters(get);
  const log = useSyncLog(provider, { ...filters, page, pageSize });
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;
  const filtered = Boolean(filters.recordType || filters.outcome);

  const columns: Column<SyncLogEntry>[] = [
    { key: 'when', header: 'When', render: (entry) => clock.dateTime(entry.at) },
    {
      key: 'record',
      header: 'Record',
      render: (entry) => (
        <div>
          <Text size="xs" c="dimmed">
            {entry.recordType ? SYNC_RECORD_TYPE_LABELS[entry.recordType] : 'Connection'}
          </Text>
          <Text size="sm">{entry.recordLabel}</Text>
        </div>
      ),
    },
    { key: 'direction', header: 'Direction', render: (entry) => (entry.direction === 'push' ? `Tay → ${name}` : 'Connection') },
    {
      key: 'outcome',
      header: 'Outcome',
      // Wide enough for "Created" whole: a long message beside it would squeeze the badge to "Creat…".
      width: 120,
      render: (entry) => (
        <Badge color={OUTCOME_COLORS[entry.outcome]} variant="light">
          {SYNC_OUTCOME_LABELS[entry.outcome]}
        </Badge>
      ),
    },
    { key: 'remoteId', header: 'Remote id', render: (entry) => entry.remoteId ?? '—' },
    { key: 'message', header: 'Message', render: (entry) => entry.message ?? '—' },
  ];

  const retryNow = (entry: SyncLogEntry) =>
    retry.mutate(
      { provider, recordType: entry.recordType!, recordId: entry.recordId! },
      {
        onSuccess: (written) =>
          notifications.show(
            written.outcome === 'failed'
              ? { color: 'red', title: `${written.recordLabel} failed again`, message: written.message ?? `${name} refused it again.` }
              : written.outcome === 'info'
                ? { color: 'gray', title: written.recordLabel, message: written.message ?? '' }
                : {
                    color: 'teal',
                    title: `${written.recordLabel}: ${SYNC_OUTCOME_LABELS[written.outcome]} in ${name}`,
                    message: `${name} id ${written.remoteId ?? '—'}.`,
                  },
          ),
        onError: (failure) => notifications.show({ color: 'red', title: `${entry.recordLabel} not retried`, message: failure.message }),
      },
    );

  const actions = (entry: SyncLogEntry): RowAction<SyncLogEntry>[] =>
    failedPush(entry)
      ? [
          { label: 'Retry', onClick: retryNow },
          ...(entry.recordType === 'customer' ? [{ label: 'Link to an existing record', onClick: (row: SyncLogEntry) => setLinking(row) }] : []),
        ]
      : [];

  const download = () =>
    businessId &&
    void downloadSyncLogCsv(businessId, provider, filters).catch((error: Error) =>
      notifications.show({ color: 'red', title: 'Download failed', message: error.message }),
    );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={520}>
          Each payer, invoice, payment and refund pushed to {name}, newest first, with {name}’s own message when it refused one.
        </Text>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          Download CSV
        </Button>
      </Group>
      <DataTable
        caption={`${name} sync log`}
        columns={columns}
        rows={log.data?.items}
        rowKey={(entry) => entry.id}
        actions={canManage ? actions : undefined}
        total={log.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={(next) => update({ page: next }, false)}
        onPageSizeChange={(next) => update({ pageSize: next })}
        filters={
          <>
            <Select
              label="Record type"
              placeholder="Every record type"
              data={SyncRecordType.options.map((type) => ({ value: type, label: SYNC_RECORD_TYPE_LABELS[type] }))}
              value={filters.recordType ?? null}
              onChange={(value) => update({ recordType: value })}
              clearable
              w={200}
            />
            <Select
              label="Outcome"
              placeholder="Every outcome"
              data={SyncOutcome.options.map((outcome) => ({ value: outcome, label: SYNC_OUTCOME_LABELS[outcome] }))}
              value={filters.outcome ?? null}
              onChange={(value) => update({ outcome: value })}
              clearable
              w={200}
            />
          </>
        }
        loading={log.isPending || log.isPlaceholderData}
        error={log.error}
        onRetry={() => void log.refetch()}
        empty={
          filtered
            ? { title: 'No entry matches', description: 'Change the filters to see more.' }
            : { title: 'No syncs yet', description: `Each record pushed to ${name} appears here once it is connected and syncs.` }
        }
      />
      <LinkRecordModal provider={provider} entry={linking} onClose={() => setLinking(null)} />
    </Stack>
  );
}
