import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PaymentSummary, Refund } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { detail, listOf, request } from '../../../test/fixtures';
import { TransactionsPage } from './transactions-page';

// Refunds from the history (ADR 051): the row's Refund, its dialog, the badges beside the paid state and the filter.
const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const HISTORY = '/business/payment/transactions/history';
const fake = fakeApiPerTest();
const page = (path = HISTORY) => renderAt(path, { [HISTORY]: <TransactionsPage view="history" /> });

const payment = (over: Partial<PaymentSummary> = {}): PaymentSummary => ({
  paymentId: 'pay_1',
  method: 'card',
  instrument: 'Visa •••• 4242',
  amountCents: 12_500,
  feeCents: 393,
  refundedCents: 0,
  state: 'Processed',
  failureReason: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  settledAt: '2026-11-01T10:05:00.000Z',
  ...over,
});

const refund = (over: Partial<Refund> = {}): Refund => ({
  refundId: 'rfd_1',
  requestId: 'req_x',
  referenceNumber: 'TRX-1',
  payerName: 'Pat Payer',
  paymentId: 'pay_1',
  instrument: 'Visa •••• 4242',
  amountCents: 4_000,
  feeReturnedCents: 0,
  reason: 'requested_by_payer',
  note: null,
  state: 'Succeeded',
  failureReason: null,
  createdBy: 'owner@biz.example',
  createdAt: '2026-11-02T10:00:00.000Z',
  processedAt: '2026-11-02T10:00:00.000Z',
  ...over,
});

async function openRefund(rowText: string) {
  const u = userEvent.setup();
  const row = (await screen.findByText(rowText)).closest('tr')!;
  await u.click(within(row).getByRole('button', { name: 'Row actions' }));
  await u.click(await screen.findByRole('menuitem', { name: 'Refund' }));
  return { u, dialog: await screen.findByRole('dialog', { name: /^Refund TRX-/ }) };
}

describe('refunding from the history', () => {
  it('offers Refund on a paid row only, opens with what is refundable, and posts the amount, reason and note under an Idempotency-Key', async () => {
    const paid = request({ transactionState: 'Paid', payerName: 'Paula Paid', amountPaidCents: 12_500, refundedCents: 2_500 });
    const sent = request({ transactionState: 'Sent', payerName: 'Sam Sent' });
    fake.on('GET', LIST, listOf([paid, sent]));
    fake.on('GET', `${LIST}/${paid.transactionId}`, ok(detail(paid, { payments: [payment({ refundedCents: 2_500 })] })));
    fake.on('POST', `${LIST}/${paid.transactionId}/refunds`, { ...ok(refund({ requestId: paid.transactionId })), status: 201 });
    page();

    const u0 = userEvent.setup();
    const sentRow = (await screen.findByText('Sam Sent')).closest('tr')!;
    await u0.click(within(sentRow).getByRole('button', { name: 'Row actions' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).not.toContain('Refund');
    await u0.keyboard('{Escape}');

    // Beside its paid state: refunded in part.
    const paidRow = screen.getByText('Paula Paid').closest('tr')!;
    expect(within(paidRow).getByText('Partially refunded')).toBeInTheDocument();

    const { u, dialog } = await openRefund('Paula Paid');
    expect(shownLocation()).toBe(`${HISTORY}?refund=${paid.transactionId}`);
    const amount = within(dialog).getByRole('textbox', { name: /Amount to refund/ });
    await waitFor(() => expect(amount).toHaveValue('100.00'));
    expect(within(dialog).getByText('Up to $100.00')).toBeInTheDocument();

    // Nothing goes out without a reason, nor above what is left.
    await u.clear(amount);
    await u.type(amount, '150');
    await u.click(within(dialog).getByRole('button', { name: /^Refund \$150\.00/ }));
    expect(await within(dialog).findByText('At most $100.00 of this payment can be refunded.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose why you are refunding.')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${LIST}/${paid.transactionId}/refunds`)).toHaveLength(0);

    await u.clear(amount);
    await u.type(amount, '40');
    await u.click(
      within(dialog)
        .getAllByLabelText(/^Reason/)
        .find((el) => el.tagName === 'INPUT')!,
    );
    await u.click(await screen.findByRole('option', { name: 'Requested by the payer' }));
    await u.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Dropped a class');
    await u.click(within(dialog).getByRole('button', { name: /^Refund \$40\.00/ }));

    await waitFor(() => expect(fake.callsTo('POST', `${LIST}/${paid.transactionId}/refunds`)).toHaveLength(1));
    const call = fake.callsTo('POST', `${LIST}/${paid.transactionId}/refunds`)[0]!;
    expect(call.body).toEqual({ paymentId: 'pay_1', amountCents: 4_000, reason: 'requested_by_payer', note: 'Dropped a class' });
    expect(call.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('$40.00 to Visa •••• 4242 for ' + paid.referenceNumber + '.')).toBeInTheDocument();
    await waitFor(() => expect(shownLocation()).toBe(HISTORY));
  });

  it('shows the API’s refusal on the field it names, and keeps the dialog open', async () => {
    const paid = request({ transactionState: 'Paid', payerName: 'Rita Refused', amountPaidCents: 12_500 });
    fake.on('GET', LIST, listOf([paid]));
    fake.on('GET', `${LIST}/${paid.transactionId}`, ok(detail(paid, { payments: [payment()] })));
    fake.on(
      'POST',
      `${LIST}/${paid.transactionId}/refunds`,
      apiError(409, 'INSUFFICIENT_BALANCE', 'Refunding needs $20.00 more than the business’s balance of $105.00.'),
    );
    page();
    const { u, dialog } = await openRefund('Rita Refused');
    await u.click(
      within(dialog)
        .getAllByLabelText(/^Reason/)
        .find((el) => el.tagName === 'INPUT')!,
    );
    await u.click(await screen.findByRole('option', { name: 'Duplicate' }));
    await u.click(within(dialog).getByRole('button', { name: /^Refund \$125\.00/ }));
    expect(await screen.findByText('Refunding needs $20.00 more than the business’s balance of $105.00.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: /^Refund TRX-/ })).toBeInTheDocument();
  });

  it('the refund filter narrows the list query', async () => {
    fake.on('GET', LIST, listOf([request({ transactionState: 'Paid', amountPaidCents: 12_500, refundedCents: 12_500, payerName: 'Fully Back' })]));
    page(`${HISTORY}?refunded=Refunded`);
    expect(await screen.findByText('Fully Back')).toBeInTheDocument();
    expect(Object.fromEntries(fake.callsTo('GET', LIST).at(-1)!.url.searchParams)).toMatchObject({ refunded: 'Refunded' });
    expect(within(screen.getByText('Fully Back').closest('tr')!).getByText('Refunded')).toBeInTheDocument();
  });
});
