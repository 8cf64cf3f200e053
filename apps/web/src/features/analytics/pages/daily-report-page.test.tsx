import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { business } from '../../../test/fixtures';
import { todayIn } from '../report-dates';
import { EMPTY_FIGURES, hours, report } from '../test-reports';
import { DailyReportPage } from './daily-report-page';

const API = `/api/businesses/${BUSINESS_ID}`;
const REPORT = `${API}/reports/billing`;
const DAILY = '/business/analytics/billing/daily';

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(business({ businessState: 'Approved', config: { ...business().config, timeZone: 'Pacific/Auckland' } })));
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
});

const page = (path: string) =>
  renderAt(path, {
    [DAILY]: <DailyReportPage transactions={(day) => <p>Requests list of {day.date}</p>} />,
    '/business/payment/transactions/history': <p>History</p>,
  });
const reportQueries = () => fake.callsTo('GET', REPORT).map((c) => Object.fromEntries(c.url.searchParams));

/** The day's report as the API answers it: the day asked for, 24 hours, money at 09:00 and 23:00. */
function answerForDay() {
  fake.on('GET', REPORT, (call) => {
    const day = call.url.searchParams.get('from')!;
    return ok(
      report({
        from: day,
        to: day,
        hours: hours(24, {
          9: { billedCount: 3, billedCents: 45_000, collectedCount: 1, collectedCents: 20_000 },
          23: { collectedCount: 1, collectedCents: 10_000 },
        }),
      }),
    );
  });
}

