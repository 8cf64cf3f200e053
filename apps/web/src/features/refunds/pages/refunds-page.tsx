import { Anchor, Badge, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney, getHref, paths, REFUND_REASON_LABELS, REFUND_REASONS, RefundState, type Refund, type RefundListQuery } from '@tay/contract';
import { type Column } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { NameCell } from '../../../components/ui/name-cell';
import { useBusinessTime } from '../../../lib/business-time';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { downloadRefundsCsv, useRefundList } from '../api/refunds-api';

const SORTS = ['createdAt'] as const;
const STATE_COLORS: Record<RefundState, string> = { Pending: 'blue', Succeeded: 'teal', Failed: 'red' };
const STATE_LABELS: Record<RefundState, string> = { Pending: 'Pending', Succeeded: 'Succeeded', Failed: 'Failed' };
const STATE_OPTIONS = RefundState.options.map((s) => ({ value: s, label: STATE_LABELS[s] }));
const REASON_OPTIONS = REFUND_REASONS.map((r) => ({ value: r, label: REFUND_REASON_LABELS[r] }));

/** The request's details in the history, where its refunds and timeline are. */
const requestHref = (requestId: string) => getHref(paths.payments.history, undefined, { transid: requestId });

/**
 * /business/payment/refunds — every refund of the business (ADR 051), newest first: the request
 * and payer, where the money went back to, the amount, the reason, who refunded and how it
 * ended (a failed one says why). Filtered by state and reason, searched by TRX number or payer,
 * exported as CSV. A refund is made from the request: its row in the history, or its details.
 */
export function RefundsPage() {
  const params = useListParams();
  const clock = useBusinessTime();
  const query: RefundListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'state', RefundState.options),
    ...oneOf(params, 'reason', REFUND_REASONS),
  };
  const list = useRefundList(query);

  const columns: Column<Refund>[] = [
    { key: 'created', header: 'Date', sortKey: 'createdAt', render: (r) => clock.dateTime(r.createdAt) },
    {
      key: 'request',
      header: 'Request',
      render: (r) => (
        <Anchor component={Link} to={requestHref(r.requestId)} ff="monospace" size="sm" aria-label={`View ${r.referenceNumber}`}>
          {r.referenceNumber}
        </Anchor>
      ),
    },
    { key: 'payer', header: 'Payer', render: (r) => <NameCell name={r.payerName} detail={r.instrument} /> },
    { key: 'amount', header: 'Amount', align: 'right', render: (r) => formatMoney(r.amountCents) },
    {
      key: 'reason',
      header: 'Reason',
      render: (r) => <NameCell name={REFUND_REASON_LABELS[r.reason]} detail={r.note} />,
    },
    { key: 'by', header: 'Refunded by', render: (r) => r.createdBy ?? '—' },
    {
      key: 'state',
      header: 'Status',
      render: (r) => (
        <div>
          <Badge color={STATE_COLORS[r.state]} variant="light" radius="sm" data-state={r.state}>
            {STATE_LABELS[r.state]}
          </Badge>
          {r.failureReason && (
            <Text size="xs" c="red">
              {r.failureReason}
            </Text>
          )}
        </div>
      ),
    },
  ];

  return (
    <EntityListPage
      title="Refunds"
      description="Money you sent back to payers, and how each refund ended. Refund a payment from its request in the transaction history."
      actions={
        <Button variant="default" component={Link} to={paths.payments.history}>
          Transaction history
        </Button>
      }
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'state', label: 'Status', placeholder: 'Any status', data: STATE_OPTIONS, width: 150 },
        { name: 'reason', label: 'Reason', placeholder: 'Any reason', data: REASON_OPTIONS, width: 200 },
      ]}
      caption="Refunds"
      columns={columns}
      rowKey={(r) => r.refundId}
      searchPlaceholder="TRX number or payer name"
      download={(id) => downloadRefundsCsv(id, query)}
      noMatches={{ title: 'No refunds match', description: 'Nothing matches the search and filters you chose. Clear them to see every refund.' }}
      empty={{
        title: 'No refunds yet',
        description: 'When you refund a payment — from its row in the transaction history or its details — it shows here with how it ended.',
      }}
    />
  );
}
