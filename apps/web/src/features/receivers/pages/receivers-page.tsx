import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  formatMoney,
  RECEIVER_STATUS_LABELS,
  RECEIVER_VERIFICATION_LABELS,
  ReceiverStatus,
  ReceiverVerification,
  type Receiver,
  type ReceiverListQuery,
  receiverEndpoints,
} from '@tay/contract';
import { type Column, rowActionsOf } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadReceiversCsv, useReceiverList } from '../api/receivers-api';
import { permittedReceiverActions, useReceiverActions } from '../components/receiver-actions';
import { ReceiverReviewBadge } from '../../../components/ui/receiver-review-badge';
import { ReceiverStatusBadge, ReceiverVerificationBadge } from '../components/receiver-badges';
import { ReceiverFormModal } from '../components/receiver-form-modal';
import { useBusinessTime } from '../../../lib/business-time';

const SORTS = ['createdAt', 'name', 'email'] as const;
const STATUS_OPTIONS = ReceiverStatus.options.map((s) => ({ value: s, label: RECEIVER_STATUS_LABELS[s] }));
const VERIFICATION_OPTIONS = ReceiverVerification.options.map((s) => ({ value: s, label: RECEIVER_VERIFICATION_LABELS[s] }));
const REVIEW_OPTIONS = [
  { value: 'unreviewed', label: 'Not reviewed' },
  { value: 'reviewed', label: 'Reviewed' },
];

/**
 * /business/payouts/receivers — Manage Receivers: the people the business pays, whether each has
 * entered a bank account (the bank's name and •••• last 4 only), what they were paid; search,
 * filters, sort, pages and CSV export kept in the URL; add and edit in a modal; the row actions.
 */
export function ReceiversPage() {
  const clock = useBusinessTime();
  const access = useEndpointAccess(receiverEndpoints.create);
  const params = useListParams();
  const [editing, setEditing] = useState<{ receiver: Receiver | null } | null>(null);
  const { run, canWrite, canReview } = useReceiverActions({ onEdit: (receiver) => setEditing({ receiver }) });

  const query: ReceiverListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', ReceiverStatus.options),
    ...oneOf(params, 'verification', ReceiverVerification.options),
    ...oneOf(params, 'review', ['unreviewed', 'reviewed'] as const),
  };
  const list = useReceiverList(query);

  const actions = (r: Receiver) => rowActionsOf(permittedReceiverActions(r.actions, canWrite, canReview), run);

  const columns: Column<Receiver>[] = [
    {
      key: 'name',
      header: 'Name',
      sortKey: 'name',
      render: (r) => (
        <NameCell name={`${r.firstName} ${r.lastName}`} detail={r.reference && `Ref. ${r.reference}`}>
          <ReceiverReviewBadge reviewed={r.reviewed} addedVia={r.addedVia} />
        </NameCell>
      ),
    },
    { key: 'email', header: 'E-mail', sortKey: 'email', render: (r) => r.email },
    { key: 'verification', header: 'Verification', render: (r) => <ReceiverVerificationBadge verification={r.verification} /> },
    { key: 'bank', header: 'Bank account', render: (r) => (r.bank ? `${r.bank.bankName} •••• ${r.bank.last4}` : '—') },
    { key: 'paid', header: 'Paid', align: 'right', render: (r) => (r.paidCount > 0 ? `${formatMoney(r.paidCents)} (${r.paidCount})` : '—') },
    { key: 'status', header: 'Status', render: (r) => <ReceiverStatusBadge status={r.status} /> },
    { key: 'created', header: 'Added', sortKey: 'createdAt', render: (r) => clock.date(r.createdAt) },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ receiver: null })} disabled={!access.allowed}>
      Add receiver
    </Button>
  );

  return (
    <EntityListPage
      title="Manage Receivers"
      documentTitle="Receivers"
      description="The people you pay. Each enters their own bank account on a secure link we e-mail them."
      actions={addButton}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 },
        { name: 'verification', label: 'Verification', placeholder: 'Any', data: VERIFICATION_OPTIONS, width: 220 },
        { name: 'review', label: 'Review', placeholder: 'Any', data: REVIEW_OPTIONS, width: 160 },
      ]}
      caption="Receivers"
      columns={columns}
      rowKey={(r) => r.receiverId}
      searchPlaceholder="Name, e-mail or reference"
      rowActions={actions}
      download={(id) => downloadReceiversCsv(id, query)}
      noMatches={{ title: 'No receivers match', description: 'Nothing matches the search and filters you chose. Clear them to see every receiver.' }}
      empty={{
        title: 'No receivers yet',
        description: 'Add the people you pay. We e-mail each a secure link to enter their bank account; then you can pay them.',
        action: canWrite ? addButton : undefined,
      }}
    >
      <ReceiverFormModal opened={editing !== null} receiver={editing?.receiver ?? null} onClose={() => setEditing(null)} />
    </EntityListPage>
  );
}
