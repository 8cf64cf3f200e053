import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Payout, PayoutSummary, Receiver } from '@tay/contract';
import { apiError, BUSINESS_ID, FakeApi, ok, renderAt } from '../../../test/page-harness';
import { PayoutsDashboardPage } from './payouts-dashboard-page';
import { amountProblem, PayoutFormPage, receiverOptions } from './payout-form-page';
import { groupForReview, isOwnSubmission, PayoutsReviewPage } from './payouts-review-page';

const API = `/api/businesses/${BUSINESS_ID}`;

function payout(over: Partial<Payout> = {}): Payout {
  return {
    payoutId: 'pout_1',
    number: 1000,
    reference: 'PAY-1000',
    receiverId: 'rcv_1',
    receiverName: 'Riley Receiver',
    receiverEmail: 'riley@example.com',
    receiverReviewed: true,
    amountCents: 12_345,
    feeCents: 25,
    memo: '',
    payOn: null,
    state: 'Processed',
    batchId: null,
    eventId: null,
    rejectReason: null,
    failureReason: null,
    submittedBy: 'owner@example.com',
    submittedAt: '2026-11-25T10:00:00.000Z',
    createdByUserId: 'usr_someone',
    secondApproverRequired: false,
    approvedBy: 'owner@example.com',
    approvedAt: '2026-11-25T10:00:00.000Z',
    processedAt: '2026-11-25T10:01:00.000Z',
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:01:00.000Z',
    actions: ['Copy'],
    ...over,
  };
}

function receiver(over: Partial<Receiver>): Receiver {
  return {
    receiverId: 'rcv_1',
    firstName: 'Riley',
    lastName: 'Receiver',
    email: 'riley@example.com',
    mobile: null,
    reference: null,
    verification: 'verified',
    status: 'active',
    bank: { bankName: 'Tay Sandbox Bank', last4: '6789', accountType: 'checking' },
    paidCount: 0,
    paidCents: 0,
    linkSentAt: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    addedVia: 'team',
    reviewed: true,
    actions: [],
    ...over,
  };
}

describe('the receiver typeahead', () => {
  it('offers verified active receivers and shows the others disabled with why', () => {
    const options = receiverOptions([
      receiver({ receiverId: 'a' }),
      receiver({ receiverId: 'b', verification: 'unverified', bank: null }),
      receiver({ receiverId: 'c', status: 'Disabled' }),
    ]);
    expect(options.map((o) => [o.value, o.disabled])).toEqual([
      ['a', false],
      ['b', true],
      ['c', true],
    ]);
    expect(options[1]!.label).toMatch(/waiting for their bank account/);
    expect(options[2]!.label).toMatch(/disabled/);
  });
});

describe('the payout amount', () => {
  it('says an amount it cannot read is not an amount, and asks only a readable one of $0.00 or less to be above it', () => {
    for (const text of ['0.005', '1e3', '12,50', '1,000.999', 'ten', '-5']) {
      expect(amountProblem(text)).toBe(`"${text}" is not an amount. Write it like 125.50 or $1,234.50.`);
    }
    expect(amountProblem('0')).toBe('Enter an amount above $0.00.');
    expect(amountProblem('$0.00')).toBe('Enter an amount above $0.00.');
    expect(amountProblem('  ')).toBe('Enter the amount to pay.');
    expect(amountProblem('10000000.01')).toBe('The amount is above the $10,000,000.00 limit.');
    expect(amountProblem('1,000.99')).toBeNull();
    expect(amountProblem('$12')).toBeNull();
  });

  it('shows that on the form, and sends nothing', async () => {
    const fake = new FakeApi();
    fake.install();
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired: false, feeCents: 25 }));
    renderAt('/business/payouts/payment/request', { '/business/payouts/payment/request': <PayoutFormPage /> });
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Amount/), '12,50');
    await u.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('"12,50" is not an amount. Write it like 125.50 or $1,234.50.')).toBeInTheDocument();
    expect(screen.queryByText('Enter an amount above $0.00.')).toBeNull();
    await u.clear(screen.getByLabelText(/^Amount/));
    await u.type(screen.getByLabelText(/^Amount/), '0.00');
    await u.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Enter an amount above $0.00.')).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });
});

