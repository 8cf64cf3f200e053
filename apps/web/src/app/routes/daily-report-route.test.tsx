import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../test/page-harness';
import { business, listOf, request } from '../../test/fixtures';
import { report } from '../../features/analytics/test-reports';
import { DailyReportRoute } from './daily-report-route';

const API = `/api/businesses/${BUSINESS_ID}`;
const DAILY = '/business/analytics/billing/daily';

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(business({ businessState: 'Approved' })));
  fake.on('GET', `${API}/reports/billing`, (call) => ok(report({ from: call.url.searchParams.get('from')!, to: call.url.searchParams.get('to')! })));
  fake.on('GET', `${API}/payment-requests`, listOf([request({ referenceNumber: 'TRX-1001' })]));
});

describe('the daily report’s requests', () => {
  it('lists the requests first sent (billed) on the day shown, without From and To filters of its own, and follows the day', async () => {
    const u = userEvent.setup();
    renderAt(`${DAILY}?date=2026-11-24`, { [DAILY]: <DailyReportRoute /> });
    expect(await screen.findByRole('link', { name: 'View TRX-1001' })).toBeInTheDocument();
    const listQuery = () => Object.fromEntries(fake.callsTo('GET', `${API}/payment-requests`).at(-1)!.url.searchParams);
    expect(listQuery()).toMatchObject({ sentFrom: '2026-11-24', sentTo: '2026-11-24', view: 'history' });
    expect(listQuery()).not.toHaveProperty('from');
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Previous day' }));
    await waitFor(() => expect(listQuery()).toMatchObject({ sentFrom: '2026-11-23', sentTo: '2026-11-23' }));
    expect(screen.getByRole('heading', { name: 'Requests billed on Nov 23, 2026' })).toBeInTheDocument();
    // The page's own day is not a chip to remove.
    expect(screen.queryByRole('button', { name: 'Show requests sent on any day' })).not.toBeInTheDocument();
  });
});
