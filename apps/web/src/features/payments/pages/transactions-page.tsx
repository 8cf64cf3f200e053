import { Box, Button, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  parseMoney,
  RequestState,
  type PaymentRequest,
  type RequestAction,
  type RequestListQuery,
} from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { downloadRequestsCsv, useBusinessId, useRequestCommand, useRequestList, type RequestCommand } from '../api/requests-api';
import { PayerPicker } from '../components/payer-picker';
import { RequestDetailDrawer } from '../components/request-detail';
import { StatusBadge } from '../../../components/ui/request-state-badge';
import { pageMove } from '../page-move';

const HISTORY_STATES = RequestState.options.filter((s) => s !== 'Draft');
const SORTS = ['createdAt', 'dueDate', 'amount', 'payer', 'state', 'reference'] as const;

/**
 * /business/payment/transactions/history and /draft: every request, with status badges, row
 * actions by state, filters (status, dates, payer, amounts), search, sort, pages and CSV export
 * of the same query. `?transid=` opens a request's details and timeline.
 */
export function TransactionsPage({ view }: { view: 'history' | 'draft' }) {
  useDocumentTitle(view === 'draft' ? 'Draft requests' : 'Transaction history');
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const [params, setParams] = useSearchParams();
  const command = useRequestCommand();

  const get = (key: string) => params.get(key) ?? undefined;
  const minAmount = get('min');
  const maxAmount = get('max');
  const query: RequestListQuery = {
    view,
    page: Number(get('page') ?? 1),
    pageSize: Number(get('pageSize') ?? 25),
    sortBy: (SORTS as readonly string[]).includes(get('sortBy') ?? '') ? (get('sortBy') as RequestListQuery['sortBy']) : 'createdAt',
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(get('status') ? { status: get('status') } : {}),
    ...(get('payerId') ? { payerId: get('payerId') } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
    ...(minAmount && parseMoney(minAmount) !== null ? { minAmountCents: parseMoney(minAmount)! } : {}),
    ...(maxAmount && parseMoney(maxAmount) !== null ? { maxAmountCents: parseMoney(maxAmount)! } : {}),
    ...(get('after') ? { after: get('after') } : get('before') ? { before: get('before') } : {}),
  };
  const list = useRequestList(query);

  const update = (changes: Record<string, string | number | undefined>, resetPage = true) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    if (resetPage && !('page' in changes)) next.delete('page');
    // A new page, filter or sort drops the row the current page was found from.
    if (!('after' in changes) && !('before' in changes)) {
      next.delete('after');
      next.delete('before');
    }
    setParams(next, { replace: true });
  };

  const run = (row: PaymentRequest, name: RequestCommand, verb: string) =>
    command.mutate(
      { requestId: row.transactionId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: `Request ${verb}`, message: `${row.referenceNumber} for ${formatMoney(row.amountCents)}.` }),
        onError: (error) => notifications.show({ color: 'red', title: `Not ${verb}`, message: error.message }),
      },
    );

  const TITLES: Record<RequestCommand, string> = { send: 'Send', resend: 'Resend', withdraw: 'Withdraw', cancel: 'Cancel', delete: 'Delete' };
  const confirm = (row: PaymentRequest, name: RequestCommand, verb: string, text: string, danger = false) =>
    modals.openConfirmModal({
      title: `${TITLES[name]} ${row.referenceNumber}?`,
      children: <Text size="sm">{text}</Text>,
      labels: { confirm: `Yes, ${name}`, cancel: 'Keep it' },
      confirmProps: danger ? { color: 'red' } : {},
      onConfirm: () => run(row, name, verb),
    });

  const actionHandlers: Record<RequestAction, (row: PaymentRequest) => void> = {
    Edit: (row) => navigate(`/business/payment/request?transid=${encodeURIComponent(row.transactionId)}`),
    Copy: (row) => navigate(`/business/payment/request?transid=${encodeURIComponent(row.transactionId)}`),
    Delete: (row) => confirm(row, 'delete', 'deleted', 'The draft is removed for good.', true),
    Cancel: (row) => confirm(row, 'cancel', 'cancelled', 'The scheduled request will not be sent.', true),
    Resend: (row) => confirm(row, 'resend', 'resent', `${row.payerName} gets a new e-mail with a new link; earlier links stop working.`),
    Withdraw: (row) => confirm(row, 'withdraw', 'withdrawn', `${row.payerName} can no longer pay it; their page will say it was withdrawn.`, true),
    'View/Download': (row) => update({ transid: row.transactionId }, false),
  };

  const actions = (row: PaymentRequest): RowAction<PaymentRequest>[] =>
    (row.actions as RequestAction[]).map((label) => ({
      label: label === 'View/Download' ? 'View receipt' : label,
      onClick: actionHandlers[label],
      ...(label === 'Delete' || label === 'Withdraw' || label === 'Cancel' ? { color: 'red' } : {}),
    }));

  const columns: Column<PaymentRequest>[] = [
    { key: 'reference', header: 'Reference', sortKey: 'reference', render: (r) => <Text ff="monospace" size="sm">{r.referenceNumber}</Text> },
    {
      key: 'payer',
      header: 'Payer',
      sortKey: 'payer',
      render: (r) => (
        <div>
          <Text size="sm">{r.payerName}</Text>
          <Text size="xs" c="dimmed">
            {r.payerEmail}
          </Text>
        </div>
      ),
    },
    { key: 'amount', header: 'Amount', sortKey: 'amount', align: 'right', render: (r) => formatMoney(r.amountCents) },
    { key: 'paid', header: 'Paid', align: 'right', render: (r) => formatMoney(r.amountPaidCents) },
    { key: 'status', header: 'Status', sortKey: 'state', render: (r) => <StatusBadge state={r.transactionState} /> },
    { key: 'due', header: 'Due', sortKey: 'dueDate', render: (r) => formatDate(`${r.dueDate}T12:00:00`) },
    { key: 'created', header: 'Created', sortKey: 'createdAt', render: (r) => formatDateTime(r.createdAt) },
  ];

  const filters = (
    <>
      {view === 'history' && (
        <MultiSelect
          aria-label="Status"
          placeholder="Any status"
          data={HISTORY_STATES}
          value={query.status ? query.status.split(',') : []}
          onChange={(value) => update({ status: value.join(',') })}
          clearable
          w={220}
        />
      )}
      <TextInput aria-label="From date" type="date" value={query.from ?? ''} onChange={(e) => update({ from: e.currentTarget.value })} w={150} />
      <TextInput aria-label="To date" type="date" value={query.to ?? ''} onChange={(e) => update({ to: e.currentTarget.value })} w={150} />
      <TextInput aria-label="Smallest amount" placeholder="Min $" defaultValue={minAmount ?? ''} onBlur={(e) => update({ min: e.currentTarget.value })} w={100} />
      <TextInput aria-label="Largest amount" placeholder="Max $" defaultValue={maxAmount ?? ''} onBlur={(e) => update({ max: e.currentTarget.value })} w={100} />
      <Box w={240}>
        <PayerPicker
          compact
          value={query.payerId ? { payerId: query.payerId, displayName: get('payerName') ?? 'Selected payer', email: '' } : null}
          onChange={(p) => update({ payerId: p?.payerId, payerName: p?.displayName })}
        />
      </Box>
    </>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{view === 'draft' ? 'Draft requests' : 'Transaction history'}</Title>
          <Text c="dimmed" size="sm">
            {view === 'draft' ? 'Requests you saved but have not sent.' : 'Every request you sent, and where each one stands.'}
          </Text>
        </div>
        <Group>
          <Button variant="default" onClick={() => navigate(view === 'draft' ? '/business/payment/transactions/history' : '/business/payment/transactions/draft')}>
            {view === 'draft' ? 'Transaction history' : 'Drafts'}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => navigate('/business/payment/request')}>
            New request
          </Button>
        </Group>
      </Group>
      <DataTable
        caption={view === 'draft' ? 'Draft requests' : 'Transaction history'}
        columns={columns}
        rows={list.data?.items}
        rowKey={(r) => r.transactionId}
        total={list.data?.total ?? 0}
        page={Number(query.page ?? 1)}
        pageSize={Number(query.pageSize ?? 25)}
        onPageChange={(page) => update(pageMove(Number(query.page ?? 1), page, list.data?.items), false)}
        onPageSizeChange={(pageSize) => update({ pageSize })}
        sortBy={query.sortBy ?? 'createdAt'}
        sortDirection={query.sortDirection ?? 'desc'}
        onSortChange={(sortBy, sortDirection) => update({ sortBy, sortDirection })}
        search={query.search ?? ''}
        onSearchChange={(search) => update({ search })}
        searchPlaceholder="Payer name, e-mail or TRX number"
        filters={filters}
        onExport={() =>
          businessId &&
          void downloadRequestsCsv(businessId, query).catch((error: Error) =>
            notifications.show({ color: 'red', title: 'Export failed', message: error.message }),
          )
        }
        actions={actions}
        loading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        onRowClick={(row) => update({ transid: row.transactionId }, false)}
        empty={{
          title: view === 'draft' ? 'No drafts' : query.search || query.status || query.from || query.to ? 'Nothing matches' : 'No requests yet',
          description:
            view === 'draft'
              ? 'Requests you save as drafts wait here until you send them.'
              : query.search || query.status || query.from || query.to
                ? 'Change the search or filters to see more.'
                : 'Send your first request to pay; it shows here with its status.',
          action: (
            <Button mt="xs" onClick={() => navigate('/business/payment/request')}>
              Request a payment
            </Button>
          ),
        }}
      />
      <RequestDetailDrawer requestId={params.get('transid')} onClose={() => update({ transid: undefined }, false)} />
    </Stack>
  );
}