describe('the payout form', () => {
  const form = (business: { role: 'owner' | 'member' }, availableCents: number) => {
    const fake = new FakeApi();
    fake.install();
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired: false, feeCents: 25 }));
    fake.on('GET', `${API}/balances`, ok({ pendingCents: 0, availableCents, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 }));
    fake.on('GET', `${API}/receivers`, ok({ items: [receiver({})], page: 1, pageSize: 20, total: 1 }));
    renderAt('/business/payouts/payment/request', { '/business/payouts/payment/request': <PayoutFormPage /> }, { business });
    return fake;
  };
  const fill = async (amount: string) => {
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Receiver/, { selector: 'input' }), 'Ri');
    await u.click(await screen.findByRole('option', { name: /Riley Receiver/ }));
    await u.type(screen.getByLabelText(/^Amount/), amount);
    await u.click(screen.getByRole('button', { name: 'Submit' }));
    return within(await screen.findByRole('dialog'));
  };

  it('shows the available balance and refuses before confirming when an approval now would not be covered', async () => {
    const fake = form({ role: 'owner' }, 5_000);
    const dialog = await fill('100');
    expect(dialog.getByText('Available balance: $50.00')).toBeInTheDocument();
    expect(dialog.getByText('The available balance does not cover this payout')).toBeInTheDocument();
    expect(dialog.getByText(/It needs \$50\.25 more than the available balance of \$50\.00\./)).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(fake.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('tells a member an owner or admin approves it, whatever the balance', async () => {
    form({ role: 'member' }, 0);
    const dialog = await fill('100');
    expect(dialog.getByText('An owner or admin must approve it before it is sent.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });
});

describe('the approval queue', () => {
  it('knows whom the server refuses a decision: the submitter or the creator, while a second approver is required', () => {
    const owner = { email: 'owner@biz.example', userId: 'usr_owner' };
    const mine = payout({ submittedBy: 'Owner@Biz.example' });
    expect(isOwnSubmission(mine, owner, true)).toBe(true);
    expect(isOwnSubmission(mine, owner, false)).toBe(false);
    expect(isOwnSubmission(mine, { email: 'admin@biz.example', userId: 'usr_admin' }, true)).toBe(false);
    expect(isOwnSubmission(payout({ submittedBy: null }), owner, true)).toBe(false);
    // Created by the owner, submitted by someone else.
    const created = payout({ submittedBy: 'member@biz.example', createdByUserId: 'usr_owner' });
    expect(isOwnSubmission(created, owner, true)).toBe(true);
    // Submitted under the rule, which was turned off since: the rule still holds for it.
    expect(isOwnSubmission(payout({ submittedBy: 'owner@biz.example', secondApproverRequired: true }), owner, false)).toBe(true);
  });

  it('groups batch payouts by batch and keeps single ones apart', () => {
    const grouped = groupForReview([
      payout({ payoutId: '1' }),
      payout({ payoutId: '2', batchId: 'b1' }),
      payout({ payoutId: '3', batchId: 'b1', amountCents: 5 }),
    ]);
    expect(grouped.singles.map((p) => p.payoutId)).toEqual(['1']);
    expect(grouped.batches).toEqual([expect.objectContaining({ batchId: 'b1', totalCents: 12_350 })]);
  });
});

describe('the payouts dashboard', () => {
  let fake: FakeApi;
  beforeEach(() => {
    fake = new FakeApi();
    fake.install();
  });

  it('shows the four figures, the queue link, the recent payouts and the approval setting', async () => {
    const summary: PayoutSummary = {
      availableCents: 100_000,
      inFlightCents: 2_525,
      paidThisMonthCents: 12_345,
      paidThisMonthCount: 1,
      waitingCount: 2,
      waitingCents: 3_000,
      approvalRequired: false,
      feeCents: 25,
      recent: [payout()],
    };
    fake.on('GET', `${API}/payouts/summary`, ok(summary));
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired: false, feeCents: 25 }));
    fake.on('PATCH', `${API}/payout-settings`, ok({ approvalRequired: true, feeCents: 25 }));
    renderAt('/business/payouts', { '/business/payouts': <PayoutsDashboardPage /> });
    expect(await screen.findByText('$1,000.00')).toBeInTheDocument();
    expect(screen.getByText('$25.25')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Review the 2 payouts waiting for approval' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PAY-1000' })).toBeInTheDocument();
    // On a phone the table scrolls inside its own box rather than widening the page.
    expect(screen.getByRole('table', { name: 'Recent payouts' }).closest('.mantine-TableScrollContainer-scrollContainer')).not.toBeNull();
    expect(await screen.findByText('Payout approvals')).toBeInTheDocument();
    const toggle = screen.getByText('Require a second person to approve payouts');
    await userEvent.click(toggle);
    await waitFor(() => expect(fake.callsTo('PATCH', `${API}/payout-settings`)).toHaveLength(1));
    expect(screen.queryByText('Payouts are paused')).toBeNull();
  });

  it('says payouts are paused while refunds hold the available balance below zero', async () => {
    const summary: PayoutSummary = {
      availableCents: -320,
      inFlightCents: 0,
      paidThisMonthCents: 0,
      paidThisMonthCount: 0,
      waitingCount: 0,
      waitingCents: 0,
      approvalRequired: false,
      feeCents: 25,
      recent: [],
    };
    fake.on('GET', `${API}/payouts/summary`, ok(summary));
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired: false, feeCents: 25 }));
    renderAt('/business/payouts', { '/business/payouts': <PayoutsDashboardPage /> });
    expect(await screen.findByText('Payouts are paused')).toBeInTheDocument();
    expect(screen.getByText(/Refunds took your available balance to -\$3\.20/)).toBeInTheDocument();
  });
});

