import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserBusinessSummary } from '@tay/contract';
import { detail, listOf, payer, request } from '../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../test/page-harness';
import { PayerTransactionsRoute } from './payer-transactions-route';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const PAGE = '/business/payment/payers/transactions';

const fake = fakeApiPerTest();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});

const pat = payer('Pat Payer', { historyCount: 1, transactionCount: 1 });
const open = (search = '', business?: Partial<UserBusinessSummary>) =>
  renderAt(
    `${PAGE}?payerId=${pat.payerId}${search}`,
    { [PAGE]: <PayerTransactionsRoute />, '/business/payment/request': <p>Request form</p> },
    business ? { business } : {},
  );
const lastListQuery = () => Object.fromEntries(fake.callsTo('GET', LIST).at(-1)!.url.searchParams);

async function menuOf(rowText: string) {
  const u = userEvent.setup();
  const row = (await screen.findByText(rowText)).closest('tr')!;
  await u.click(within(row).getByRole('button', { name: 'Row actions' }));
  return { u, items: (await screen.findAllByRole('menuitem')).map((item) => item.textContent) };
}

describe('a payer’s transactions', () => {
  beforeEach(() => {
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/payers/${pat.payerId}`, ok(pat));
    fake.on(
      'GET',
      `/api/businesses/${BUSINESS_ID}/payers/${pat.payerId}/history`,
      ok({
        items: [
          { eventId: 'evt_2', action: 'verified', actor: 'payer', text: 'Confirmed their e-mail address', createdAt: '2026-05-02T15:04:00.000Z' },
          {
            eventId: 'evt_1',
            action: 'created',
            actor: 'owner@biz.example',
            text: 'Added, and e-mailed a link to confirm their e-mail address',
            createdAt: '2026-05-01T10:00:00.000Z',
          },
        ],
        more: false,
      }),
    );
  });

  it('show the payer’s history: what changed, who did it and when, newest first', async () => {
    fake.on('GET', LIST, listOf([]));
    open();
    const history = await screen.findByRole('region', { name: 'History' });
    await within(history).findByText('Confirmed their e-mail address');
    const items = within(history)
      .getAllByText(/·/)
      .map((el) => el.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^May 0[12], 2026 \d{1,2}:\d{2} [A-Z][A-Za-z0-9+:-]* · the payer$/);
    expect(items[1]).toMatch(/· owner@biz\.example$/);
    expect(within(history).getByText('Added, and e-mailed a link to confirm their e-mail address')).toBeInTheDocument();
  });

  it('list only this payer’s sent requests, and open a request’s details in place from the keyboard', async () => {
    const sent = request({ payerId: pat.payerId, memo: 'Piano lessons' });
    fake.on('GET', LIST, listOf([sent]));
    fake.on('GET', `${LIST}/${sent.transactionId}`, ok(detail(sent)));
    const u = userEvent.setup();
    open();
    await screen.findByText('Piano lessons');
    expect(lastListQuery()).toMatchObject({ payerId: pat.payerId, view: 'history' });
    screen.getByRole('link', { name: `View ${sent.referenceNumber}` }).focus();
    await u.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: `Request ${sent.referenceNumber}` })).toBeInTheDocument();
    expect(shownLocation()).toBe(`${PAGE}?payerId=${pat.payerId}&transid=${sent.transactionId}`);
  });

  it('offer the row actions of each request’s state, and Withdraw asks first, then withdraws', async () => {
    const sent = request({ payerId: pat.payerId, memo: 'Piano lessons' });
    fake.on('GET', LIST, listOf([sent]));
    fake.on('POST', `${LIST}/${sent.transactionId}/withdraw`, ok({ ...sent, transactionState: 'Withdrawn' }));
    open();
    const { u, items } = await menuOf('Piano lessons');
    expect(items).toEqual(['Resend', 'Withdraw', 'Copy']);
    await u.click(screen.getByRole('menuitem', { name: 'Withdraw' }));
    expect(fake.callsTo('POST', `${LIST}/${sent.transactionId}/withdraw`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, withdraw' }));
    await waitFor(() => expect(fake.callsTo('POST', `${LIST}/${sent.transactionId}/withdraw`)).toHaveLength(1));
    expect(await screen.findByText('Request withdrawn')).toBeInTheDocument();
  });

  it('filter by status and clear the filters without losing the payer', async () => {
    fake.on('GET', LIST, listOf([request({ payerId: pat.payerId, memo: 'Piano lessons' })]));
    const u = userEvent.setup();
    open('&status=Paid');
    await screen.findByText('Piano lessons');
    expect(lastListQuery()).toMatchObject({ payerId: pat.payerId, status: 'Paid' });
    await u.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastListQuery()).not.toHaveProperty('status'));
    expect(lastListQuery()).toMatchObject({ payerId: pat.payerId });
    expect(shownLocation()).toBe(`${PAGE}?payerId=${pat.payerId}`);
  });

  it('export this payer’s requests as CSV', async () => {
    fake.on('GET', LIST, listOf([request({ payerId: pat.payerId, memo: 'Piano lessons' })]));
    fake.on('GET', `${LIST}/export.csv`, { text: 'Reference\n', headers: { 'content-type': 'text/csv' } });
    const u = userEvent.setup();
    open();
    await screen.findByText('Piano lessons');
    await u.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(fake.callsTo('GET', `${LIST}/export.csv`)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', `${LIST}/export.csv`)[0]!.url.searchParams)).toMatchObject({ payerId: pat.payerId });
  });

  it('for a disabled business: say why, and offer only what changes nothing', async () => {
    const paid = request({ payerId: pat.payerId, memo: 'Piano lessons', transactionState: 'Paid', amountPaidCents: 12_500 });
    const sent = request({ payerId: pat.payerId, memo: 'Drum lessons' });
    fake.on('GET', LIST, listOf([paid, sent]));
    open('', { businessState: 'Disabled' });
    await screen.findByText('Drum lessons');
    expect(screen.queryByRole('button', { name: 'Request to Pay' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit payer' })).toBeNull();
    // A Sent request has nothing a disabled business may do: no menu at all.
    expect(within(screen.getByText('Drum lessons').closest('tr')!).queryByRole('button', { name: 'Row actions' })).toBeNull();
    const { items } = await menuOf('Piano lessons');
    expect(items).toEqual(['View/Download receipt']);
  });
});
