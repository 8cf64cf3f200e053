import { Anchor, Badge, Box, Button, CloseButton, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconFilterOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  getHref,
  paths,
  REFUND_STATUS_LABELS,
  refundableCents,
  refundEndpoints,
  type PaymentRequest,
  type RequestAction,
  RequestState,
  paymentRequestEndpoints,
} from '@tay/contract';
import { AmountFilter } from '../../../components/ui/amount-filter';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { RequestStatusBadges } from '../../../components/ui/request-state-badge';
import { RefundModal } from '../../../components/payments/refund-modal';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useBusinessTime } from '../../../lib/business-time';
import { editInvoiceHref } from '../../../lib/invoice-paths';
import { useBusinessId } from '../../../lib/session';
import { downloadRequestsCsv, useRequestCommand, useRequestList, type RequestCommand } from '../api/payment-requests-api';
import { pageMove } from '../page-move';
import { ACTION_LABELS, permittedRequestActions, withoutInvoiceEdit } from '../request-guidance';
import { hasFilters, nextParams, requestQueryFromParams, withoutFilters } from '../transactions-query';
import { PayerPicker } from '../../../components/payers/payer-picker';
import { ReceiptModal } from './receipt-view';
import { InvoiceBadge } from './invoice-badge';
import { QrCodeBadge } from './qr-code-badge';
import { RequestDetailDrawer } from './request-detail';
import { DayFilterChips } from './day-filter-chips';
import { exportCsv } from '../../../components/ui/list-filters';

const HISTORY_STATES = RequestState.options.filter((s) => s !== 'Draft');
const REFUND_OPTIONS = [
  { value: 'any', label: 'Any refund' },
  { value: 'Refunded', label: REFUND_STATUS_LABELS.Refunded },
  { value: 'PartiallyRefunded', label: REFUND_STATUS_LABELS.PartiallyRefunded },
];

/** The payer a payer's own Transactions page lists, fixed by the page rather than chosen in a filter. */
export interface FixedPayer {
  payerId: string;
  displayName: string;
  /** An active payer can be sent a new request from the empty list. */
  active: boolean;
}

/** The payments a QR code's Transactions page lists: one code's, or every code's (`any`), fixed by the page. */
export interface FixedQrCode {
  /** One code's id, or `any` for the payments through every code. */
  qrId: string;
  /** The code's label, for the words of an empty list. */
  label?: string | null;
}

/**
 * The days a page fixes (a daily billing report's day), in the business's time zone: the requests
 * created on them, or first sent on them (`by: 'sent'`: billed, as the reports count, ADR 039).
 */
export interface FixedDays {
  from: string;
  to: string;
  by?: 'created' | 'sent';
  /** "Nov 24, 2026", for the words of an empty list. */
  label: string;
}

/**
 * The requests list with everything it offers wherever it shows: status badges, row actions by
 * state (only those the person may use), filters (status, dates, payer, amounts; a billing
 * report's sent, paid and returned days as chips), search, sort,
 * pages and CSV export of the same query, all read from the URL. `?transid=` opens a request's
 * details and timeline, `?receipt=` its receipt. With `payer`, the list is that payer's alone;
 * with `qrCode`, the payments taken through that code (or every code), each with the code's label;
 * with `days`, the requests created (or first sent) on those days, without the From and To filters.
 */
