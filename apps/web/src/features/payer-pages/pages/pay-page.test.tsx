import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicPayPage } from '@tay/contract';
import { FakeApi, ok, renderAt } from '../../../test/page-harness';
import { PayPage } from './pay-page';

vi.setConfig({ testTimeout: 30_000 });

function page(over: Partial<PublicPayPage>): PublicPayPage {
  return {
    businessName: 'Harbor Music',
    businessLogoUrl: null,
    referenceNumber: 'TRX-10001',
    payerName: 'Pat Payer',
    amountCents: 12_500,
    amountPaidCents: 0,
    remainingCents: 12_500,
    memo: 'Spring term',
    dueDate: '2099-06-01',
    expiresOn: '2099-07-01',
    allowPartial: false,
    transactionState: 'Sent',
    status: 'payable',
    statusMessage: null,
    declinable: true,
    payments: [],
    ...over,
  };
}

let fake: FakeApi;
beforeEach(() => {
  fake = new FakeApi();
  fake.install();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function open(data: PublicPayPage) {
  fake.on('GET', '/api/public/pay/tok_1', ok(data));
  renderAt('/pay/tok_1', { '/pay/:token': <PayPage /> });
}

const card = {
  paymentId: 'pay_1',
  instrument: 'Visa •••• 4242',
  amountCents: 12_500,
  state: 'Processed' as const,
  failureReason: null,
  createdAt: '2026-05-01T10:00:00.000Z',
};

describe('the pay page headline, once the payer has paid', () => {
  it('reads what was paid while the card payment settles, not $0.00', async () => {
    open(
      page({
        transactionState: 'Accepted',
        status: 'processing',
        statusMessage: 'A payment for this request is being processed.',
        amountPaidCents: 12_500,
        remainingCents: 0,
        payments: [card],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 paid' })).toBeInTheDocument();
    expect(screen.queryByText('$0.00')).toBeNull();
  });

  it('reads what was paid once it is paid in full', async () => {
    open(
      page({
        transactionState: 'Paid',
        status: 'paid',
        statusMessage: 'This request is paid in full. Thank you!',
        amountPaidCents: 12_500,
        remainingCents: 0,
        payments: [card],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 paid' })).toBeInTheDocument();
    expect(screen.getByText('Paid in full')).toBeInTheDocument();
  });

  it('reads the bank payment on its way while it clears', async () => {
    open(
      page({
        transactionState: 'Accepted',
        status: 'processing',
        statusMessage: 'A payment for this request is being processed.',
        payments: [{ ...card, instrument: 'Bank •••• 6789', state: 'Pending' }],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 being paid' })).toBeInTheDocument();
  });
});
