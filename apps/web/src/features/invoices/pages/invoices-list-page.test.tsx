import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, renderAt, shownLocation } from '../../../test/page-harness';
import { invoice, invoiceListOf } from '../../../test/fixtures';
import { InvoicesListPage } from './invoices-list-page';

const API = `/api/businesses/${BUSINESS_ID}/invoices`;
const LIST = '/business/payment/invoices/list';

const fake = fakeApiPerTest();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});

const page = (path = LIST) =>
  renderAt(path, {
    [LIST]: <InvoicesListPage />,
    '/business/payment/invoices/draft': <p>Invoice form</p>,
    '/business/payment/invoices/details': <p>Invoice details</p>,
  });

const lastListQuery = () => Object.fromEntries(fake.callsTo('GET', API).at(-1)!.url.searchParams);
const rowOf = (number: string) => screen.getByRole('link', { name: `View ${number}` }).closest('tr')!;

describe('the invoices list', () => {
  it('shows each invoice’s figures and state, a red Overdue badge when it is owed past due, and "Showing 1 to N of M Results"', async () => {
    const late = invoice({
      invoiceState: 'PartiallyPaid',
      overdue: true,
      totalCents: 30_000,
      amountPaidCents: 10_000,
      balanceCents: 20_000,
      dueDate: '2026-04-30',
    });
    const draft = invoice({ invoiceState: 'Draft', payerName: 'Dana Diaz', payerEmail: 'dana@payers.example' });
    fake.on('GET', API, invoiceListOf([late, draft], 42, 1, 25));
    page();
    expect(await screen.findByText('Showing 1 to 25 of 42 Results')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Number',
      'Payer',
      'Issue date',
      'Due date',
      'Total',
      'Paid',
      'Balance',
      'Status',
      'Actions',
    ]);
    const cells = within(rowOf(late.number))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 8)).toEqual([
      late.number,
      'Pat Payerpat@payers.example',
      'May 01, 2026',
      'Apr 30, 2026',
      '$300.00',
      '$100.00',
      '$200.00',
      'Partially PaidOverdue',
    ]);
    const overdue = within(rowOf(late.number)).getByText('Overdue');
    expect(overdue.closest('.mantine-Badge-root')).toHaveStyle({ '--badge-bg': 'var(--mantine-color-red-filled)' });
    expect(within(rowOf(draft.number)).queryByText('Overdue')).toBeNull();
    expect(lastListQuery()).toEqual({ page: '1', pageSize: '25', sortBy: 'number', sortDirection: 'desc' });
  });

  it('asks the API for the filters, search and sort chosen, and keeps them in the URL', async () => {
    fake.on('GET', API, invoiceListOf([invoice()]));
    const u = userEvent.setup();
    page();
    await screen.findByText('Showing 1 to 1 of 1 Results');

    await u.click(screen.getByRole('combobox', { name: 'Status' }));
    await u.click(await screen.findByRole('option', { name: 'Overdue' }));
    await u.click(await screen.findByRole('option', { name: 'Partially Paid' }));
    await waitFor(() => expect(lastListQuery().status).toBe('Overdue,PartiallyPaid'));
    await u.keyboard('{Escape}');

    await u.type(screen.getByLabelText('Issued from'), '2026-03-01');
    await u.type(screen.getByLabelText('Issued to'), '2026-03-31');
    await u.type(screen.getByRole('textbox', { name: 'Smallest total' }), '25');
    await u.tab();
    await u.type(screen.getByRole('textbox', { name: 'Largest total' }), '1,000.50{Enter}');
    await u.type(screen.getByRole('textbox', { name: 'Search' }), 'INV-00');
    await u.click(screen.getByRole('button', { name: 'Sort by Due date' }));

    await waitFor(() =>
      expect(lastListQuery()).toEqual({
        page: '1',
        pageSize: '25',
        sortBy: 'dueDate',
        sortDirection: 'desc',
        search: 'INV-00',
        status: 'Overdue,PartiallyPaid',
        from: '2026-03-01',
        to: '2026-03-31',
        minAmountCents: '2500',
        maxAmountCents: '100050',
      }),
    );
    expect(shownLocation()).toContain('status=Overdue%2CPartiallyPaid');
  });

  it('Export CSV asks for the list’s query without the paging', async () => {
    fake.on('GET', API, invoiceListOf([invoice()], 60));
    fake.on('GET', `${API}/export`, {
      text: 'Number\r\n',
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="invoices.csv"' },
    });
    const u = userEvent.setup();
    page(`${LIST}?status=Overdue&min=10&search=pat&sortBy=total&sortDirection=asc&page=2`);
    await screen.findByText('Showing 26 to 50 of 60 Results');
    await u.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/export`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${API}/export`)[0]!.url.searchParams)).toEqual({
      sortBy: 'total',
      sortDirection: 'asc',
      search: 'pat',
      status: 'Overdue',
      minAmountCents: '1000',
    });
  });

  it('offers each row the actions of its state; Delete asks first, then deletes and says so', async () => {
    const draft = invoice({ invoiceState: 'Draft' });
    const sent = invoice({ invoiceState: 'Sent' });
    fake.on('GET', API, invoiceListOf([draft, sent]));
    fake.on('DELETE', `${API}/${draft.invoiceId}`, { status: 204, text: '' });
    const u = userEvent.setup();
    page();
    await screen.findByText('Showing 1 to 2 of 2 Results');

    await u.click(within(rowOf(sent.number)).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['Resend', 'Withdraw', 'Copy', 'Download PDF']);
    await u.keyboard('{Escape}');

    await u.click(within(rowOf(draft.number)).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['Edit', 'Copy', 'Delete', 'Download PDF']);
    await u.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: `Delete ${draft.number}?` });
    expect(fake.callsTo('DELETE', `${API}/${draft.invoiceId}`)).toHaveLength(0);
    await u.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(fake.callsTo('DELETE', `${API}/${draft.invoiceId}`)).toHaveLength(1));
    expect(await screen.findByText('Invoice deleted')).toBeInTheDocument();
  });

  it('Edit and Copy open the form with the invoice', async () => {
    const draft = invoice({ invoiceState: 'Draft' });
    fake.on('GET', API, invoiceListOf([draft]));
    const u = userEvent.setup();
    page();
    await screen.findByText('Showing 1 to 1 of 1 Results');
    await u.click(within(rowOf(draft.number)).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    await waitFor(() => expect(shownLocation()).toBe(`/business/payment/invoices/draft?copy=${draft.invoiceId}`));
  });

  it('says when there are none, and when none match the filters', async () => {
    fake.on('GET', API, invoiceListOf([]));
    const u = userEvent.setup();
    page(`${LIST}?status=Paid`);
    expect(await screen.findByText('No invoices match these filters')).toBeInTheDocument();
    await u.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New invoice' }).length).toBeGreaterThan(0);
  });

  it('a list that fails to load says so and offers to try again', async () => {
    fake.on('GET', API, { status: 500, json: { status: 'Error', errorDetails: { code: 'INTERNAL_ERROR', message: 'The database is away.' } } });
    page();
    expect(await screen.findByText('This list could not be loaded', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
