import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BatchRow } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { answerBatchRows, batch, batchRow } from '../../../test/fixtures';
import { PAYOUT_BATCH_FLOW, REQUEST_BATCH_FLOW } from '../batch-flows';
import { BatchReviewPage } from './batch-review-page';

const BATCH = `/api/businesses/${BUSINESS_ID}/batches/bat_1`;
const REVIEW = '/business/payment/request/bulkreview';

const rows: BatchRow[] = [
  batchRow(2, {
    fields: { email: 'ana@payers.example', amount: '125.50', dueDate: '2026-12-31' },
    amountCents: 12_550,
    payerName: 'Ana Lopez',
  }),
  batchRow(3, {
    status: 'invalid',
    fields: { email: 'sam@payers.example', amount: '12x', dueDate: '2026-12-31' },
    errors: { amount: '"12x" is not an amount. Write it like 125.50 or $1,234.50.' },
    payerName: 'Sam Lee',
  }),
];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', BATCH, ok(batch()));
  answerBatchRows(fake, rows);
});

const page = <BatchReviewPage flow={REQUEST_BATCH_FLOW} />;

describe('the batch review page', () => {
  it('shows each row with its outcome, which field is wrong and why, and the totals that will be sent', async () => {
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page });
    const bad = (await screen.findByText('Sam Lee')).closest('tr')!;
    expect(within(bad).getByText('Amount: "12x" is not an amount. Write it like 125.50 or $1,234.50.')).toBeInTheDocument();
    expect(screen.getAllByText('$125.50').length).toBeGreaterThan(0);
    expect(screen.getByText(/1 request to pay for \$125\.50 will be sent; 1 row with errors will not/)).toBeInTheDocument();
  });

  it('fixes a row in place: the API hears the corrected values of that line', async () => {
    fake.on(
      'PATCH',
      `${BATCH}/rows/3`,
      ok({
        row: { ...rows[1]!, status: 'valid', errors: {}, amountCents: 1200 },
        batch: batch({ counts: { rows: 2, valid: 2, invalid: 0, sent: 0, failed: 0 } }),
      }),
    );
    const u = userEvent.setup();
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page });
    const bad = (await screen.findByText('Sam Lee')).closest('tr')!;
    await u.click(within(bad).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Fix' }));
    const amount = await screen.findByRole('textbox', { name: 'Amount' });
    await u.clear(amount);
    await u.type(amount, '12');
    await u.click(screen.getByRole('button', { name: 'Save and check' }));
    expect(await screen.findByText('Line 3 is valid')).toBeInTheDocument();
    expect(fake.callsTo('PATCH', `${BATCH}/rows/3`)[0]!.body).toEqual({ fields: { email: 'sam@payers.example', amount: '12', dueDate: '2026-12-31' } });
  });

  it('submits once, after a confirmation, with an Idempotency-Key', async () => {
    fake.on('POST', `${BATCH}/submit`, {
      status: 202,
      json: { status: 'Success', data: batch({ state: 'Submitted', phase: 'sending', progress: { done: 0, total: 1 } }) },
    });
    const u = userEvent.setup();
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page });
    await u.click(await screen.findByRole('button', { name: 'Submit and send' }));
    await u.click(await screen.findByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Submitted')).toBeInTheDocument();
    const calls = fake.callsTo('POST', `${BATCH}/submit`);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ mode: 'send' });
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('drops every row with errors together, after a confirmation', async () => {
    fake.on('POST', `${BATCH}/rows/drop`, ok(batch({ counts: { rows: 1, valid: 1, invalid: 0, sent: 0, failed: 0 } })));
    const u = userEvent.setup();
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page });
    await u.click(await screen.findByRole('button', { name: 'Drop the 1 row with errors' }));
    expect(fake.callsTo('POST', `${BATCH}/rows/drop`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Drop them' }));
    await waitFor(() => expect(fake.callsTo('POST', `${BATCH}/rows/drop`)).toHaveLength(1));
    expect(fake.callsTo('POST', `${BATCH}/rows/drop`)[0]!.body).toEqual({ status: 'invalid' });
    expect(await screen.findByText('Rows dropped')).toBeInTheDocument();
  });

  it('a viewer reads the rows and may change nothing', async () => {
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page }, { business: { role: 'viewer' } });
    const bad = (await screen.findByText('Sam Lee')).closest('tr')!;
    expect(within(bad).queryByRole('button', { name: 'Row actions' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit and send' })).toBeDisabled();
  });

  it('shows the progress while the rows are being sent', async () => {
    fake.on('GET', BATCH, ok(batch({ state: 'Submitted', phase: 'sending', progress: { done: 500, total: 2000 } })));
    renderAt(`${REVIEW}?batchId=bat_1`, { [REVIEW]: page });
    expect(await screen.findByText('Sending: 500 of 2,000')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Sending: 500 of 2,000' })).toBeInTheDocument();
  });

  /** The review of a bulk payout batch whose two rows were sent, `waiting` of its payouts still to be approved. */
  function openDonePayoutBatch(waiting: number) {
    const PAYOUT_REVIEW = '/business/payouts/payment/request/bulkreview';
    const done = batch({ kind: 'payouts', state: 'Processed', phase: 'done', counts: { rows: 2, valid: 0, invalid: 0, sent: 2, failed: 0 }, sentCents: 300 });
    fake.on('GET', BATCH, ok(done));
    fake.on('GET', `${BATCH}/rows`, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    fake.on(
      'GET',
      `/api/businesses/${BUSINESS_ID}/payouts`,
      ok({ items: [], page: 1, pageSize: 1, total: waiting, totals: { count: waiting, amountCents: waiting * 150, feeCents: 0 } }),
    );
    renderAt(`${PAYOUT_REVIEW}?batchId=bat_1`, { [PAYOUT_REVIEW]: <BatchReviewPage flow={PAYOUT_BATCH_FLOW} /> });
  }

  it('a bulk payout whose payouts wait for a second approver says so, not "All sent", and links to the approval queue', async () => {
    openDonePayoutBatch(2);
    expect(await screen.findByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.getByText(/2 payouts of this batch wait for an owner or admin to approve them: nothing is paid until then\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the approval queue' })).toHaveAttribute('href', '/business/payouts/payment/request/payoutsreview');
    expect(screen.queryByText('All sent')).toBeNull();
    const asked = fake.callsTo('GET', `/api/businesses/${BUSINESS_ID}/payouts`)[0]!;
    expect(asked.url.searchParams.get('batchId')).toBe('bat_1');
    expect(asked.url.searchParams.get('state')).toBe('Submitted');
  });

  it('a bulk payout approved at once reads "All sent"', async () => {
    openDonePayoutBatch(0);
    expect(await screen.findByText('All sent')).toBeInTheDocument();
    expect(screen.queryByText('Waiting for approval')).toBeNull();
  });
});
