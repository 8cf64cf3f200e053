import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  daysLeftLabel,
  DISPUTE_REASON_LABELS,
  DISPUTE_REASONS,
  DISPUTE_STATE_LABELS,
  DisputeState,
  formatMoney,
  getHref,
  paths,
  type Dispute,
  type DisputeListQuery,
} from '@tay/contract';
import { type Column } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { NameCell } from '../../../components/ui/name-cell';
import { useBusinessTime } from '../../../lib/business-time';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { downloadDisputesCsv, useDisputeList } from '../api/disputes-api';
import { DisputeDrawer, DisputeStateBadge } from '../components/dispute-drawer';

const SORTS = ['createdAt', 'evidenceDueAt'] as const;
const STATE_OPTIONS = DisputeState.options.map((s) => ({ value: s, label: DISPUTE_STATE_LABELS[s] }));
const REASON_OPTIONS = DISPUTE_REASONS.map((r) => ({ value: r, label: DISPUTE_REASON_LABELS[r] }));

const requestHref = (requestId: string) => getHref(paths.payments.history, undefined, { transid: requestId });

/**
 * /business/payment/disputes — every dispute of the business (ADR 051): the payment a payer's
 * bank took back, how much, why, when the evidence is due (with the days left while it needs a
 * response) and how it stands. Filtered by state and reason, searched by TRX number or payer,
 * sorted by opening or due date, exported as CSV. A row opens the dispute (`?dispute=`), where
 * owners and admins answer it or accept it.
 */
export function DisputesPage() {
  const params = useListParams();
  const clock = useBusinessTime();
  const query: DisputeListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'state', DisputeState.options),
    ...oneOf(params, 'reason', DISPUTE_REASONS),
  };
  const list = useDisputeList(query);
  const open = params.get('dispute') ?? null;
  const show = (d: Dispute) => params.update({ dispute: d.disputeId }, false);

  const columns: Column<Dispute>[] = [
    { key: 'opened', header: 'Opened', sortKey: 'createdAt', render: (d) => clock.dateTime(d.createdAt) },
    {
      key: 'request',
      header: 'Request',
      render: (d) => (
        <Anchor component={Link} to={requestHref(d.requestId)} ff="monospace" size="sm" aria-label={`View ${d.referenceNumber}`}>
          {d.referenceNumber}
        </Anchor>
      ),
    },
    { key: 'payer', header: 'Payer', render: (d) => <NameCell name={d.payerName} detail={d.instrument} /> },
    { key: 'amount', header: 'Disputed', align: 'right', render: (d) => formatMoney(d.amountCents) },
    { key: 'reason', header: 'Reason', render: (d) => DISPUTE_REASON_LABELS[d.reason] },
    {
      key: 'due',
      header: 'Evidence due',
      sortKey: 'evidenceDueAt',
      render: (d) => (
        <div>
          <Text size="sm">{clock.date(d.evidenceDueAt)}</Text>
          {d.state === 'NeedsResponse' && (
            <Text size="xs" c="orange" fw={600}>
              {daysLeftLabel(d.evidenceDueAt)}
            </Text>
          )}
        </div>
      ),
    },
    { key: 'state', header: 'Status', render: (d) => <DisputeStateBadge state={d.state} /> },
  ];

  return (
    <EntityListPage
      title="Disputes"
      description="Payments a payer’s bank took back. The disputed amount and the dispute fee leave your available balance when a dispute opens; answer with evidence before the due date to win them back."
      actions={
        <Button variant="default" component={Link} to={paths.payments.history}>
          Transaction history
        </Button>
      }
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'state', label: 'Status', placeholder: 'Any status', data: STATE_OPTIONS, width: 160 },
        { name: 'reason', label: 'Reason', placeholder: 'Any reason', data: REASON_OPTIONS, width: 220 },
      ]}
      caption="Disputes"
      columns={columns}
      rowKey={(d) => d.disputeId}
      rowActions={(d) => [{ label: d.state === 'NeedsResponse' ? 'Respond' : 'View', onClick: show }]}
      onRowClick={show}
      searchPlaceholder="TRX number or payer name"
      download={(id) => downloadDisputesCsv(id, query)}
      noMatches={{ title: 'No disputes match', description: 'Nothing matches the search and filters you chose. Clear them to see every dispute.' }}
      empty={{
        title: 'No disputes',
        description: 'When a payer’s bank disputes a card payment, it shows here with the date its evidence is due. You are e-mailed when one opens.',
      }}
    >
      <DisputeDrawer disputeId={open} onClose={() => params.update({ dispute: undefined }, false)} />
    </EntityListPage>
  );
}
