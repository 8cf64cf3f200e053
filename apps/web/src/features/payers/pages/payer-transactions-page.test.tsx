import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listOf, payer, request } from '../../../test/fixtures';
import { BUSINESS_ID, FakeApi, ok, renderAt } from '../../../test/page-harness';
import { PayerTransactionsPage } from './payer-transactions-page';

vi.setConfig({ testTimeout: 30_000 });

let fake: FakeApi;
beforeEach(() => {
  fake = new FakeApi();
  fake.install();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a payer’s transactions', () => {
  it('open a request’s details from the keyboard: its reference is a link to them', async () => {
    const pat = payer('Pat Payer', { historyCount: 1, transactionCount: 1 });
    const sent = request({ payerId: pat.payerId, memo: 'Piano lessons' });
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/payers/${pat.payerId}`, ok(pat));
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/payments`, listOf([sent]));
    const u = userEvent.setup();
    renderAt(`/business/payment/payers/transactions?payerId=${pat.payerId}`, {
      '/business/payment/payers/transactions': <PayerTransactionsPage />,
      '/business/payment/transactions/history': <p>Transaction history</p>,
    });
    await screen.findByText('Piano lessons');
    screen.getByRole('link', { name: `View ${sent.referenceNumber}` }).focus();
    await u.keyboard('{Enter}');
    expect(await screen.findByText('Transaction history')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe(`/business/payment/transactions/history?transid=${sent.transactionId}`);
  });
});
