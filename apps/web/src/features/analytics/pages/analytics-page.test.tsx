import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { EMPTY_FIGURES, overview } from '../test-reports';
import { AnalyticsPage, changeAgainst, onTimeSentence } from './analytics-page';
import { BillingReportsPage } from './billing-reports-page';

const OVERVIEW = `/api/businesses/${BUSINESS_ID}/reports/overview`;
const ROOT = '/business/analytics';

const fake = fakeApiPerTest();

const cardOf = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!;

describe('the analytics overview', () => {
  it('shows this month’s figures against last month’s, the 90 days as a table for screen readers, the splits, top payers and paid on time', async () => {
    fake.on('GET', OVERVIEW, ok(overview()));
    renderAt(ROOT, { [ROOT]: <AnalyticsPage /> });
    expect(await screen.findByRole('heading', { name: 'November 2026' })).toBeInTheDocument();
    expect(within(cardOf('Collected')).getByText('$1,200.00')).toBeInTheDocument();
    expect(within(cardOf('Collected')).getByText('Up 20% on October 2026 ($1,000.00)')).toBeInTheDocument();
    expect(within(cardOf('Outstanding')).getByText('Down 20% on October 2026 ($500.00)')).toBeInTheDocument();
    expect(within(cardOf('Fees')).getByText('$34.80')).toBeInTheDocument();
    expect(within(cardOf('Net')).getByText('$1,165.20')).toBeInTheDocument();

    const days = screen.getByRole('table', { name: 'Collected per day over the 90 days to Nov 24, 2026' });
    const rows = within(days).getAllByRole('row');
    expect(rows).toHaveLength(91);
    expect(rows[90]!.textContent).toBe('Nov 24, 20261$123.45');

    const methods = screen.getByRole('table', { name: 'Collected by method, this month' });
    expect(
      within(methods)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Paid throughPaymentsAmountShare', 'Card3$900.0075%', 'Bank account1$300.0025%']);
    // The standard template's kinds, and only those (no student or patient billing at $0.00).
    const kinds = screen.getByRole('table', { name: 'Collected by kind, this month' });
    expect(
      within(kinds)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Paid throughPaymentsAmountShare', 'Requests to pay2$800.0067%', 'Invoices0$0.000%', 'QR codes2$400.0033%']);
    expect(screen.getAllByTestId('report-chart').every((chart) => chart.getAttribute('aria-hidden') === 'true')).toBe(true);

    const payers = screen.getByRole('table', { name: /The payers who paid the most in November 2026/ });
    expect(within(payers).getByRole('link', { name: 'Avery Payer' })).toHaveAttribute(
      'href',
      // The payer's requests paid this month: what the table adds up.
      '/business/payment/payers/transactions?payerId=pyr_1&paidFrom=2026-11-01&paidTo=2026-11-30',
    );
    expect(within(payers).getByText('Walk-in customer')).toBeInTheDocument();
    expect(screen.getByText('83% of the 12 requests paid this month were paid by their due date.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See November 2026 day by day' })).toHaveAttribute('href', '/business/analytics/billing/monthly?month=2026-11');
  });

  it('says a quiet business’s overview in words, not empty charts, and shows a school its student billing', async () => {
    fake.on(
      'GET',
      OVERVIEW,
      ok(
        overview({
          thisMonth: { month: '2026-11', label: 'November 2026', figures: EMPTY_FIGURES },
          daily: overview().daily.map((d) => ({ ...d, collectedCents: 0, collectedCount: 0 })),
          byMethod: [],
          byKind: [],
          topPayers: [],
          onTime: { paidCount: 0, onTimeCount: 0 },
        }),
      ),
    );
    renderAt(ROOT, { [ROOT]: <AnalyticsPage /> }, { business: { entities: [{ entityType: 'student', entityTemplateName: 'School' }] } });
    expect(await screen.findByText('No payments collected in the last 90 days.')).toBeInTheDocument();
    expect(screen.getAllByText('No payments collected this month yet.')).toHaveLength(2);
    expect(screen.getByText('No payer has paid this month yet.')).toBeInTheDocument();
    expect(screen.getByText('No request has been paid in full this month yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('report-chart')).not.toBeInTheDocument();
  });

  it('shows why the overview could not load, with a way to try again', async () => {
    fake.on('GET', OVERVIEW, apiError(403, 'BUSINESS_NOT_APPROVED', 'Analytics open once your business is approved.'));
    renderAt(ROOT, { [ROOT]: <AnalyticsPage /> });
    expect(await screen.findByText('Analytics open once your business is approved.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('the overview’s words', () => {
  it('compares a month with the last, including from nothing', () => {
    expect(changeAgainst(150, 100, 'October 2026')).toBe('Up 50% on October 2026 ($1.00)');
    expect(changeAgainst(50, 100, 'October 2026')).toBe('Down 50% on October 2026 ($1.00)');
    expect(changeAgainst(100, 0, 'October 2026')).toBe('Up from $0.00 in October 2026');
    expect(changeAgainst(0, 0, 'October 2026')).toBe('Same as October 2026 ($0.00)');
  });

  it('says the share paid on time for one request and for many', () => {
    expect(onTimeSentence({ paidCount: 1, onTimeCount: 1 })).toBe('100% of the 1 request paid this month was paid by its due date.');
    expect(onTimeSentence({ paidCount: 3, onTimeCount: 1 })).toBe('33% of the 3 requests paid this month were paid by their due date.');
  });
});

describe('the billing reports landing', () => {
  it('links the daily, monthly and custom reports', () => {
    renderAt('/business/analytics/billing', { '/business/analytics/billing': <BillingReportsPage /> });
    expect(screen.getByRole('link', { name: 'Daily Billing Report' })).toHaveAttribute('href', '/business/analytics/billing/daily');
    expect(screen.getByRole('link', { name: 'Monthly Billing Report' })).toHaveAttribute('href', '/business/analytics/billing/monthly');
    expect(screen.getByRole('link', { name: 'Custom Billing Report' })).toHaveAttribute('href', '/business/analytics/billing/custom');
  });
});
