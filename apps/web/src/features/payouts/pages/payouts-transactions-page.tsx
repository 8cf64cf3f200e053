import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatMoney, paths, PAYOUT_STATE_LABELS, PayoutState, type Payout, type PayoutListQuery } from '@tay/contract';
import { ClearFiltersButton, noMatches, exportCsv } from '../../../components/ui/list-filters';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { useListParams, listTableProps } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { downloadPayoutsCsv, usePayoutList, usePayoutSettings } from '../api/payouts-api';
import { PAYOUT_ACTION_LABELS, permittedPayoutActions, usePayoutActions } from '../components/payout-actions';
import { PayoutDetailDrawer } from '../components/payout-detail-drawer';
import { PayoutStateBadge } from '../components/payout-state-badge';
import { useBusinessTime } from '../../../lib/business-time';

const SORTS = ['createdAt', 'amount', 'receiver'] as const;
const STATE_OPTIONS = PayoutState.options.map((s) => ({ value: s, label: PAYOUT_STATE_LABELS[s] }));
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * /business/payouts/payment/transactions: every payout, with state, date, receiver (`?receiverId=`)
 * and batch (`?batchId=`) filters, search, sort, pages and CSV export, all in the URL; a row opens
 * its detail (`?payoutId=`) with the timeline and actions.
 */
export function PayoutsTransactionsPage() {
  useDocumentTitle('Payouts');
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const { get, update, page, pageSize } = useListParams();
  const settings = usePayoutSettings();
  const { run, modals, canOperate, canApprove } = usePayoutActions(settings.data?.feeCents ?? 0);

  const sortBy = get('sortBy');
  const state = get('state');
  const from = get('from');
  const to = get('to');
  const query: PayoutListQuery = {
    page,
    pageSize,
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as (typeof SORTS)[number]) : 'createdAt',
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...((PayoutState.options as readonly string[]).includes(state ?? '') ? { state: state as PayoutState } : {}),
    ...(get('receiverId') ? { receiverId: get('receiverId') } : {}),
    ...(get('batchId') ? { batchId: get('batchId') } : {}),
    ...(from && DAY.test(from) ? { from } : {}),
    ...(to && DAY.test(to) ? { to } : {}),
  };
  const list = usePayoutList(query);
  const openId = get('payoutId') ?? null;
  const filtered = Boolean(query.search || query.state || query.receiverId || query.batchId || query.from || query.to);
  const clearFilters = () => update({ search: undefined, state: undefined, receiverId: undefined, batchId: undefined, from: undefined, to: undefined });

  const actions = (p: Payout): RowAction<Payout>[] =>
    permittedPayoutActions(p.actions, canOperate, canApprove).map((action) => ({
      label: PAYOUT_ACTION_LABELS[action],
      onClick: (row) => run(action, row),
      ...(action === 'Reject' || action === 'Cancel' ? { color: 'red' } : {}),
    }));

  const columns: Column<Payout>[] = [
    { key: 'reference', header: 'Reference', render: (p) => p.reference },
    {
      key: 'receiver',
      header: 'Receiver',
      sortKey: 'receiver',
      render: (p) => (
        <div>
          <Text size="sm">{p.receiverName}</Text>
          <Text size="xs" c="dimmed">
            {p.receiverEmail}
          </Text>
        </div>
      ),
    },
    { key: 'amount', header: 'Amount', sortKey: 'amount', align: 'right', render: (p) => formatMoney(p.amountCents) },
    { key: 'fee', header: 'Fee', align: 'right', render: (p) => (p.feeCents ? formatMoney(p.feeCents) : '—') },
    { key: 'state', header: 'Status', render: (p) => <PayoutStateBadge state={p.state} /> },
    { key: 'created', header: 'Created', sortKey: 'createdAt', render: (p) => clock.date(p.createdAt) },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>All payouts</Title>
          {list.data && (
            <Text c="dimmed" size="sm">
              {list.data.totals.count} payouts, {formatMoney(list.data.totals.amountCents)} (fees {formatMoney(list.data.totals.feeCents)})
            </Text>
          )}
        </div>
        <Button component={Link} to={paths.payouts.request} leftSection={<IconPlus size={16} />} disabled={!canOperate}>
          New payout
        </Button>
      </Group>
      <DataTable
        caption="Payouts"
        columns={columns}
        {...listTableProps(list, query, { update, page, pageSize }, { sortBy: 'createdAt', sortDirection: 'desc' })}
        rowKey={(p) => p.payoutId}
        searchPlaceholder="Receiver, e-mail or PAY-number"
        filters={
          <>
            <Select
              label="Status"
              placeholder="Any status"
              data={STATE_OPTIONS}
              value={query.state ?? null}
              onChange={(value) => update({ state: value })}
              clearable
              w={180}
            />
            <TextInput type="date" label="From" value={query.from ?? ''} onChange={(e) => update({ from: e.currentTarget.value || undefined })} w={160} />
            <TextInput type="date" label="To" value={query.to ?? ''} onChange={(e) => update({ to: e.currentTarget.value || undefined })} w={160} />
            {filtered && <ClearFiltersButton onClick={clearFilters} />}
          </>
        }
        onExport={() => businessId && exportCsv(downloadPayoutsCsv(businessId, query))}
        actions={actions}
        onRowClick={(p) => update({ payoutId: p.payoutId }, false)}
        empty={
          filtered
            ? noMatches('No payouts match', 'Nothing matches the filters you chose. Clear them to see every payout.', clearFilters)
            : { title: 'No payouts yet', description: 'Pay a receiver with New payout; each payout shows here.' }
        }
      />
      <PayoutDetailDrawer
        payoutId={openId}
        onClose={() => update({ payoutId: undefined }, false)}
        canOperate={canOperate}
        canApprove={canApprove}
        onAction={(action, payout) => run(action, payout)}
      />
      {modals}
    </Stack>
  );
}