describe('the daily billing report', () => {
  it('shows the day’s figures, the hours table beside the chart, the counts by status and method, and the day’s requests', async () => {
    answerForDay();
    page(`${DAILY}?date=2026-11-24`);
    expect(await screen.findByRole('heading', { name: 'Daily Billing Report' })).toBeInTheDocument();
    expect(await screen.findByText('$450.00', { selector: 'p' })).toBeInTheDocument();
    expect(reportQueries()).toEqual([{ from: '2026-11-24', to: '2026-11-24', groupBy: 'day' }]);
    // Each figure from its own field of the answer.
    const cards: [string, string][] = [
      ['Billed', '$450.00'],
      ['Collected', '$300.00'],
      ['Outstanding', '$150.00'],
      ['Returned', '$50.00'],
      ['Refunded', '$25.00'],
      ['Disputed', '$12.00'],
      ['Fees', '$8.71'],
      ['Net', '$204.29'],
    ];
    for (const [label, value] of cards) {
      const card = screen.getByText(label, { selector: 'p' }).parentElement!;
      expect(within(card).getByText(value)).toBeInTheDocument();
    }
    // The chart is a picture of the hours table, which screen readers read instead.
    expect(screen.getByTestId('report-chart')).toHaveAttribute('aria-hidden', 'true');
    const hoursTable = screen.getByRole('table', { name: 'Billed and collected by hour on Nov 24, 2026' });
    const rows = within(hoursTable).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(24);
    expect(rows[9]!.textContent).toBe('09:003$450.001$200.00');
    expect(rows[23]!.textContent).toBe('23:000$0.001$100.00');
    // Counts by status lead to the requests first sent that day, in that status; by method say how
    // money came in, and lead to the requests paid that day.
    const byStatus = screen.getByRole('table', { name: 'Requests billed, by status now' });
    expect(within(byStatus).getByRole('link', { name: '2 Paid requests in the transaction history' })).toHaveAttribute(
      'href',
      '/business/payment/transactions/history?sentFrom=2026-11-24&sentTo=2026-11-24&status=Paid',
    );
    expect(within(screen.getByRole('region', { name: 'Payments collected, by method' })).getByRole('link')).toHaveAttribute(
      'href',
      '/business/payment/transactions/history?paidFrom=2026-11-24&paidTo=2026-11-24',
    );
    const byMethod = screen.getByRole('table', { name: 'Payments collected, by method' });
    expect(
      within(byMethod)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['MethodPaymentsAmount', 'Card1$200.00', 'Bank account1$100.00']);
    // Each figure leads to the requests it counts, on the day it counts them.
    const history = '/business/payment/transactions/history';
    expect(screen.getByRole('link', { name: /^Billed \$450\.00: see the requests/ })).toHaveAttribute(
      'href',
      `${history}?sentFrom=2026-11-24&sentTo=2026-11-24`,
    );
    expect(screen.getByRole('link', { name: /^Collected .*: see the paid requests/ })).toHaveAttribute(
      'href',
      `${history}?paidFrom=2026-11-24&paidTo=2026-11-24`,
    );
    expect(screen.getByRole('link', { name: /^Fees .*: see the paid requests/ })).toHaveAttribute('href', `${history}?paidFrom=2026-11-24&paidTo=2026-11-24`);
    expect(screen.getByRole('link', { name: /^Returned .*: see the returned requests/ })).toHaveAttribute(
      'href',
      `${history}?returnedFrom=2026-11-24&returnedTo=2026-11-24`,
    );
    expect(screen.getByRole('link', { name: /^Outstanding .*: see the unpaid requests/ })).toHaveAttribute(
      'href',
      `${history}?sentFrom=2026-11-24&sentTo=2026-11-24&status=Sent%2CResent%2CAccepted%2CPartiallyPaid%2CError`,
    );
    expect(screen.queryByRole('link', { name: /^Net / })).toBeNull();
    expect(screen.getByText('Requests list of 2026-11-24')).toBeInTheDocument();
  });

  it('Previous day and Next day move the URL and the report one calendar day, and the picker jumps to a day', async () => {
    answerForDay();
    const u = userEvent.setup();
    page(`${DAILY}?date=2026-03-01&page=3`);
    await screen.findByText('Requests list of 2026-03-01');
    await u.click(screen.getByRole('button', { name: 'Previous day' }));
    await waitFor(() => expect(shownLocation()).toBe(`${DAILY}?date=2026-02-28`));
    await screen.findByText('Requests list of 2026-02-28');
    await u.click(screen.getByRole('button', { name: 'Next day' }));
    await u.click(screen.getByRole('button', { name: 'Next day' }));
    await waitFor(() => expect(shownLocation()).toBe(`${DAILY}?date=2026-03-02`));
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2025-12-31' } });
    await waitFor(() => expect(shownLocation()).toBe(`${DAILY}?date=2025-12-31`));
    await waitFor(() => expect(reportQueries().map((q) => q.from)).toEqual(['2026-03-01', '2026-02-28', '2026-03-02', '2025-12-31']));
  });

  it('without a date shows today on the business’s clock, and offers no next day after it', async () => {
    answerForDay();
    page(DAILY);
    const today = todayIn('Pacific/Auckland');
    await waitFor(() => expect(reportQueries()).toEqual([{ from: today, to: today, groupBy: 'day' }]));
    expect(screen.getByRole('button', { name: 'Next day' })).toBeDisabled();
    expect(screen.getByText(/Pacific\/Auckland/)).toBeInTheDocument();
  });

  it('Download CSV and Download PDF ask for exactly the day shown', async () => {
    answerForDay();
    fake.on('GET', `${REPORT}.csv`, { text: 'Period\r\n', headers: { 'content-type': 'text/csv' } });
    fake.on('GET', `${REPORT}.pdf`, { text: '%PDF', headers: { 'content-type': 'application/pdf' } });
    const u = userEvent.setup();
    page(`${DAILY}?date=2026-11-24`);
    await screen.findByText('Requests list of 2026-11-24');
    await u.click(screen.getByRole('button', { name: 'Download CSV' }));
    await u.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(fake.callsTo('GET', `${REPORT}.pdf`)).toHaveLength(1));
    for (const path of [`${REPORT}.csv`, `${REPORT}.pdf`]) {
      expect(Object.fromEntries(fake.callsTo('GET', path)[0]!.url.searchParams)).toEqual({ from: '2026-11-24', to: '2026-11-24', groupBy: 'day' });
    }
  });

  it('says a day with nothing in it in words, with no chart', async () => {
    fake.on('GET', REPORT, ok(report({ totals: EMPTY_FIGURES, byStatus: [], byMethod: [], byKind: [], hours: hours(24), buckets: [] })));
    page(`${DAILY}?date=2026-11-24`);
    expect(await screen.findByText('No payments or requests on Nov 24, 2026')).toBeInTheDocument();
    expect(screen.queryByTestId('report-chart')).not.toBeInTheDocument();
  });

  it('shows a failed load with the server’s words and tries again', async () => {
    fake.on('GET', REPORT, apiError(500, 'INTERNAL', 'The reports are resting.'));
    const u = userEvent.setup();
    page(`${DAILY}?date=2026-11-24`);
    expect(await screen.findByText('The reports are resting.')).toBeInTheDocument();
    answerForDay();
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Billed and collected by hour on Nov 24, 2026' })).toBeInTheDocument();
  });
});

describe('a daily report link with a date that is not one', () => {
  it('names the bad date with the picker, and shows no other day’s figures or requests', async () => {
    answerForDay();
    page(`${DAILY}?date=2026-02-30`);
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText('2026-02-30 is not a date.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Daily Billing Report' })).toBeInTheDocument();
    expect(screen.getByText(/^No day chosen/)).toBeInTheDocument();
    const picker = screen.getByLabelText('Day');
    expect(picker).toHaveValue('');
    expect(reportQueries()).toEqual([]);
    expect(screen.queryByText(/Requests list of/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
    // Choosing a day shows it.
    fireEvent.change(picker, { target: { value: '2026-02-27' } });
    await waitFor(() => expect(shownLocation()).toBe(`${DAILY}?date=2026-02-27`));
    await waitFor(() => expect(reportQueries()).toEqual([{ from: '2026-02-27', to: '2026-02-27', groupBy: 'day' }]));
    expect(screen.queryByText('2026-02-30 is not a date.')).toBeNull();
  });

  it('words are named too', async () => {
    page(`${DAILY}?date=yesterday`);
    expect(await screen.findByText('yesterday is not a date.')).toBeInTheDocument();
    expect(reportQueries()).toEqual([]);
  });
});
