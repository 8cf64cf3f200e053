import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApiPerTest, renderAt, shownLocation } from '../../../test/page-harness';
import { PATIENT_BILLING_FLOW, PAYOUT_BATCH_FLOW, REQUEST_BATCH_FLOW, STUDENT_IMPORT_FLOW, type BatchFlow } from '../batch-flows';
import { BatchMapPage } from './batch-map-page';
import { BatchReviewPage } from './batch-review-page';

const fake = fakeApiPerTest();

/** A step of a flow opened with no `?batchId=`: where the page stays, and what it says. */
async function openBare(flow: BatchFlow, step: 'map' | 'review') {
  const path = flow.paths[step];
  renderAt(path, {
    [path]: step === 'map' ? <BatchMapPage flow={flow} /> : <BatchReviewPage flow={flow} />,
    [flow.paths.list]: <p>The batches</p>,
  });
  const notice = await screen.findByRole('alert');
  return { path, notice };
}

describe('a bulk step opened without a batch', () => {
  it.each([
    ['requests', REQUEST_BATCH_FLOW],
    ['payouts', PAYOUT_BATCH_FLOW],
    ['student imports', STUDENT_IMPORT_FLOW],
    ['patient billing', PATIENT_BILLING_FLOW],
  ] as const)('the review of %s says "No batch chosen" under its heading and links to the batches, without moving', async (_, flow) => {
    const { path, notice } = await openBare(flow, 'review');
    expect(screen.getByRole('heading', { name: 'Review and send', level: 1 })).toBeInTheDocument();
    expect(within(notice).getByText('No batch chosen')).toBeInTheDocument();
    expect(shownLocation()).toBe(path);
    expect(within(notice).getByRole('link', { name: 'See the batches' })).toHaveAttribute('href', flow.paths.list);
    // Nothing asked of the API: there is no batch to ask for.
    expect(fake.calls.filter((c) => c.url.pathname.includes('/batches'))).toEqual([]);
    await userEvent.click(within(notice).getByRole('link', { name: 'See the batches' }));
    expect(shownLocation()).toBe(flow.paths.list);
  });

  it('the map step says the same under its own heading', async () => {
    const { path, notice } = await openBare(REQUEST_BATCH_FLOW, 'map');
    expect(screen.getByRole('heading', { name: 'Match the columns', level: 1 })).toBeInTheDocument();
    expect(within(notice).getByText('No batch chosen')).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'See the batches' })).toHaveAttribute('href', '/business/payment/request/bulkrtp');
    expect(shownLocation()).toBe(path);
  });
});
