import { Anchor, Box, Button, MultiSelect, Text, TextInput } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { formatDay, formatMoney, INVOICE_STATE_LABELS, InvoiceState, type InvoiceListItem } from '@tay/contract';
import { PayerPicker } from '../../../components/payers/payer-picker';
import { AmountFilter } from '../../../components/ui/amount-filter';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { invoiceDetailsHref, invoicePaths } from '../../../lib/invoice-paths';
import { useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { downloadInvoicesCsv, useInvoiceList } from '../api/invoices-api';
import { hasInvoiceFilters, INVOICE_FILTER_PARAMS, invoiceQueryFromParams } from '../invoices-query';
import { DANGEROUS_ACTIONS, INVOICE_ACTION_LABELS, permittedInvoiceActions, useInvoiceActions } from './invoice-actions';
import { InvoiceStateBadge } from './invoice-state-badge';
import { exportCsv } from '../../../components/ui/list-filters';

/** Every state, and "Overdue": the open invoices past their due date. */
const STATUS_OPTIONS = [...InvoiceState.options.map((s) => ({ value: s, label: INVOICE_STATE_LABELS[s] })), { value: 'Overdue', label: 'Overdue' }];

/**
 * The invoices with everything the list offers: state and overdue badges, row actions by state
 * (only those the person may use), filters (status with Overdue, issue dates, payer, amounts),
 * search (number or payer), sort, pages and CSV export of the same query, all read from the URL.
 */
export function InvoicesTable({ caption }: { caption: string }) {
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const { params, update } = useListParams();
  const query = invoiceQueryFromParams(params);
  const list = useInvoiceList(query);
  const filtered = hasInvoiceFilters(params);
  const { run, canWrite } = useInvoiceActions();

  const actions = (row: InvoiceListItem): RowAction<InvoiceListItem>[] =>
    permittedInvoiceActions(row.actions, canWrite).map((action) => ({
      label: INVOICE_ACTION_LABELS[action],
      onClick: (r) => run(action, r),
      ...(DANGEROUS_ACTIONS.has(action) ? { color: 'red' } : {}),
    }));

  const columns: Column<InvoiceListItem>[] = [
    {
      key: 'number',
      header: 'Number',
      sortKey: 'number',
      render: (r) => (
        <Anchor component={Link} to={invoiceDetailsHref(r.invoiceId)} ff="monospace" size="sm" aria-label={`View ${r.number}`}>
          {r.number}
        </Anchor>
      ),
    },
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
    { key: 'issueDate', header: 'Issue date', sortKey: 'issueDate', render: (r) => formatDay(r.issueDate) },
    { key: 'dueDate', header: 'Due date', sortKey: 'dueDate', render: (r) => formatDay(r.dueDate) },
    { key: 'total', header: 'Total', sortKey: 'total', align: 'right', render: (r) => formatMoney(r.totalCents) },
    { key: 'paid', header: 'Paid', align: 'right', render: (r) => formatMoney(r.amountPaidCents) },
    { key: 'balance', header: 'Balance', sortKey: 'balance', align: 'right', render: (r) => formatMoney(r.balanceCents) },
    { key: 'status', header: 'Status', sortKey: 'state', render: (r) => <InvoiceStateBadge state={r.invoiceState} overdue={r.overdue} /> },
  ];

  const clearFilters = () => update(Object.fromEntries(INVOICE_FILTER_PARAMS.map((key) => [key, undefined])));
  const payerId = params.get('payerId');
  const filters = (
    <>
      <MultiSelect
        label="Status"
        placeholder="Any status"
        data={STATUS_OPTIONS}
        value={query.status ? query.status.split(',') : []}
        onChange={(value) => update({ status: value.join(',') })}
        clearable
      />
      <TextInput label="Issued from" type="date" value={query.from ?? ''} onChange={(e) => update({ from: e.currentTarget.value })} />
      <TextInput label="Issued to" type="date" value={query.to ?? ''} onChange={(e) => update({ to: e.currentTarget.value })} />
      <AmountFilter label="Smallest total" placeholder="Min $" value={params.get('min') ?? ''} onCommit={(min) => update({ min })} />
      <AmountFilter label="Largest total" placeholder="Max $" value={params.get('max') ?? ''} onCommit={(max) => update({ max })} />
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
      {filtered && (
        <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={clearFilters} className="data-table-filters-end">
          Clear filters
        </Button>
      )}
    </>
  );

  const empty = filtered
    ? {
        title: 'No invoices match these filters',
        description: 'Nothing matches the search and filters you chose. Clear them to see every invoice.',
        action: (
          <Button mt="xs" variant="default" onClick={clearFilters}>
            Clear filters
          </Button>
        ),
      }
    : {
        title: 'No invoices yet',
        description: 'Create your first invoice: it shows here with its status, what was paid and what is still owed.',
        action: canWrite ? (
          <Button mt="xs" onClick={() => navigate(invoicePaths.draft)}>
            New invoice
          </Button>
        ) : undefined,
      };

  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={list.data?.items}
      rowKey={(r) => r.invoiceId}
      total={list.data?.total ?? 0}
      page={query.page}
      pageSize={query.pageSize}
      onPageChange={(page) => update({ page }, false)}
      onPageSizeChange={(pageSize) => update({ pageSize })}
      sortBy={query.sortBy ?? 'number'}
      sortDirection={query.sortDirection ?? 'desc'}
      onSortChange={(sortBy, sortDirection) => update({ sortBy, sortDirection })}
      search={query.search ?? ''}
      onSearchChange={(search) => update({ search })}
      searchPlaceholder="Invoice number or payer"
      filters={filters}
      onExport={() => businessId && exportCsv(downloadInvoicesCsv(businessId, query))}
      actions={actions}
      loading={list.isPending || list.isPlaceholderData}
      error={list.error}
      onRetry={() => void list.refetch()}
      onRowClick={(row) => void navigate(invoiceDetailsHref(row.invoiceId))}
      empty={empty}
    />
  );
}
