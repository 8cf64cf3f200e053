import { Alert, Anchor, Button, Group, Paper, Radio, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconSend, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import {
  BATCH_FIELDS,
  BatchRowFilter,
  formatMoney,
  MONEY_RULES,
  paths,
  RECEIVER_REVIEW_ERROR_KEY,
  type Batch,
  type BatchRow,
  type BatchSubmitBody,
} from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { Figure } from '../../../components/ui/figure';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRoleAllows, useEndpointAccess } from '../../../lib/endpoint-access';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { zonedInputToIso } from '../../../lib/send-at';
import {
  downloadErrorRows,
  useBatchPayoutsWaiting,
  useBatch,
  useBatchRows,
  useDiscardBatch,
  useDropInvalidRows,
  useDropRow,
  useFixRow,
  useIncludeReviewedRow,
  useSubmitBatch,
  useUnscheduleBatch,
} from '../api/batches-api';
import { BatchProgress, BatchStateBadge, RowStatusBadge } from '../components/batch-status';
import { BatchPageHeader } from '../components/batch-page-header';
import { NoBatchChosen } from '../components/no-batch-chosen';
import { FixRowModal } from '../components/fix-row-modal';
import { readCell } from '../components/mapping-preview';
import { countOf, madeCount, type BatchFlow } from '../batch-flows';
import { useBusinessTime } from '../../../lib/business-time';

const number = (n: number) => n.toLocaleString('en-US');

/**
 * Step 3 of a bulk flow (`/business/payment/request/bulkreview?batchId=`): every row with its
 * outcome; filter to the errors; fix a row or drop it; the count and sum of what will be sent;
 * the rows with errors as CSV; submit (now or at a time on the business's clock) or discard.
 * While rows are checked or sent a bar shows how far it got; afterwards each row links to what it
 * made, or says why it failed.
 */
export function BatchReviewPage({ flow }: { flow: BatchFlow }) {
  useDocumentTitle(`${flow.title}: review`);
  const { get } = useListParams();
  const batchId = get('batchId');
  const batch = useBatch(batchId ?? null);
  if (!batchId) return <NoBatchChosen flow={flow} title="Review and send" step="Step 3 of 3" />;
  if (batch.error) return <LoadError title="This batch could not be loaded" error={batch.error} onRetry={() => void batch.refetch()} />;
  if (!batch.data) return <PageLoader />;
  if (batch.data.phase === 'uploaded') return <Navigate to={`${flow.paths.map}?batchId=${encodeURIComponent(batchId)}`} replace />;
  return <Review flow={flow} batch={batch.data} />;
}