describe('the approval queue page', () => {
  let fake: FakeApi;
  beforeEach(() => {
    fake = new FakeApi();
    fake.install();
  });

  it('approves after a confirmation showing amount and fee, and shows a refusal with its shortfall', async () => {
    const waiting = payout({ state: 'Submitted', feeCents: 0, actions: ['Approve', 'Reject', 'Cancel', 'Copy'], approvedBy: null, processedAt: null });
    fake.on('GET', `${API}/payouts`, ok({ items: [waiting], page: 1, pageSize: 100, total: 1, totals: { count: 1, amountCents: 12_345, feeCents: 0 } }));
    fake.on('GET', `${API}/balances`, ok({ pendingCents: 0, availableCents: 10_000, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 }));
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired: true, feeCents: 25 }));
    fake.on(
      'POST',
      `${API}/payouts/pout_1/approve`,
      apiError(409, 'INSUFFICIENT_BALANCE', 'Approving needs $23.70 more than the available balance of $100.00.'),
    );
    renderAt('/business/payouts/payment/request/payoutsreview', { '/business/payouts/payment/request/payoutsreview': <PayoutsReviewPage /> });
    expect(await screen.findByText('Not everything can be approved')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('$123.70')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approving needs $23.70 more than the available balance of $100.00.')).toBeInTheDocument();
    const call = fake.callsTo('POST', `${API}/payouts/pout_1/approve`)[0]!;
    expect(Object.keys(call.headers).map((h) => h.toLowerCase())).toContain('idempotency-key');
  });
  const queue = (items: Payout[], approvalRequired: boolean) => {
    fake.on('GET', `${API}/payouts`, ok({ items, page: 1, pageSize: 100, total: items.length, totals: { count: items.length, amountCents: 0, feeCents: 0 } }));
    fake.on('GET', `${API}/balances`, ok({ pendingCents: 0, availableCents: 1_000_000, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 }));
    fake.on('GET', `${API}/payout-settings`, ok({ approvalRequired, feeCents: 25 }));
    renderAt('/business/payouts/payment/request/payoutsreview', { '/business/payouts/payment/request/payoutsreview': <PayoutsReviewPage /> });
  };
  const waiting = (over: Partial<Payout>) =>
    payout({ state: 'Submitted', feeCents: 0, actions: ['Approve', 'Reject', 'Cancel', 'Copy'], approvedBy: null, processedAt: null, ...over });

  it('keeps each table in a sideways scroll container, so a phone reaches the Approve and Reject of the last column', async () => {
    queue([waiting({ payoutId: 'p1', submittedBy: 'someone@biz.example' }), waiting({ payoutId: 'p2', reference: 'PAY-1001', batchId: 'b1' })], false);
    const tables = await screen.findAllByRole('table');
    expect(tables).toHaveLength(2);
    for (const table of tables) expect(table.closest('.mantine-TableScrollContainer-scrollContainer')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Approve' }).closest('.mantine-TableScrollContainer-scrollContainer')).not.toBeNull();
  });

  it('offers no approval to whoever submitted the payout or the batch when a second approver is required, and says why', async () => {
    queue(
      [
        waiting({ payoutId: 'p1', submittedBy: 'owner@biz.example' }),
        waiting({ payoutId: 'p2', reference: 'PAY-1001', submittedBy: 'other@biz.example' }),
        waiting({ payoutId: 'p3', reference: 'PAY-1002', batchId: 'b1', submittedBy: 'owner@biz.example' }),
      ],
      true,
    );
    expect(await screen.findByText('You submitted or created this payout; another person must approve it.')).toBeInTheDocument();
    const mine = screen.getByText('PAY-1000').closest('tr')!;
    expect(within(mine).queryByRole('button')).toBeNull();
    const theirs = screen.getByText('PAY-1001').closest('tr')!;
    expect(within(theirs).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(screen.getByText('You submitted or created payouts in this batch; another person must approve it.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve batch' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject batch' })).toBeNull();
  });

  it('flags a payout to a receiver no owner or admin has reviewed, and says approving reviews them', async () => {
    queue([waiting({ payoutId: 'p1', receiverReviewed: false, submittedBy: 'member@biz.example' })], false);
    const row = (await screen.findByText('PAY-1000')).closest('tr')!;
    expect(within(row).getByText('New receiver, not reviewed')).toBeInTheDocument();
    expect(screen.getByText('New receivers')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/no owner or admin has reviewed them yet\. Approving marks them reviewed\./)).toBeInTheDocument();
  });

  it('lets the submitter approve when the business needs no second approver', async () => {
    queue([waiting({ payoutId: 'p1', submittedBy: 'owner@biz.example' }), waiting({ payoutId: 'p3', reference: 'PAY-1002', batchId: 'b1' })], false);
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve batch' })).toBeInTheDocument();
    expect(screen.queryByText('You submitted or created this payout; another person must approve it.')).toBeNull();
  });
});
