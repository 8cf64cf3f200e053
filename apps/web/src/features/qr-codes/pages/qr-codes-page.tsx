import { Anchor, Button, Text } from '@mantine/core';
import { IconHistory, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { formatDay, formatMoney, QR_STATUS_LABELS, QrCodeDisplayStatus, type QrCode, type QrCodeListQuery, qrCodeEndpoints } from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { useBusinessTime } from '../../../lib/business-time';
import { baseListQuery, oneOf, useListParams } from '../../../lib/list-params';
import { qrCodeDownloadHref, qrCodeManageHref, qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadQrCodesCsv, useQrCodeList } from '../api/qr-codes-api';
import { QR_ACTION_LABELS, permittedQrCodeActions, useQrCodeActions } from '../components/qr-code-actions';
import { QrStatusBadge } from '../components/qr-status-badge';
import { qrAmountText } from '../qr-amount';

const SORTS = ['createdAt', 'label', 'collected', 'payments', 'scans'] as const;
const STATUS_OPTIONS = QrCodeDisplayStatus.options.map((s) => ({ value: s, label: QR_STATUS_LABELS[s] }));

/**
 * /business/payment/qrcode: the business's QR codes with what each charges, its scans, payments
 * and total collected, and its status; search by label, a status filter, sort, pages and CSV
 * export of the same query, all kept in the URL; the row actions the API gives each code.
 */
export function QrCodesPage() {
  const navigate = useNavigate();
  const clock = useBusinessTime();
  const access = useEndpointAccess(qrCodeEndpoints.create);
  const params = useListParams();
  const { run, canWrite } = useQrCodeActions();

  const query: QrCodeListQuery = {
    ...baseListQuery(params, SORTS, 'createdAt'),
    ...oneOf(params, 'status', QrCodeDisplayStatus.options),
  };
  const list = useQrCodeList(query);

  const actions = (code: QrCode): RowAction<QrCode>[] =>
    permittedQrCodeActions(code.actions, canWrite).map((action) => ({
      label: QR_ACTION_LABELS[action],
      onClick: (c) => run(action, c),
      ...(action === 'Delete' ? { color: 'red' } : {}),
    }));

  const columns: Column<QrCode>[] = [
    {
      key: 'label',
      header: 'Label',
      sortKey: 'label',
      // The way to the code for keyboards and screen readers; the row's click is a mouse shortcut.
      render: (c) => (
        <div>
          <Anchor component={Link} to={qrCodeDownloadHref(c.qrId)} size="sm" fw={500}>
            {c.label}
          </Anchor>
          {c.expiresOn && (
            <Text size="xs" c="dimmed">
              {c.displayStatus === 'Expired' ? 'Expired' : 'Expires'} after {formatDay(c.expiresOn)}
            </Text>
          )}
        </div>
      ),
    },
    { key: 'amount', header: 'Amount', render: (c) => qrAmountText(c) },
    { key: 'scans', header: 'Scans', sortKey: 'scans', align: 'right', render: (c) => c.scans.toLocaleString('en-US') },
    { key: 'payments', header: 'Payments', sortKey: 'payments', align: 'right', render: (c) => c.payments.toLocaleString('en-US') },
    { key: 'collected', header: 'Total collected', sortKey: 'collected', align: 'right', render: (c) => formatMoney(c.collectedCents) },
    { key: 'status', header: 'Status', render: (c) => <QrStatusBadge status={c.displayStatus} /> },
    { key: 'created', header: 'Created', sortKey: 'createdAt', render: (c) => clock.date(c.createdAt) },
  ];

  const newCode = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(qrCodeManageHref())} disabled={!access.allowed}>
      New QR code
    </Button>
  );

  return (
    <EntityListPage
      title="Manage QR Codes"
      documentTitle="QR codes"
      description="Codes your payers scan with their phone to pay you: at a counter, on a flyer, at an event."
      actions={
        <>
          <Button variant="default" component={Link} to={qrCodeTransactionsHref()} leftSection={<IconHistory size={16} />}>
            Payments through codes
          </Button>
          {newCode}
        </>
      }
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[{ name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 }]}
      caption="QR codes"
      columns={columns}
      rowKey={(c) => c.qrId}
      searchPlaceholder="Label"
      rowActions={actions}
      onRowClick={(code) => void navigate(qrCodeDownloadHref(code.qrId))}
      download={(id) => downloadQrCodesCsv(id, query)}
      noMatches={{ title: 'No QR codes match', description: 'Nothing matches the search and status you chose. Clear them to see every code.' }}
      empty={{
        title: 'No QR codes yet',
        description: 'Create a code for a counter, a flyer or an event. Payers scan it with their phone and pay you; each payment shows here.',
        action: canWrite ? newCode : undefined,
      }}
    />
  );
}
