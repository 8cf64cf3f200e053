import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Receiver } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { ReceiversPage } from './receivers-page';

const API = `/api/businesses/${BUSINESS_ID}/receivers`;
const PAGE = '/business/payouts/receivers';

function receiver(over: Partial<Receiver> = {}): Receiver {
  return {
    receiverId: 'rcv_1',
    firstName: 'Ana',
    lastName: 'Lopez',
    email: 'ana@people.example',
    mobile: null,
    reference: 'EMP-1',
    verification: 'verified',
    status: 'active',
    bank: { bankName: 'Tay Sandbox Bank', last4: '6789', accountType: 'checking' },
    paidCount: 0,
    paidCents: 0,
    linkSentAt: '2026-11-01T10:00:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
    addedVia: 'team',
    reviewed: true,
    actions: ['Edit', 'Disable', 'Transactions', 'Delete', 'Resend verification'],
    ...over,
  };
}

const fake = fakeApiPerTest();

const open = () => renderAt(PAGE, { [PAGE]: <ReceiversPage />, '/business/payouts/payment/transactions': <p>Payouts list</p> });

describe('the receivers list', () => {
  it('shows the bank masked, the verification, "Showing 1 to 2 of 2 Results", and the row actions by their names', async () => {
    const waiting = receiver({
      receiverId: 'rcv_2',
      firstName: 'Sam',
      lastName: 'Lee',
      email: 'sam@people.example',
      verification: 'unverified',
      bank: null,
      reference: null,
    });
    fake.on('GET', API, ok({ items: [receiver(), waiting], page: 1, pageSize: 25, total: 2 }));
    open();
    expect(await screen.findByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    expect(screen.getByText('Tay Sandbox Bank •••• 6789')).toBeInTheDocument();
    expect(within(screen.getByText('Sam Lee').closest('tr')!).getByText('Waiting for bank account')).toBeInTheDocument();
    const u = userEvent.setup();
    const row = screen.getByText('Ana Lopez').closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Edit', 'Disable', 'Transactions', 'Delete', 'Resend verification']);
    await u.click(screen.getByRole('menuitem', { name: 'Transactions' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/payouts/payment/transactions?receiverId=rcv_1'));
  });

  it('flags a receiver a member added; an owner marks them reviewed, a member is not offered to', async () => {
    const added = receiver({ reviewed: false, addedVia: 'check_in', actions: ['Mark reviewed', 'Edit', 'Disable', 'Transactions', 'Resend verification'] });
    fake.on('GET', API, ok({ items: [added], page: 1, pageSize: 25, total: 1 }));
    fake.on('POST', `${API}/rcv_1/review`, ok({ ...added, reviewed: true }));
    const view = open();
    const row = (await screen.findByText('Ana Lopez')).closest('tr')!;
    expect(within(row).getByText('New from a check-in, not reviewed')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Mark reviewed' }));
    expect(await screen.findByText('Receiver reviewed')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/rcv_1/review`)).toHaveLength(1);
    view.unmount();

    renderAt(PAGE, { [PAGE]: <ReceiversPage /> }, { business: { role: 'member' } });
    const memberRow = (await screen.findByText('Ana Lopez')).closest('tr')!;
    await u.click(within(memberRow).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).not.toContain('Mark reviewed');
  });

  it('asks before Delete, then deletes and says so', async () => {
    fake.on('GET', API, ok({ items: [receiver()], page: 1, pageSize: 25, total: 1 }));
    fake.on('DELETE', `${API}/rcv_1`, { status: 204 });
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Ana Lopez')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(fake.callsTo('DELETE', `${API}/rcv_1`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText('Receiver deleted')).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${API}/rcv_1`)).toHaveLength(1);
  });

  it('adds a receiver in a modal; a duplicate e-mail shows on its field', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    fake.on(
      'POST',
      API,
      apiError(409, 'CONFLICT', 'This business already has a receiver with this e-mail address.', {
        email: 'You already have a receiver with this e-mail address.',
      }),
    );
    open();
    expect(await screen.findByText('No receivers yet')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getAllByRole('button', { name: 'Add receiver' })[0]!);
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText(/First name/), 'Ana');
    await u.type(within(dialog).getByLabelText(/Last name/), 'Lopez');
    await u.type(within(dialog).getByLabelText(/E-mail/), 'ana@people.example');
    await u.click(within(dialog).getByRole('button', { name: 'Add and send link' }));
    expect(await screen.findByText('You already have a receiver with this e-mail address.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({ firstName: 'Ana', lastName: 'Lopez', email: 'ana@people.example', mobile: null, reference: null });
  });
});