export function RequestsTable({
  view,
  payer,
  qrCode,
  days,
  caption,
  extraColumns = [],
  extraFilters,
  newRequestPath = paths.payments.request,
}: {
  view: 'history' | 'draft';
  payer?: FixedPayer;
  qrCode?: FixedQrCode;
  days?: FixedDays;
  caption: string;
  /** Columns a page adds after the payer's (the billing history's student, program and period). */
  extraColumns?: Column<PaymentRequest>[];
  /** Filters a page adds, reading and writing their own URL parameters (see `transactions-query.ts`). */
  extraFilters?: ReactNode;
  /** Where an empty list's "Request a payment" goes. */
  newRequestPath?: string;
}) {
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const canWrite = useEndpointAccess(paymentRequestEndpoints.create).allowed;
  // Refunds are the owners' and admins' (MONEY_RULES.refund): the API decides, the action shows only to them.
  const canRefund = useEndpointAccess(refundEndpoints.create).allowed;
  const [params, setParams] = useSearchParams();
  const command = useRequestCommand();
  const bySent = days?.by === 'sent';
  const fixed = [...(payer ? ['payerId'] : []), ...(days ? (bySent ? ['sentFrom', 'sentTo'] : ['from', 'to']) : [])];
  const query = {
    ...requestQueryFromParams(params, view),
    ...(qrCode ? { qrId: qrCode.qrId } : {}),
    ...(days ? (bySent ? { sentFrom: days.from, sentTo: days.to } : { from: days.from, to: days.to }) : {}),
  };
  const list = useRequestList(query);
  const filtered = hasFilters(params, fixed);

  const update = (changes: Record<string, string | number | undefined>, resetPage = true) =>
    setParams(nextParams(params, changes, resetPage), { replace: true });

  const run = (row: PaymentRequest, name: RequestCommand, verb: string) =>
    command.mutate(
      { requestId: row.transactionId, command: name },
      {
        onSuccess: () =>
          notifications.show({ color: 'teal', title: `Request ${verb}`, message: `${row.referenceNumber} for ${formatMoney(row.amountCents)}.` }),
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

  const request = (row: PaymentRequest, copy: boolean) =>
    navigate(getHref(paths.payments.request, undefined, { transid: row.transactionId, copy: copy ? 1 : undefined }));
  const actionHandlers: Record<RequestAction, (row: PaymentRequest) => void> = {
    Edit: (row) => void request(row, false),
    // Always a new request, whatever the source's state: a Draft's copy never edits the Draft. A
    // patient's statement (ADR 037) is copied into a new statement for the patient, lines and all.
    Copy: (row) =>
      void (row.clientId && row.statement
        ? navigate(getHref(paths.entity.healthcareRequest, undefined, { entity: true, clientId: row.clientId, copy: row.transactionId }))
        : request(row, true)),
    Delete: (row) => confirm(row, 'delete', 'deleted', 'The draft is removed for good.', true),
    Cancel: (row) => confirm(row, 'cancel', 'cancelled', 'The scheduled request will not be sent.', true),
    Resend: (row) => confirm(row, 'resend', 'resent', `${row.payerName} gets a new e-mail with a new link; earlier links stop working.`),
    Withdraw: (row) => confirm(row, 'withdraw', 'withdrawn', `${row.payerName} can no longer pay it; their page will say it was withdrawn.`, true),
    'View/Download': (row) => update({ receipt: row.transactionId, transid: undefined }, false),
  };

  const actions = (row: PaymentRequest): RowAction<PaymentRequest>[] => {
    const permitted = permittedRequestActions(row.actions as RequestAction[], canWrite);
    const own = withoutInvoiceEdit(permitted, row.invoiceId).map((label) => ({
      label: ACTION_LABELS[label],
      onClick: actionHandlers[label],
      ...(label === 'Delete' || label === 'Withdraw' || label === 'Cancel' ? { color: 'red' } : {}),
    }));
    // A request that collects an invoice changes with its invoice: Edit opens the invoice instead.
    if (row.invoiceId && permitted.includes('Edit')) own.unshift({ label: 'Edit the invoice', onClick: (r) => void navigate(editInvoiceHref(r.invoiceId!)) });
    // What was received and not refunded can be refunded, whatever the state beside it.
    if (canRefund && refundableCents(row) > 0) own.push({ label: 'Refund', onClick: (r) => update({ refund: r.transactionId, transid: undefined }, false) });
    return own;
  };

  const columns: Column<PaymentRequest>[] = [
    {
      key: 'reference',
      header: 'Reference',
      sortKey: 'reference',
      // The way to the details for keyboards and screen readers; the row's click is a mouse shortcut.
      render: (r) => (
        <Stack gap={2} align="flex-start">
          <Anchor
            component={Link}
            to={{ search: `?${nextParams(params, { transid: r.transactionId }, false)}` }}
            replace
            ff="monospace"
            size="sm"
            aria-label={`View ${r.referenceNumber}`}
          >
            {r.referenceNumber}
          </Anchor>
          {r.invoiceId && r.invoiceNumber && <InvoiceBadge invoiceId={r.invoiceId} number={r.invoiceNumber} />}
          {/* The QR code's own pages say which code in a column of their own. */}
          {r.qrCodeId && !qrCode && <QrCodeBadge qrCodeId={r.qrCodeId} label={r.qrCodeLabel} />}
        </Stack>
      ),
    },

    ...(payer
      ? [{ key: 'memo', header: 'Memo', render: (r: PaymentRequest) => r.memo || '—' }]
      : [
          {
            key: 'payer',
            header: 'Payer',
            sortKey: 'payer',
            render: (r: PaymentRequest) => (
              <div>
                <Text size="sm">{r.payerName}</Text>
                {/* A payer through a QR code may have given no e-mail. */}
                {r.payerEmail && (
                  <Text size="xs" c="dimmed">
                    {r.payerEmail}
                  </Text>
                )}
              </div>
            ),
          },
        ]),
    ...extraColumns,
    // A patient's statement (the healthcare template, ADR 037): whose, when any row of the page has one.
    ...((list.data?.items ?? []).some((r) => r.patientName)
      ? [{ key: 'patient', header: 'Patient', render: (r: PaymentRequest) => r.patientName ?? '—' }]
      : []),
    // The code's label when it was paid: every code's payments link to each code's own.
    ...(qrCode
      ? [
          {
            key: 'qrCode',
            header: 'QR code',
            render: (r: PaymentRequest) =>
              !r.qrCodeId ? '—' : qrCode.qrId === 'any' ? <QrCodeBadge qrCodeId={r.qrCodeId} label={r.qrCodeLabel} /> : (r.qrCodeLabel ?? '—'),
          },
        ]
      : []),
    { key: 'amount', header: 'Amount', sortKey: 'amount', align: 'right', render: (r) => formatMoney(r.amountCents) },
    { key: 'paid', header: 'Paid', align: 'right', render: (r) => formatMoney(r.amountPaidCents) },
    { key: 'status', header: 'Status', sortKey: 'state', render: (r) => <RequestStatusBadges request={r} /> },
    // A payment through a code was sent to no one and due on no day.
    ...(qrCode ? [] : [{ key: 'due', header: 'Due', sortKey: 'dueDate', render: (r: PaymentRequest) => formatDay(r.dueDate) }]),
    { key: 'created', header: qrCode ? 'Date' : 'Created', sortKey: 'createdAt', render: (r) => clock.dateTime(r.createdAt) },
  ];

  const clearFilters = () => setParams(withoutFilters(params, fixed), { replace: true });
  const payerId = params.get('payerId');
  const filters = (
    <>
      {view === 'history' && (
        <MultiSelect
          label="Status"
          placeholder="Any status"
          data={HISTORY_STATES}
          value={query.status ? query.status.split(',') : []}
          onChange={(value) => update({ status: value.join(',') })}
          clearable
        />
      )}
      {view === 'history' && (
        <Select
          label="Refunds"
          placeholder="Any"
          data={REFUND_OPTIONS}
          value={query.refunded ?? null}
          onChange={(value) => update({ refunded: value ?? undefined })}
          clearable
          w={170}
        />
      )}
      {!days && (
        <>
          <TextInput label="From" type="date" value={query.from ?? ''} onChange={(e) => update({ from: e.currentTarget.value })} />
          <TextInput label="To" type="date" value={query.to ?? ''} onChange={(e) => update({ to: e.currentTarget.value })} />
        </>
      )}
      <AmountFilter label="Smallest amount" placeholder="Min $" value={params.get('min') ?? ''} onCommit={(min) => update({ min })} />
      <AmountFilter label="Largest amount" placeholder="Max $" value={params.get('max') ?? ''} onCommit={(max) => update({ max })} />
      {!payer && (
        <Box>
          <PayerPicker
            // A new filter from outside (cleared, back/forward) starts the typeahead afresh.
            key={payerId ?? ''}
            compact
            includeDeactivated
            value={payerId ? { payerId, displayName: params.get('payerName') ?? 'Selected payer', email: '' } : null}
            onChange={(p) => update({ payerId: p?.payerId, payerName: p?.displayName })}
          />
        </Box>
      )}
      {extraFilters}
      <DayFilterChips params={params} onRemove={update} />
      {params.get('clientId') && (
        <Badge
          variant="light"
          size="lg"
          radius="sm"
          rightSection={
            <CloseButton size="xs" aria-label="Show every patient's requests" onClick={() => update({ clientId: undefined, clientName: undefined })} />
          }
        >
          Patient: {params.get('clientName') ?? list.data?.items[0]?.patientName ?? 'the chosen patient'}
        </Badge>
      )}
      {params.get('batchId') && (
        <Badge
          variant="light"
          size="lg"
          radius="sm"
          rightSection={<CloseButton size="xs" aria-label="Show requests of every batch" onClick={() => update({ batchId: undefined })} />}
        >
          From bulk batch {params.get('batchId')}
        </Badge>
      )}
      {filtered && (
        <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={clearFilters} className="data-table-filters-end">
          Clear filters
        </Button>
      )}
    </>
  );

  const newRequest = (label: string, to: string) =>
    canWrite ? (
      <Button mt="xs" onClick={() => navigate(to)}>
        {label}
      </Button>
    ) : undefined;
  const empty = filtered
    ? {
        title: 'No requests match these filters',
        description: 'Nothing matches the search and filters you chose. Clear them to see every request.',
        action: (
          <Button mt="xs" variant="default" onClick={clearFilters}>
            Clear filters
          </Button>
        ),
      }
    : days
      ? bySent
        ? { title: `No requests sent on ${days.label}`, description: 'Requests to pay first sent on this day show here with their status.' }
        : { title: `No requests created on ${days.label}`, description: 'Requests to pay created on this day show here with their status.' }
      : qrCode
        ? {
            title: 'No payments yet',
            description: qrCode.label
              ? `Payments made by scanning “${qrCode.label}” show here with their status.`
              : 'Payments made by scanning your QR codes show here with their status.',
          }
        : payer
          ? {
              title: 'No requests yet',
              description: `Requests to pay you send ${payer.displayName} show here with their status.`,
              action: payer.active ? newRequest('Request to Pay', getHref(paths.payments.request, undefined, { payerId: payer.payerId })) : undefined,
            }
          : view === 'draft'
            ? {
                title: 'No drafts',
                description: 'Requests you save as drafts wait here until you send them.',
                action: newRequest('Request a payment', newRequestPath),
              }
            : {
                title: 'No requests yet',
                description: 'Send your first request to pay; it shows here with its status.',
                action: newRequest('Request a payment', newRequestPath),
              };

  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        rows={list.data?.items}
        rowKey={(r) => r.transactionId}
        total={list.data?.total ?? 0}
        page={query.page}
        pageSize={query.pageSize}
        onPageChange={(page) => update(pageMove(query.page, page, list.data), false)}
        onPageSizeChange={(pageSize) => update({ pageSize })}
        sortBy={query.sortBy ?? 'createdAt'}
        sortDirection={query.sortDirection ?? 'desc'}
        onSortChange={(sortBy, sortDirection) => update({ sortBy, sortDirection })}
        search={query.search ?? ''}
        onSearchChange={(search) => update({ search })}
        searchPlaceholder={payer ? 'TRX number' : 'Payer name, e-mail or TRX number'}
        filters={filters}
        onExport={() => businessId && exportCsv(downloadRequestsCsv(businessId, query))}
        actions={actions}
        loading={list.isPending || list.isPlaceholderData}
        error={list.error}
        onRetry={() => void list.refetch()}
        onRowClick={(row) => update({ transid: row.transactionId }, false)}
        empty={empty}
      />
      <RequestDetailDrawer
        requestId={params.get('transid')}
        onClose={() => update({ transid: undefined }, false)}
        onAction={(action, row) => {
          if (action === 'View/Download') update({ transid: undefined, receipt: row.transactionId }, false);
          else actionHandlers[action](row);
        }}
        onRefund={(row) => update({ transid: undefined, refund: row.transactionId }, false)}
      />
      <RefundModal requestId={params.get('refund')} onClose={() => update({ refund: undefined }, false)} />
      <ReceiptModal requestId={params.get('receipt')} onClose={() => update({ receipt: undefined }, false)} />
    </>
  );
}
