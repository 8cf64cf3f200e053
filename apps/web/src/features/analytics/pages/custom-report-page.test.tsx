import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { REPORT_RANGE_REVERSED, REPORT_RANGE_TOO_LONG } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { business } from '../../../test/fixtures';
import { addDays, todayIn } from '../report-dates';
import { bucket, figures, report } from '../test-reports';
import { CustomReportPage } from './custom-report-page';

const API = `/api/businesses/${BUSINESS_ID}`;
const REPORT = `${API}/reports/billing`;
const CUSTOM = '/business/analytics/billing/custom';

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(business({ businessState: 'Approved' })));
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
});

const page = (path: string) => renderAt(path, { [CUSTOM]: <CustomReportPage /> });
const reportQueries = () => fake.callsTo('GET', REPORT).map((c) => Object.fromEntries(c.url.searchParams));

const WEEKS = report({
  from: '2026-11-04',
  to: '2026-11-18',
  groupBy: 'week',
  totals: figures({ billedCount: 6, billedCents: 90_000 }),
  buckets: [
    { ...bucket('2026-11-04', 'Week of Nov 2, 2026'), to: '2026-11-08' },
    { ...bucket('2026-11-09', 'Week of Nov 9, 2026'), to: '2026-11-15' },
    { ...bucket('2026-11-16', 'Week of Nov 16, 2026', { billedCount: 0, billedCents: 0 }), to: '2026-11-18' },
  ],
});

describe('the custom billing report', () => {
  it('shows the range by week, each week opening its days, and the downloads carry the range and grouping', async () => {
    fake.on('GET', REPORT, ok(WEEKS));
    fake.on('GET', `${REPORT}.pdf`, { text: '%PDF', headers: { 'content-type': 'application/pdf' } });
    const u = userEvent.setup();
    page(`${CUSTOM}?from=2026-11-04&to=2026-11-18&groupBy=week`);
    const table = await screen.findByRole('table', { name: 'Nov 04, 2026 to Nov 18, 2026, by week' });
    expect(reportQueries()).toEqual([{ from: '2026-11-04', to: '2026-11-18', groupBy: 'week' }]);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[4]!.textContent).toBe('Total6$900.002$300.00$50.00$25.00$12.00$8.71$204.29$150.00');
    expect(within(rows[1]!).getByRole('link', { name: 'Week of Nov 2, 2026' })).toHaveAttribute(
      'href',
      '/business/analytics/billing/custom?from=2026-11-04&to=2026-11-08&groupBy=day',
    );
    // A week's requests: those first sent in the week's days within the range.
    expect(within(rows[1]!).getByRole('link', { name: 'Requests of Week of Nov 2, 2026 in the transaction history' })).toHaveAttribute(
      'href',
      '/business/payment/transactions/history?sentFrom=2026-11-04&sentTo=2026-11-08',
    );
    await u.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(fake.callsTo('GET', `${REPORT}.pdf`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${REPORT}.pdf`)[0]!.url.searchParams)).toEqual({ from: '2026-11-04', to: '2026-11-18', groupBy: 'week' });
  });

  it('From, To and Group by change the URL and the report', async () => {
    fake.on('GET', REPORT, ok(WEEKS));
    const u = userEvent.setup();
    page(`${CUSTOM}?from=2026-11-04&to=2026-11-18&groupBy=week`);
    await screen.findByRole('table', { name: /by week/ });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    await waitFor(() => expect(shownLocation()).toBe(`${CUSTOM}?from=2026-10-01&to=2026-11-18&groupBy=week`));
    await u.click(screen.getByLabelText('Group by', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Month' }));
    await waitFor(() => expect(shownLocation()).toBe(`${CUSTOM}?from=2026-10-01&to=2026-11-18&groupBy=month`));
    await waitFor(() => expect(reportQueries().at(-1)).toEqual({ from: '2026-10-01', to: '2026-11-18', groupBy: 'month' }));
  });

  it('shows the server’s refusal under the field it names: To before From, a range over two years', async () => {
    fake.on('GET', REPORT, (call) =>
      call.url.searchParams.get('to')! < call.url.searchParams.get('from')!
        ? apiError(400, 'VALIDATION_ERROR', 'Check the dates.', { to: REPORT_RANGE_REVERSED })
        : apiError(400, 'VALIDATION_ERROR', 'Check the dates.', { to: REPORT_RANGE_TOO_LONG }),
    );
    page(`${CUSTOM}?from=2026-11-18&to=2026-11-04`);
    const to = await screen.findByLabelText('To');
    await waitFor(() => expect(to).toHaveAccessibleDescription(REPORT_RANGE_REVERSED));
    expect(screen.getByLabelText('From')).not.toHaveAccessibleDescription();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2020-01-01' } });
    await waitFor(() => expect(screen.getByLabelText('To')).toHaveAccessibleDescription(REPORT_RANGE_TOO_LONG));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('without a range shows the 30 days ending today on the business’s clock', async () => {
    fake.on('GET', REPORT, ok(WEEKS));
    page(CUSTOM);
    const today = todayIn('America/New_York');
    await waitFor(() => expect(reportQueries()).toEqual([{ from: addDays(today, -29), to: today, groupBy: 'day' }]));
  });
});

describe('a custom report link with a date that is not one', () => {
  it('names each bad date with the pickers, and shows no other range’s figures', async () => {
    fake.on('GET', REPORT, ok(WEEKS));
    page(`${CUSTOM}?from=2026-02-30&to=2026-03-45&groupBy=week`);
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText('From: 2026-02-30 is not a date. To: 2026-03-45 is not a date.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Custom Billing Report' })).toBeInTheDocument();
    expect(screen.getByText(/^No range chosen/)).toBeInTheDocument();
    expect(screen.getByLabelText('From')).toHaveValue('');
    expect(screen.getByLabelText('To')).toHaveValue('');
    expect(reportQueries()).toEqual([]);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a bad From alone is named, keeps the good To, and stays named until it is replaced', async () => {
    fake.on('GET', REPORT, ok(WEEKS));
    page(`${CUSTOM}?from=2026-02-30&to=2026-03-10`);
    expect(await screen.findByText('From: 2026-02-30 is not a date.')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveValue('2026-03-10');
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-12' } });
    await waitFor(() => expect(shownLocation()).toBe(`${CUSTOM}?from=2026-02-30&to=2026-03-12&groupBy=day`));
    expect(screen.getByText('From: 2026-02-30 is not a date.')).toBeInTheDocument();
    expect(reportQueries()).toEqual([]);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-01' } });
    await waitFor(() => expect(shownLocation()).toBe(`${CUSTOM}?from=2026-02-01&to=2026-03-12&groupBy=day`));
    await waitFor(() => expect(reportQueries()).toEqual([{ from: '2026-02-01', to: '2026-03-12', groupBy: 'day' }]));
    expect(screen.queryByText(/is not a date/)).toBeNull();
  });
});
