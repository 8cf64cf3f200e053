import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InvoiceSummary } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { invoice, invoiceListOf } from '../../../test/fixtures';
import { InvoicesLandingPage } from './invoices-landing-page';

const API = `/api/businesses/${BUSINESS_ID}/invoices`;
const LANDING = '/business/payment/invoices';

const fake = fakeApiPerTest();

const SUMMARY: InvoiceSummary = {
  outstandingCount: 3,
  outstandingCents: 45_000,
  overdueCount: 1,
  overdueCents: 12_000,
  paidThisMonthCount: 2,
  paidThisMonthCents: 30_000,
  draftCount: 0,
};

const figure = (label: string) => screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent;

describe('the invoices landing page', () => {
  it('shows what is outstanding, overdue and paid this month, and the latest invoices, newest number first', async () => {
    const latest = invoice({ invoiceState: 'Sent', overdue: true });
    const older = invoice({ invoiceState: 'Paid' });
    fake.on('GET', `${API}/summary`, ok(SUMMARY));
    fake.on('GET', API, invoiceListOf([latest, older]));
    renderAt(LANDING, { [LANDING]: <InvoicesLandingPage /> });
    const recent = await screen.findByRole('table', { name: 'Recent invoices' });
    expect(figure('Outstanding')).toBe('$450.00');
    expect(screen.getByText('3 invoices still owed')).toBeInTheDocument();
    expect(figure('Overdue')).toBe('$120.00');
    expect(screen.getByText('1 invoice past the due date')).toBeInTheDocument();
    expect(figure('Paid this month')).toBe('$300.00');
    expect(within(recent).getByRole('link', { name: `View ${latest.number}` })).toHaveAttribute('href', `${LANDING}/details?invoiceid=${latest.invoiceId}`);
    expect(within(recent).getByText('Overdue')).toBeInTheDocument();
    const query = Object.fromEntries(fake.callsTo('GET', API)[0]!.url.searchParams);
    expect(query).toEqual({ page: '1', pageSize: '8', sortBy: 'number', sortDirection: 'desc' });
    expect(screen.getByRole('link', { name: 'New invoice' })).toHaveAttribute('href', `${LANDING}/draft`);
    expect(screen.getByRole('link', { name: 'All invoices' })).toHaveAttribute('href', `${LANDING}/list`);
  });

  it('with no invoice yet says so, and offers the first', async () => {
    fake.on('GET', `${API}/summary`, ok({ ...SUMMARY, outstandingCount: 0, outstandingCents: 0, overdueCount: 0, overdueCents: 0 }));
    fake.on('GET', API, invoiceListOf([]));
    renderAt(LANDING, { [LANDING]: <InvoicesLandingPage /> });
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New invoice' })).toHaveLength(2);
  });
});
