import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatMoney, paths, PAYOUT_STATE_LABELS, PayoutState, type Payout, type PayoutListQuery } from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { useListParams } from '../../../lib/list-params';
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
  const clock = useBusinessTime();
  const params = useListParams();
  const { get, update, page, pageSize } = params;
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
    <EntityListPage
      title="All payouts"
      documentTitle="Payouts"
      description={
        list.data && `${list.data.totals.count} payouts, ${formatMoney(list.data.totals.amountCents)} (fees ${formatMoney(list.data.totals.feeCents)})`
      }
      actions={
        <Button component={Link} to={paths.payouts.request} leftSection={<IconPlus size={16} />} disabled={!canOperate}>
          New payout
        </Button>
      }
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'state', label: 'Status', placeholder: 'Any status', data: STATE_OPTIONS, width: 180 },
        { name: 'from', type: 'date', label: 'From', width: 160 },
        { name: 'to', type: 'date', label: 'To', width: 160 },
        { name: 'receiverId', type: 'link' },
        { name: 'batchId', type: 'link' },
      ]}
      caption="Payouts"
      columns={columns}
      rowKey={(p) => p.payoutId}
      searchPlaceholder="Receiver, e-mail or PAY-number"
      rowActions={actions}
      onRowClick={(p) => update({ payoutId: p.payoutId }, false)}
      download={(id) => downloadPayoutsCsv(id, query)}
      noMatches={{ title: 'No payouts match', description: 'Nothing matches the filters you chose. Clear them to see every payout.' }}
      empty={{ title: 'No payouts yet', description: 'Pay a receiver with New payout; each payout shows here.' }}
    >
      <PayoutDetailDrawer
        payoutId={openId}
        onClose={() => update({ payoutId: undefined }, false)}
        canOperate={canOperate}
        canApprove={canApprove}
        onAction={(action, payout) => run(action, payout)}
      />
      {modals}
    </EntityListPage>
  );
}
