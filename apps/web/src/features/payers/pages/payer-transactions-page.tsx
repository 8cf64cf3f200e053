import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDate, formatDateTime, formatDay, formatMoney, payerPaths, type PaymentRequest, type RequestState } from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { formatPhone } from '../../../lib/phone';
import { usePayer, usePayerRequests } from '../api/payers-api';
import { StatusBadge } from '../../../components/ui/request-state-badge';
import { PayerStatusBadge, VerificationBadge } from '../components/badges';
import { PayersPageHeader } from '../components/payers-page-header';
import { RequestCount } from '../components/request-count';

const SORTS = ['createdAt', 'dueDate', 'amount', 'state', 'reference'] as const;

/** /business/payment/payers/transactions?payerId=: the payer, and every request to pay they were sent. */
export function PayerTransactionsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const payerId = params.get('payerId');
  const payer = usePayer(payerId);
  const get = (key: string) => params.get(key) ?? undefined;
  const query = {
    page: Math.max(1, Number(get('page') ?? 1) || 1),
    pageSize: Number(get('pageSize') ?? 25) || 25,
    sortBy: (SORTS as readonly string[]).includes(get('sortBy') ?? '') ? get('sortBy')! : 'createdAt',
    sortDirection: get('sortDirection') === 'asc' ? ('asc' as const) : ('desc' as const),
  };
  const requests = usePayerRequests(payerId, query);

  const update = (changes: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, String(value));
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  const detailPath = (r: PaymentRequest) => `/business/payment/transactions/history?transid=${encodeURIComponent(r.transactionId)}`;

  const columns: Column<PaymentRequest>[] = [
    {
      key: 'reference',
      header: 'Reference',
      sortKey: 'reference',
      // The way to the details for keyboards and screen readers; the row's click is a mouse shortcut.
      render: (r) => (
        <Anchor component={Link} to={detailPath(r)} ff="monospace" size="sm" aria-label={`View ${r.referenceNumber}`}>
          {r.referenceNumber}
        </Anchor>
      ),
    },
    { key: 'memo', header: 'Memo', render: (r) => r.memo || '—' },
    { key: 'amount', header: 'Amount', sortKey: 'amount', align: 'right', render: (r) => formatMoney(r.amountCents) },
    { key: 'paid', header: 'Paid', align: 'right', render: (r) => formatMoney(r.amountPaidCents) },
    { key: 'status', header: 'Status', sortKey: 'state', render: (r) => <StatusBadge state={r.transactionState as RequestState} /> },
    { key: 'due', header: 'Due', sortKey: 'dueDate', render: (r) => formatDay(r.dueDate) },
    { key: 'created', header: 'Created', sortKey: 'createdAt', render: (r) => formatDateTime(r.createdAt) },
  ];

  if (!payerId) {
    return (
      <Stack gap="md">
        <PayersPageHeader title="Payer transactions" description="Choose a payer from the list to see their requests to pay." />
      </Stack>
    );
  }

  const p = payer.data;
  return (
    <Stack gap="md">
      <PayersPageHeader
        title={p ? `Transactions of ${p.displayName}` : 'Payer transactions'}
        description="Every request to pay sent to this payer."
        actions={
          p?.status === 'active' ? (
            <Button onClick={() => navigate(`/business/payment/request?payerId=${encodeURIComponent(p.payerId)}`)}>Request to Pay</Button>
          ) : undefined
        }
      />
      {payer.error ? (
        <LoadError title="We could not load this payer" error={payer.error} onRetry={() => void payer.refetch()} />
      ) : !p ? (
        <PageLoader />
      ) : (
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" align="flex-start" mb="sm">
            <div>
              <Text fw={600} size="lg">
                {p.displayName}
              </Text>
              <Text size="sm" c="dimmed">
                {p.email}
              </Text>
            </div>
            <Group gap="xs">
              <PayerStatusBadge status={p.status} />
              <VerificationBadge verification={p.verification} />
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Detail label="Mobile" value={formatPhone(p.mobileNumber) || '—'} />
            <Detail label="Reference" value={p.reference ?? '—'} />
            <Detail label="Requests" value={<RequestCount payer={p} />} />
            <Detail label="Added" value={formatDate(p.createdAt)} />
          </SimpleGrid>
          <Group mt="md">
            <Button variant="default" size="xs" onClick={() => navigate(`${payerPaths.add}?payerId=${encodeURIComponent(p.payerId)}`)}>
              Edit payer
            </Button>
          </Group>
        </Card>
      )}
      <DataTable
        caption="Requests to pay of this payer"
        columns={columns}
        rows={requests.data?.items}
        rowKey={(r) => r.transactionId}
        total={requests.data?.total ?? 0}
        page={query.page}
        pageSize={query.pageSize}
        onPageChange={(page) => update({ page })}
        onPageSizeChange={(pageSize) => update({ pageSize })}
        sortBy={query.sortBy}
        sortDirection={query.sortDirection}
        onSortChange={(sortBy, sortDirection) => update({ sortBy, sortDirection })}
        loading={requests.isPending || requests.isPlaceholderData}
        error={requests.error}
        onRetry={() => void requests.refetch()}
        onRowClick={(r) => navigate(detailPath(r))}
        empty={{ title: 'No requests yet', description: 'Requests to pay you send this payer show here with their status.' }}
      />
    </Stack>
  );
}

function Detail({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </div>
  );
}
