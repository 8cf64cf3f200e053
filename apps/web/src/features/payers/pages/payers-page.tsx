import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import {
  getHref,
  paths,
  type Payer,
  type PayerAction,
  payerActions,
  type PayerListQuery,
  payerPaths,
  payerEndpoints,
  paymentRequestEndpoints,
} from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { useBusinessTime } from '../../../lib/business-time';
import { formatPhone } from '../../../lib/phone';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { downloadPayersCsv, usePayerCommand, usePayerList, type PayerCommand } from '../api/payers-api';
import { PayerStatusBadge, VerificationBadge } from '../components/badges';
import { RequestCount } from '../components/request-count';

const SORTS = ['name', 'email', 'createdAt', 'status'] as const;
const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'Disabled', label: 'Disabled' },
];
const VERIFICATION_OPTIONS = [
  { value: 'verified', label: 'Verified' },
  { value: 'unverified', label: 'Unverified' },
];

/**
 * /business/payment/payers: the business's payers with search (name or e-mail begins with, exact
 * reference), status and verification filters, sort, pages, CSV export of the same query, and the
 * row actions of `payerActions` (docs/product.md §4).
 */
export function PayersPage() {
  const navigate = useNavigate();
  const clock = useBusinessTime();
  const access = useEndpointAccess(payerEndpoints.create);
  const canRequest = useEndpointAccess(paymentRequestEndpoints.create).allowed;
  const params = useListParams();
  const command = usePayerCommand();

  const query: PayerListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', ['active', 'Disabled'] as const),
    ...oneOf(params, 'verification', ['verified', 'unverified'] as const),
  };
  const list = usePayerList(query);

  const run = (payer: Payer, name: PayerCommand, done: string, failed: string) =>
    command.mutate(
      { payerId: payer.payerId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: done, message: payer.displayName }),
        onError: (error) => notifications.show({ color: 'red', title: failed, message: error.message }),
      },
    );

  const handlers: Record<PayerAction, (payer: Payer) => void> = {
    Edit: (p) => void navigate(`${payerPaths.add}?payerId=${encodeURIComponent(p.payerId)}`),
    'Request to Pay': (p) => void navigate(getHref(paths.payments.request, undefined, { payerId: p.payerId })),
    Transactions: (p) => void navigate(`${payerPaths.transactions}?payerId=${encodeURIComponent(p.payerId)}`),
    Activate: (p) => run(p, 'activate', 'Payer activated', 'Payer not activated'),
    Deactivate: (p) =>
      modals.openConfirmModal({
        title: `Deactivate ${p.displayName}?`,
        children: <Text size="sm">You cannot send this payer new requests to pay until you activate them again. Requests already sent stay as they are.</Text>,
        labels: { confirm: 'Deactivate payer', cancel: 'Keep active' },
        confirmProps: { color: 'red' },
        onConfirm: () => run(p, 'deactivate', 'Payer deactivated', 'Payer not deactivated'),
      }),
    'Resend verification': (p) => run(p, 'resend-verification', `Verification e-mail sent to ${p.email}`, 'Verification e-mail not sent'),
    'Re-verify': (p) =>
      modals.openConfirmModal({
        title: `Ask ${p.displayName} to confirm their e-mail again?`,
        children: <Text size="sm">{p.email} gets a new link. The payer shows as unverified until they open it; earlier links stop working.</Text>,
        labels: { confirm: 'Send a new link', cancel: 'Keep as is' },
        onConfirm: () => run(p, 'reverify', `Verification e-mail sent to ${p.email}`, 'Verification e-mail not sent'),
      }),
    Delete: (p) =>
      modals.openConfirmModal({
        title: `Delete ${p.displayName}?`,
        children: <Text size="sm">The payer is removed for good. Payers with requests to pay cannot be deleted; deactivate them instead.</Text>,
        labels: { confirm: 'Delete payer', cancel: 'Keep payer' },
        confirmProps: { color: 'red' },
        onConfirm: () => run(p, 'delete', 'Payer deleted', 'Payer not deleted'),
      }),
  };

  // Without the right to change payers (or to request payments), only their Transactions stay.
  const permitted = (label: PayerAction) => (label === 'Transactions' ? true : label === 'Request to Pay' ? canRequest : access.allowed);
  const actions = (payer: Payer): RowAction<Payer>[] =>
    payerActions(payer)
      .filter(permitted)
      .map((label) => ({ label, onClick: handlers[label], ...(label === 'Delete' ? { color: 'red' } : {}) }));

  const columns: Column<Payer>[] = [
    {
      key: 'name',
      header: 'Name',
      sortKey: 'name',
      render: (p) => <NameCell name={p.displayName} detail={p.reference && `Ref. ${p.reference}`} />,
    },
    { key: 'email', header: 'E-mail', sortKey: 'email', render: (p) => p.email },
    { key: 'mobile', header: 'Mobile', render: (p) => formatPhone(p.mobileNumber) || '—' },
    { key: 'status', header: 'Status', sortKey: 'status', render: (p) => <PayerStatusBadge status={p.status} /> },
    { key: 'verification', header: 'Verification', render: (p) => <VerificationBadge verification={p.verification} /> },
    { key: 'transactions', header: 'Requests', align: 'right', render: (p) => <RequestCount payer={p} /> },
    { key: 'created', header: 'Added', sortKey: 'createdAt', render: (p) => clock.date(p.createdAt) },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(payerPaths.add)} disabled={!access.allowed}>
      Add a payer
    </Button>
  );

  return (
    <EntityListPage
      title="Manage Payers"
      description="The people and companies you ask for money."
      actions={
        <>
          <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => navigate(payerPaths.import)} disabled={!access.allowed}>
            Import payers
          </Button>
          {addButton}
        </>
      }
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 150 },
        { name: 'verification', label: 'Verification', placeholder: 'Any verification', data: VERIFICATION_OPTIONS, width: 170 },
      ]}
      caption="Payers"
      columns={columns}
      rowKey={(p) => p.payerId}
      searchPlaceholder="Name, e-mail or reference"
      rowActions={actions}
      download={(id) => downloadPayersCsv(id, query)}
      noMatches={{ title: 'No payer matches', description: 'Change the search or filters to see more.', clear: false }}
      empty={{
        title: 'No payers yet',
        description: 'Add the people and companies you ask for money, one by one or from a spreadsheet.',
        action: addButton,
      }}
    />
  );
}
