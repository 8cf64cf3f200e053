import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  BILLING_CYCLE_STATUS_LABELS,
  BILLING_SCHEDULE_LABELS,
  BillingCycleAction,
  BillingCycleStatus,
  BillingSchedule,
  formatDay,
  formatMoney,
  paths,
  type BillingCycle,
  type BillingCycleListQuery,
  type BillingRun,
  billingCycleEndpoints,
} from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { baseListQuery, oneOf, textParam, useListParams } from '../../../lib/list-params';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import {
  downloadBillingCyclesCsv,
  useActivePrograms,
  useBillingCycleCommand,
  useBillingCycleList,
  useRunBillingCycle,
  type BillingCycleCommand,
} from '../api/billing-cycles-api';
import { BillingCycleFormModal } from '../components/billing-cycle-form-modal';
import { BillingRunsDrawer, RunBatchLink, RunStateBadge } from '../components/billing-runs-drawer';

const SORTS = ['createdAt', 'name', 'nextRunOn'] as const;
const STATUS_OPTIONS = BillingCycleStatus.options.map((s) => ({ value: s, label: BILLING_CYCLE_STATUS_LABELS[s] }));
const SCHEDULE_OPTIONS = BillingSchedule.options.map((s) => ({ value: s, label: BILLING_SCHEDULE_LABELS[s] }));

const DONE: Record<BillingCycleCommand, { title: string; verb: string; text: (c: BillingCycle) => string }> = {
  activate: {
    title: 'Billing cycle activated',
    verb: 'activated',
    text: (c) => (c.nextRunOn ? `“${c.name}” runs next on ${formatDay(c.nextRunOn)}.` : `“${c.name}” is active, with no period left to run.`),
  },
  deactivate: { title: 'Billing cycle deactivated', verb: 'deactivated', text: (c) => `“${c.name}” will not run until you activate it again.` },
  delete: { title: 'Billing cycle deleted', verb: 'deleted', text: (c) => `“${c.name}” is gone.` },
};

export function scheduleText(c: Pick<BillingCycle, 'schedule' | 'dayOfMonth' | 'periods'>): string {
  if (c.schedule === 'monthly') return `Monthly on day ${c.dayOfMonth}`;
  const n = c.periods.length;
  return `${BILLING_SCHEDULE_LABELS[c.schedule]} · ${n} ${n === 1 ? 'period' : 'periods'}`;
}

/** What a run made, as the toast says it. */
export function runSummary(run: BillingRun): string {
  switch (run.state) {
    case 'Empty':
      return `${run.period.label}: no enrollment was left to bill.`;
    case 'Drafted':
      return `${run.period.label}: ${run.requests} ${run.requests === 1 ? 'request' : 'requests'} for ${formatMoney(run.totalCents)} wait in review.`;
    case 'Submitted':
    case 'Running':
      return `${run.period.label}: ${run.requests} ${run.requests === 1 ? 'request' : 'requests'} for ${formatMoney(run.totalCents)} were submitted.`;
    case 'Error':
      return `${run.period.label}: the batch waits in review — ${run.error ?? 'it could not be submitted.'}`;
  }
}

/**
 * /business/entity/billingcycle — Manage Billing Cycles: cycles that bill programs every month,
 * term or listed period at the business's midnight; add and edit in a modal, Run now,
 * Activate/Deactivate, Delete, and what each run made.
 */
