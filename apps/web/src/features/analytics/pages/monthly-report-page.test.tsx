import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { business } from '../../../test/fixtures';
import { monthOf, todayIn } from '../report-dates';
import { bucket, EMPTY_FIGURES, figures, report } from '../test-reports';
import { MonthlyReportPage } from './monthly-report-page';

const API = `/api/businesses/${BUSINESS_ID}`;
const REPORT = `${API}/reports/billing`;
const MONTHLY = '/business/analytics/billing/monthly';

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(business({ businessState: 'Approved' })));
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
});

const page = (path: string) => renderAt(path, { [MONTHLY]: <MonthlyReportPage /> });
const reportQueries = () => fake.callsTo('GET', REPORT).map((c) => Object.fromEntries(c.url.searchParams));

/** November 2026 with money on two days, and the totals of the two. */
const NOVEMBER = report({
  from: '2026-11-01',
  to: '2026-11-30',
  totals: figures({ billedCount: 4, billedCents: 60_000, collectedCount: 3, collectedCents: 42_000, netCents: 36_129 }),
  buckets: [
    bucket('2026-11-01', 'Nov 1, 2026', EMPTY_FIGURES),
    bucket('2026-11-23', 'Nov 23, 2026', { billedCount: 1, billedCents: 15_000, collectedCount: 1, collectedCents: 12_000 }),
    bucket('2026-11-24', 'Nov 24, 2026'),
  ],
});

describe('the monthly billing report', () => {
  it('asks for the month’s days and shows its figures, a chart, and a table of every day with the totals', async () => {
    fake.on('GET', REPORT, ok(NOVEMBER));
    page(`${MONTHLY}?month=2026-11`);
    const table = await screen.findByRole('table', { name: 'November 2026 by day' });
    expect(reportQueries()).toEqual([{ from: '2026-11-01', to: '2026-11-30', groupBy: 'day' }]);
    expect(screen.getByTestId('report-chart')).toHaveAttribute('aria-hidden', 'true');
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'PeriodRequests billedBilledPaymentsCollectedReturnedRefundedDisputedFeesNetOutstandingRequests',
      'Nov 1, 20260$0.000$0.00$0.00$0.00$0.00$0.00$0.00$0.00History',
      'Nov 23, 20261$150.001$120.00$50.00$25.00$12.00$8.71$204.29$150.00History',
      'Nov 24, 20263$450.002$300.00$50.00$25.00$12.00$8.71$204.29$150.00History',
      'Total4$600.003$420.00$50.00$25.00$12.00$8.71$361.29$150.00',
    ]);
    // A day opens its own report; its requests open in the history on the days each figure counts them.
    const history = '/business/payment/transactions/history';
    expect(within(rows[2]!).getByRole('link', { name: 'Nov 23, 2026' })).toHaveAttribute('href', '/business/analytics/billing/daily?date=2026-11-23');
    expect(within(rows[2]!).getByRole('link', { name: 'Requests of Nov 23, 2026 in the transaction history' })).toHaveAttribute(
      'href',
      `${history}?sentFrom=2026-11-23&sentTo=2026-11-23`,
    );
    expect(within(rows[2]!).getByRole('link', { name: 'Requests billed on Nov 23, 2026: 1, in the transaction history' })).toHaveAttribute(
      'href',
      `${history}?sentFrom=2026-11-23&sentTo=2026-11-23`,
    );
    expect(within(rows[2]!).getByRole('link', { name: 'Payments collected on Nov 23, 2026: 1, in the transaction history' })).toHaveAttribute(
      'href',
      `${history}?paidFrom=2026-11-23&paidTo=2026-11-23`,
    );
    expect(within(rows[2]!).getByRole('link', { name: 'Returned on Nov 23, 2026: $50.00, in the transaction history' })).toHaveAttribute(
      'href',
      `${history}?returnedFrom=2026-11-23&returnedTo=2026-11-23`,
    );
    // A day with nothing billed, collected or returned has no figure to follow.
    expect(
      within(rows[1]!)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Nov 1, 2026', 'History']);
    const collected = screen.getByText('Collected', { selector: 'p' }).parentElement!;
    expect(within(collected).getByText('$420.00')).toBeInTheDocument();
  });

  it('Previous month and Next month move a calendar month (over the year’s end), and the picker jumps', async () => {
    fake.on('GET', REPORT, ok(NOVEMBER));
    const u = userEvent.setup();
    page(`${MONTHLY}?month=2026-01`);
    await screen.findByRole('table', { name: 'January 2026 by day' });
    await u.click(screen.getByRole('button', { name: 'Previous month' }));
    await waitFor(() => expect(shownLocation()).toBe(`${MONTHLY}?month=2025-12`));
    await u.click(screen.getByRole('button', { name: 'Next month' }));
    await u.click(screen.getByRole('button', { name: 'Next month' }));
    await waitFor(() => expect(shownLocation()).toBe(`${MONTHLY}?month=2026-02`));
    fireEvent.change(screen.getByLabelText('Month'), { target: { value: '2024-02' } });
    await waitFor(() => expect(shownLocation()).toBe(`${MONTHLY}?month=2024-02`));
    await waitFor(() =>
      expect(reportQueries().map((q) => `${q.from}..${q.to}`)).toEqual([
        '2026-01-01..2026-01-31',
        '2025-12-01..2025-12-31',
        '2026-02-01..2026-02-28',
        '2024-02-01..2024-02-29',
      ]),
    );
  });

  it('without a month shows this month on the business’s clock; Download CSV asks for it', async () => {
    fake.on('GET', REPORT, ok(NOVEMBER));
    fake.on('GET', `${REPORT}.csv`, { text: 'Period\r\n', headers: { 'content-type': 'text/csv' } });
    const u = userEvent.setup();
    page(MONTHLY);
    const month = monthOf(todayIn('America/New_York'));
    await waitFor(() => expect(reportQueries()[0]?.from).toBe(`${month}-01`));
    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await screen.findByRole('table', { name: /by day$/ });
    await u.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', `${REPORT}.csv`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${REPORT}.csv`)[0]!.url.searchParams)).toEqual({ ...reportQueries()[0] });
  });

  it('says an empty month in words', async () => {
    fake.on('GET', REPORT, ok(report({ from: '2026-11-01', to: '2026-11-30', totals: EMPTY_FIGURES, byStatus: [], byMethod: [], byKind: [] })));
    page(`${MONTHLY}?month=2026-11`);
    expect(await screen.findByText('No payments or requests in November 2026')).toBeInTheDocument();
    expect(screen.queryByTestId('report-chart')).not.toBeInTheDocument();
  });
});

describe('a monthly report link with a month that is not one', () => {
  it('names the bad month with the picker, and shows no other month’s figures', async () => {
    fake.on('GET', REPORT, ok(NOVEMBER));
    page(`${MONTHLY}?month=2026-13`);
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText('2026-13 is not a month.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Monthly Billing Report' })).toBeInTheDocument();
    expect(screen.getByText(/^No month chosen/)).toBeInTheDocument();
    expect(screen.getByLabelText('Month')).toHaveValue('');
    expect(reportQueries()).toEqual([]);
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.change(screen.getByLabelText('Month'), { target: { value: '2026-11' } });
    await waitFor(() => expect(shownLocation()).toBe(`${MONTHLY}?month=2026-11`));
    await waitFor(() => expect(reportQueries()).toEqual([{ from: '2026-11-01', to: '2026-11-30', groupBy: 'day' }]));
  });
});