function Review({ flow, batch }: { flow: BatchFlow; batch: Batch }) {
  const businessId = useBusinessId();
  const navigate = useNavigate();
  const access = useEndpointAccess(flow.access);
  const { get, update, page, pageSize } = useListParams();
  const parsedFilter = BatchRowFilter.safeParse(get('status') ?? 'all');
  const status = parsedFilter.success ? parsedFilter.data : 'all';
  const checked = batch.phase !== 'validating';
  const rows = useBatchRows(batch.batchId, { status, page, pageSize }, checked);
  const fixRow = useFixRow();
  const includeRow = useIncludeReviewedRow();
  const canReview = useRoleAllows(MONEY_RULES.approvePayout.access);
  const dropRow = useDropRow();
  const dropInvalid = useDropInvalidRows();
  const discard = useDiscardBatch();
  const unschedule = useUnscheduleBatch();
  // A bulk payout is made as payouts that may wait for a second approver (ADR 035): until they
  // are approved nothing is paid, and the page says so rather than "All sent".
  const waiting = useBatchPayoutsWaiting(batch.batchId, flow.kind === 'payouts' && batch.phase === 'done');
  const [fixing, setFixing] = useState<BatchRow | null>(null);
  const fields = BATCH_FIELDS[batch.kind];
  const inReview = batch.state === 'Draft' && batch.phase === 'validated';
  const editable = inReview && access.allowed;
  const submitted = batch.state !== 'Draft';
  const clock = useBusinessTime();

  const columns: Column<BatchRow>[] = [
    { key: 'line', header: 'Line', render: (r) => r.row },
    { key: 'status', header: 'Outcome', render: (r) => <RowStatusBadge status={r.status} /> },
    {
      key: 'party',
      header: flow.partyTitle,
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.payerName ?? '—'}</Text>
          <Text size="xs" c="dimmed">
            {r.fields.email || r.fields.payerReference || r.fields.receiverReference || r.fields.guardianEmail || (r.fields.mrn ? `MRN ${r.fields.mrn}` : '')}
          </Text>
        </Stack>
      ),
    },
    ...(flow.amounts === false
      ? []
      : [
          {
            key: 'amount',
            header: 'Amount',
            align: 'right',
            render: (r) => (r.amountCents !== null ? formatMoney(r.amountCents) : (r.fields.amount ?? '—')),
          } satisfies Column<BatchRow>,
        ]),
    ...flow.detailFields.map(({ key, header }): Column<BatchRow> => ({
      key,
      header,
      render: (r) => (r.fields[key] ? readCell(key, r.fields[key]).shown : '—'),
    })),
    {
      key: 'result',
      header: submitted ? 'Result' : 'Problems',
      render: (r) =>
        r.requestId ? (
          <Anchor component={Link} to={flow.madeHref(r.requestId)} size="sm">
            {r.referenceNumber ?? `Open the ${flow.madeOne}`}
          </Anchor>
        ) : Object.keys(r.errors).length > 0 ? (
          <Stack gap={2}>
            {Object.entries(r.errors).map(([key, message]) => (
              <Text key={key} size="xs" c="red">
                {key === 'row' ? '' : `${fields.find((f) => f.key === key)?.label ?? (key === RECEIVER_REVIEW_ERROR_KEY ? 'Receiver' : key)}: `}
                {message}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="xs" c="dimmed">
            {submitted ? '—' : 'Ready'}
          </Text>
        ),
    },
  ];

  const actions = (r: BatchRow): RowAction<BatchRow>[] =>
    editable
      ? [
          ...(canReview && r.errors[RECEIVER_REVIEW_ERROR_KEY]
            ? [
                {
                  label: 'Include (mark the receiver reviewed)',
                  onClick: (row: BatchRow) =>
                    includeRow.mutate(
                      { batchId: batch.batchId, row },
                      {
                        onSuccess: ({ row: checkedRow }) =>
                          notifications.show(
                            checkedRow.status === 'valid'
                              ? {
                                  color: 'teal',
                                  title: `Line ${row.row} is included`,
                                  message: `${row.payerName ?? 'The receiver'} is reviewed; the row will be sent.`,
                                }
                              : { color: 'yellow', title: `Line ${row.row} still has problems`, message: Object.values(checkedRow.errors).join(' ') },
                          ),
                        onError: (error) => notifications.show({ color: 'red', title: `Line ${row.row} was not included`, message: error.message }),
                      },
                    ),
                },
              ]
            : []),
          { label: 'Fix', onClick: (row: BatchRow) => setFixing(row) },
          {
            label: 'Drop',
            color: 'red',
            onClick: (row: BatchRow) =>
              modals.openConfirmModal({
                title: `Drop line ${row.row}?`,
                children: <Text size="sm">It is left out of this batch; nothing is sent for it. The file itself is not changed.</Text>,
                labels: { confirm: 'Drop the row', cancel: 'Keep it' },
                confirmProps: { color: 'red' },
                onConfirm: () =>
                  dropRow.mutate(
                    { batchId: batch.batchId, row: row.row },
                    {
                      onSuccess: () => notifications.show({ color: 'teal', title: 'Row dropped', message: `Line ${row.row} is left out.` }),
                      onError: (error) => notifications.show({ color: 'red', title: 'The row was not dropped', message: error.message }),
                    },
                  ),
              }),
          },
        ].filter(() => r.status === 'valid' || r.status === 'invalid')
      : [];

  const confirmDiscard = () =>
    modals.openConfirmModal({
      title: 'Discard this batch?',
      children: <Text size="sm">The file and its rows are deleted. Nothing was sent, and nothing will be.</Text>,
      labels: { confirm: 'Discard', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        discard.mutate(batch.batchId, {
          onSuccess: () => {
            notifications.show({ color: 'teal', title: 'Batch discarded', message: `${batch.fileName} was discarded.` });
            void navigate(flow.paths.list);
          },
          onError: (error) => notifications.show({ color: 'red', title: 'The batch was not discarded', message: error.message }),
        }),
    });

  const filters = submitted ? ['all', 'sent', 'failed', 'invalid'] : ['all', 'valid', 'invalid'];
  const filterLabels: Record<string, string> = { all: 'All rows', valid: 'Valid', invalid: 'With errors', sent: 'Sent', failed: 'Failed' };
  const errorCount = batch.counts.invalid + batch.counts.failed;

  return (
    <Stack gap="md">
      <BatchPageHeader
        flow={flow}
        title={submitted ? batch.fileName : 'Review and send'}
        badge={<BatchStateBadge batch={batch} />}
        subtitle={
          submitted
            ? `Submitted by ${batch.submittedBy ?? '—'} ${batch.submittedAt ? clock.dateTime(batch.submittedAt) : ''}`
            : `Step 3 of 3 · ${batch.fileName} · uploaded by ${batch.uploadedBy} ${clock.dateTime(batch.createdAt)}`
        }
      />
      <AccessAlert access={access} />
      <BatchProgress batch={batch} />
      {batch.duplicateOf && !submitted && (
        <Alert color="yellow" title="You uploaded this same file before">
          Batch {batch.duplicateOf} has exactly the same content. Sending both would {flow.twice}.
        </Alert>
      )}
      {batch.state === 'Submitted' && batch.phase === 'validated' && batch.sendAt && (
        <Alert color="indigo" title={`Scheduled for ${clock.dateTime(batch.sendAt)}`} role="status">
          {countOf(madeCount(batch, 'valid'), flow.madeOne, flow.made)} ({formatMoney(batch.totalCents)}) go out then, each checked again as it goes: a row
          whose {flow.party}
          was deactivated meanwhile fails with its reason.
          {access.allowed && (
            <Group mt="sm">
              <Button
                size="xs"
                variant="default"
                loading={unschedule.isPending}
                onClick={() =>
                  unschedule.mutate(batch.batchId, {
                    onSuccess: () =>
                      notifications.show({ color: 'teal', title: 'Back in review', message: 'Nothing was sent. Change what you need and submit again.' }),
                    onError: (error) => notifications.show({ color: 'red', title: 'The schedule was not cancelled', message: error.message }),
                  })
                }
              >
                Cancel the schedule
              </Button>
            </Group>
          )}
        </Alert>
      )}
      {batch.phase === 'done' && waiting > 0 && (
        <Alert color="yellow" title="Waiting for approval" role="status">
          {countOf(waiting, 'payout', 'payouts')} of this batch {waiting === 1 ? 'waits' : 'wait'} for an owner or admin to approve{' '}
          {waiting === 1 ? 'it' : 'them'}: nothing is paid until then
          {batch.counts.failed > 0 ? `; ${countOf(batch.counts.failed, 'row', 'rows')} failed, each with its reason below` : ''}.{' '}
          <Anchor component={Link} to={paths.payouts.review}>
            Open the approval queue
          </Anchor>
        </Alert>
      )}
      {batch.phase === 'done' && waiting === 0 && (
        <Alert color={batch.state === 'Error' ? 'red' : 'teal'} title={batch.state === 'Error' ? 'Sent, with failures' : 'All sent'} role="status">
          {countOf(madeCount(batch, 'sent'), flow.madeOne, flow.made)} made{flow.amounts === false ? '' : ` (${formatMoney(batch.sentCents)})`}
          {batch.counts.failed > 0 ? `; ${countOf(batch.counts.failed, 'row', 'rows')} failed, each with its reason below` : ''}.{' '}
          <Anchor component={Link} to={flow.resultsHref(batch.batchId)}>
            {flow.resultsLabel ?? 'See them in the transaction history'}
          </Anchor>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Figure label="Rows" value={number(batch.counts.rows)} />
        {submitted ? (
          <>
            <Figure label="Sent" value={number(batch.counts.sent)} hint={flow.amounts === false ? undefined : formatMoney(batch.sentCents)} />
            {flow.groups && batch.groups && <Figure label={flow.groups.label} value={number(batch.groups.sent)} hint={flow.groups.sentHint} />}
            <Figure label="Failed" value={number(batch.counts.failed)} />
            <Figure label="Not sent (errors)" value={number(batch.counts.invalid)} />
          </>
        ) : (
          <>
            <Figure label="Valid" value={checked ? number(batch.counts.valid) : '—'} hint="Will be sent" />
            <Figure label="With errors" value={checked ? number(batch.counts.invalid) : '—'} hint="Fix or drop them; they are not sent" />
            <Figure
              label={flow.totalLabel}
              value={checked ? (flow.amounts === false ? number(batch.counts.valid) : formatMoney(batch.totalCents)) : '—'}
              hint={checked ? countOf(madeCount(batch, 'valid'), flow.madeOne, flow.made) : undefined}
            />
            {flow.groups && batch.groups && <Figure label={flow.groups.label} value={checked ? number(batch.groups.valid) : '—'} hint={flow.groups.hint} />}
          </>
        )}
      </SimpleGrid>

      {checked && (
        <DataTable
          caption={`Rows of ${batch.fileName}`}
          columns={columns}
          rows={rows.data?.items}
          rowKey={(r) => String(r.row)}
          total={rows.data?.total ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={(p) => update({ page: p }, false)}
          onPageSizeChange={(size) => update({ pageSize: size })}
          filters={
            <SegmentedControl
              aria-label="Show rows"
              value={status}
              onChange={(value) => update({ status: value === 'all' ? undefined : value })}
              data={filters.map((value) => ({ value, label: filterLabels[value]! }))}
            />
          }
          {...(errorCount > 0 && businessId ? { onExport: () => void downloadErrorRows(businessId, batch) } : {})}
          actions={actions}
          loading={rows.isFetching && !rows.isRefetching}
          error={rows.error}
          onRetry={() => void rows.refetch()}
          empty={{
            title: status === 'invalid' ? 'No rows with errors' : 'No rows here',
            description: status === 'invalid' ? 'Every row left in the batch is valid.' : 'No row of the batch has this outcome.',
          }}
        />
      )}

      {errorCount > 0 && businessId && (
        <Group>
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void downloadErrorRows(businessId, batch)}>
            Download the {countOf(errorCount, 'row', 'rows')} with errors (CSV)
          </Button>
          {editable && batch.counts.invalid > 0 && (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              loading={dropInvalid.isPending}
              onClick={() =>
                modals.openConfirmModal({
                  title: `Drop the ${countOf(batch.counts.invalid, 'row', 'rows')} with errors?`,
                  children: <Text size="sm">They are left out of this batch; nothing is sent for them. The file itself is not changed.</Text>,
                  labels: { confirm: 'Drop them', cancel: 'Keep them' },
                  confirmProps: { color: 'red' },
                  onConfirm: () =>
                    dropInvalid.mutate(batch.batchId, {
                      onSuccess: () =>
                        notifications.show({
                          color: 'teal',
                          title: 'Rows dropped',
                          message: `${countOf(batch.counts.invalid, 'row', 'rows')} with errors left out.`,
                        }),
                      onError: (error) => notifications.show({ color: 'red', title: 'The rows were not dropped', message: error.message }),
                    }),
                })
              }
            >
              Drop the {countOf(batch.counts.invalid, 'row', 'rows')} with errors
            </Button>
          )}
        </Group>
      )}

      {inReview && <SubmitPanel flow={flow} batch={batch} disabled={!access.allowed} onDiscard={confirmDiscard} discarding={discard.isPending} />}

      {fixing && (
        <FixRowModal
          batch={batch}
          fields={fields}
          row={fixing}
          saving={fixRow.isPending}
          error={fixRow.error?.message ?? null}
          onClose={() => {
            fixRow.reset();
            setFixing(null);
          }}
          onSave={(values) =>
            fixRow.mutate(
              { batchId: batch.batchId, row: fixing.row, fields: values },
              {
                onSuccess: ({ row }) => {
                  if (row.status === 'valid') {
                    notifications.show({ color: 'teal', title: `Line ${row.row} is valid`, message: 'It will be sent with the others.' });
                    setFixing(null);
                  } else setFixing(row);
                  void rows.refetch();
                },
              },
            )
          }
        />
      )}
    </Stack>
  );
}

function SubmitPanel({
  flow,
  batch,
  disabled,
  onDiscard,
  discarding,
}: {
  flow: BatchFlow;
  batch: Batch;
  disabled: boolean;
  onDiscard: () => void;
  discarding: boolean;
}) {
  const timeZone = useBusinessTimeZone();
  const submit = useSubmitBatch();
  const [mode, setMode] = useState<'send' | 'schedule'>('send');
  const [when, setWhen] = useState('');
  const [whenError, setWhenError] = useState<string | null>(null);
  const submitting = useRef(false);
  const zone = timeZone.data ?? 'UTC';

  const go = () => {
    let body: BatchSubmitBody = { mode: 'send' };
    if (mode === 'schedule') {
      const iso = zonedInputToIso(when, zone);
      if (!iso) return setWhenError('Choose a date and time.');
      if (new Date(iso).getTime() <= Date.now()) return setWhenError('Choose a time in the future.');
      body = { mode: 'schedule', sendAt: iso };
    }
    setWhenError(null);
    const what = `${countOf(madeCount(batch, 'valid'), flow.madeOne, flow.made)}${flow.amounts === false ? '' : ` for ${formatMoney(batch.totalCents)}`}`;
    modals.openConfirmModal({
      title: mode === 'send' ? flow.submit.confirmTitle : 'Schedule them?',
      children: (
        <Text size="sm">
          {mode === 'send' ? flow.submit.after(what) : `${what} go out ${when.replace('T', ' ')} (${zone}).`}{' '}
          {batch.counts.invalid > 0 ? `${countOf(batch.counts.invalid, 'row', 'rows')} with errors will not be sent.` : ''}
        </Text>
      ),
      labels: { confirm: mode === 'send' ? flow.submit.confirm : 'Schedule', cancel: 'Not yet' },
      onConfirm: () => {
        if (submitting.current) return;
        submitting.current = true;
        // The panel goes as soon as the batch reads Submitted: the outcome is awaited, not left to its callbacks.
        submit
          .mutateAsync({ batchId: batch.batchId, body })
          .then(
            () => {
              notifications.show({ color: 'teal', title: 'Submitted', message: `${what}: ${flow.submit.done}` });
            },
            (error: unknown) => {
              notifications.show({ color: 'red', title: 'The batch was not submitted', message: error instanceof Error ? error.message : String(error) });
            },
          )
          .finally(() => {
            submitting.current = false;
          });
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Send
        </Title>
        {batch.counts.valid === 0 ? (
          <Text size="sm">No row is valid yet: fix or drop the rows with errors, or discard the batch.</Text>
        ) : (
          <Text size="sm">
            {countOf(madeCount(batch, 'valid'), flow.madeOne, flow.made)}
            {flow.amounts === false ? '' : ` for ${formatMoney(batch.totalCents)}`} {flow.willBe ?? 'will be sent'}
            {batch.counts.invalid > 0 ? `; ${countOf(batch.counts.invalid, 'row', 'rows')} with errors will not` : ''}.
          </Text>
        )}
        {flow.canSchedule && (
          <Radio.Group value={mode} onChange={(value) => setMode(value as 'send' | 'schedule')} label="When">
            <Group mt={4}>
              <Radio value="send" label="Send now" />
              <Radio value="schedule" label="Schedule" />
            </Group>
          </Radio.Group>
        )}
        {mode === 'schedule' && (
          <TextInput
            type="datetime-local"
            label={`Send at (${zone})`}
            value={when}
            onChange={(event) => setWhen(event.currentTarget.value)}
            error={whenError}
            w={{ base: '100%', sm: 280 }}
          />
        )}
        <Group>
          <Button leftSection={<IconSend size={16} />} onClick={go} loading={submit.isPending} disabled={disabled || batch.counts.valid === 0}>
            {mode === 'send' ? flow.submit.button : 'Submit and schedule'}
          </Button>
          <Button variant="default" component={Link} to={`${flow.paths.map}?batchId=${encodeURIComponent(batch.batchId)}`} disabled={disabled}>
            Change the columns
          </Button>
          <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={onDiscard} loading={discarding} disabled={disabled}>
            Discard
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