export function BillingCyclesPage() {
  const access = useEndpointAccess(billingCycleEndpoints.create);
  const canWrite = access.allowed;
  const params = useListParams();
  const [editing, setEditing] = useState<{ cycle: BillingCycle | null } | null>(null);
  const [runsOf, setRunsOf] = useState<BillingCycle | null>(null);
  const command = useBillingCycleCommand();
  const runNow = useRunBillingCycle();
  const programs = useActivePrograms();

  const query: BillingCycleListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', BillingCycleStatus.options),
    ...oneOf(params, 'schedule', BillingSchedule.options),
    ...textParam(params, 'programId'),
  };
  const list = useBillingCycleList(query);

  const change = (c: BillingCycle, name: BillingCycleCommand) =>
    command.mutate(
      { cycleId: c.cycleId, command: name },
      {
        onSuccess: (saved) => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(saved ?? c) }),
        onError: (error) => notifications.show({ color: 'red', title: `“${c.name}” was not ${DONE[name].verb}`, message: error.message }),
      },
    );
  const confirm = (c: BillingCycle, name: 'deactivate' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete “${c.name}”?` : `Deactivate “${c.name}”?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The cycle is removed for good. It never ran, so nothing was billed by it.'
            : 'It stops running. When you activate it again it runs from that day on; the periods in between are not billed by it.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, deactivate', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(c, name),
    });
  const confirmRun = (c: BillingCycle) =>
    modals.openConfirmModal({
      title: `Run “${c.name}” now?`,
      children: (
        <Text size="sm">
          It bills the current period now: one request per active enrollment of {c.programs.map((p) => p.name).join(', ')}
          {c.autoSubmit ? ', submitted at once.' : ', in a batch that waits in review.'} A period is billed once, so a later run skips it.
        </Text>
      ),
      labels: { confirm: 'Yes, run now', cancel: 'Cancel' },
      onConfirm: () =>
        runNow.mutate(
          { cycleId: c.cycleId },
          {
            onSuccess: ({ run }) => {
              notifications.show({
                color: run.state === 'Error' ? 'yellow' : 'teal',
                title: `“${c.name}” ran`,
                message: runSummary(run),
                autoClose: 10_000,
              });
              // Its runs, with the link to the batch's review.
              setRunsOf(c);
            },
            onError: (error) => notifications.show({ color: 'red', title: `“${c.name}” did not run`, message: error.message }),
          },
        ),
    });

  const act = (action: BillingCycleAction, c: BillingCycle) => {
    switch (action) {
      case 'Edit':
        return setEditing({ cycle: c });
      case 'Run now':
        return confirmRun(c);
      case 'Activate':
        return change(c, 'activate');
      case 'Deactivate':
        return confirm(c, 'deactivate');
      case 'Delete':
        return confirm(c, 'delete');
    }
  };

  const actions = (c: BillingCycle): RowAction<BillingCycle>[] => [
    ...(canWrite
      ? c.actions
          .filter((a): a is BillingCycleAction => (BillingCycleAction.options as readonly string[]).includes(a))
          .map((action) => ({ label: action, onClick: (row: BillingCycle) => act(action, row), ...(action === 'Delete' ? { color: 'red' } : {}) }))
      : []),
    { label: 'Runs', onClick: (row) => setRunsOf(row) },
  ];

  const columns: Column<BillingCycle>[] = [
    {
      key: 'name',
      header: 'Name',
      sortKey: 'name',
      render: (c) => <NameCell name={c.name} detail={c.autoSubmit && 'Submits at once'} />,
    },
    { key: 'schedule', header: 'Schedule', render: (c) => scheduleText(c) },
    { key: 'programs', header: 'Programs', render: (c) => c.programs.map((p) => p.name).join(', ') },
    {
      key: 'next',
      header: 'Next run',
      sortKey: 'nextRunOn',
      render: (c) =>
        c.status !== 'active' ? (
          <Text size="sm" c="dimmed">
            Not scheduled
          </Text>
        ) : c.nextRunOn ? (
          <div>
            <Text size="sm">{formatDay(c.nextRunOn)}</Text>
            {c.nextPeriod && (
              <Text size="xs" c="dimmed">
                bills {c.nextPeriod.label}
              </Text>
            )}
          </div>
        ) : (
          <Text size="sm" c="dimmed">
            No period left
          </Text>
        ),
    },
    {
      key: 'last',
      header: 'Last run',
      render: (c) =>
        c.lastRun ? (
          <Stack gap={2} align="flex-start">
            <Group gap={6}>
              <Text size="sm">{c.lastRun.period.label}</Text>
              <RunStateBadge state={c.lastRun.state} />
            </Group>
            <Text size="xs" c="dimmed">
              {c.lastRun.requests} {c.lastRun.requests === 1 ? 'request' : 'requests'} · {formatMoney(c.lastRun.totalCents)}
            </Text>
            <RunBatchLink run={c.lastRun} />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Never
          </Text>
        ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (c) => (
        <Badge color={c.status === 'active' ? 'teal' : 'gray'} variant="light">
          {BILLING_CYCLE_STATUS_LABELS[c.status]}
        </Badge>
      ),
    },
  ];

  const newCycle = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ cycle: null })} disabled={!canWrite}>
      New billing cycle
    </Button>
  );

  return (
    <EntityListPage
      title="Manage Billing Cycles"
      documentTitle="Billing cycles"
      description="A cycle bills its programs every month, term or period you list, at midnight of its run day: one request per enrolled student."
      actions={newCycle}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'schedule', label: 'Schedule', placeholder: 'Any schedule', data: SCHEDULE_OPTIONS, width: 170 },
        {
          name: 'programId',
          label: 'Program',
          placeholder: 'Any program',
          data: (programs.data?.items ?? []).map((p) => ({ value: p.programId, label: p.name })),
          width: 200,
          searchable: true,
        },
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 150 },
      ]}
      caption="Billing cycles"
      columns={columns}
      rowKey={(c) => c.cycleId}
      searchPlaceholder="Cycle name"
      rowActions={actions}
      download={(id) => downloadBillingCyclesCsv(id, query)}
      noMatches={{ title: 'No billing cycles match', description: 'Nothing matches the search and filters you chose. Clear them to see every cycle.' }}
      empty={{
        title: 'No billing cycles yet',
        description: 'Add a cycle to bill your programs every month or term by itself. Programs come first: add them under Manage Programs.',
        action: canWrite ? (
          <Group>
            {newCycle}
            <Button component={Link} to={paths.entity.programs} variant="default">
              Manage programs
            </Button>
          </Group>
        ) : undefined,
      }}
    >
      <BillingCycleFormModal opened={editing !== null} cycle={editing?.cycle ?? null} onClose={() => setEditing(null)} />
      <BillingRunsDrawer cycle={runsOf} onClose={() => setRunsOf(null)} />
    </EntityListPage>
  );
}
