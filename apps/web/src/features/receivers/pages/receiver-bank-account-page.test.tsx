import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicReceiverLink } from '@tay/contract';
import { apiError, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { ReceiverBankAccountPage } from './receiver-bank-account-page';

const TOKEN = 'a'.repeat(43);
const API = `/api/public/receivers/bank-account/${TOKEN}`;
const PAGE = `/receiver/bank-account/${TOKEN}`;

const link: PublicReceiverLink = {
  businessName: 'Harbor Music',
  businessLogoUrl: null,
  firstName: 'Sam',
  status: 'open',
  statusMessage: null,
  currentAccount: null,
  expiresAt: '2026-12-01T00:00:00.000Z',
};

const fake = fakeApiPerTest();

const open = () => renderAt(PAGE, { '/receiver/bank-account/:token': <ReceiverBankAccountPage /> });

describe('the receiver’s bank account page', () => {
  it('names the bank once the routing number passes, refuses mismatched numbers, then saves and says it is done', async () => {
    fake.on('GET', API, ok(link));
    fake.on('GET', `${API}/routing/222096656`, ok({ routingNumber: '222096656', valid: true, bankName: 'Tay Sandbox Bank' }));
    fake.on('POST', API, ok({ bankName: 'Tay Sandbox Bank', last4: '6789' }));
    open();
    expect(await screen.findByText('Hello Sam, add your bank account')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/Name on the account/), 'Sam Lee');
    await u.type(screen.getByLabelText(/Routing number/), '222096656');
    expect(await screen.findByText('Tay Sandbox Bank')).toBeInTheDocument();
    await u.type(screen.getByLabelText(/^Account number/), '000123456789');
    await u.type(screen.getByLabelText(/Confirm account number/), '000123456780');
    await u.click(screen.getByRole('button', { name: 'Save my bank account' }));
    expect(await screen.findByText('The account numbers do not match.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
    await u.clear(screen.getByLabelText(/Confirm account number/));
    await u.type(screen.getByLabelText(/Confirm account number/), '000123456789');
    await u.click(screen.getByRole('button', { name: 'Save my bank account' }));
    expect(await screen.findByText('Your bank account is saved')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)[0]!.body).toMatchObject({ routingNumber: '222096656', accountNumber: '000123456789', accountType: 'checking' });
  });

  it('says clearly when the link has expired', async () => {
    fake.on('GET', API, apiError(410, 'GONE', 'This link expired on Nov 1, 2026. Ask Harbor Music to send you a new one.'));
    open();
    expect(await screen.findByText('This link has expired')).toBeInTheDocument();
    expect(screen.getByText(/Ask Harbor Music to send you a new one/)).toBeInTheDocument();
  });

  it('takes no details while the business cannot pay out', async () => {
    fake.on('GET', API, ok({ ...link, status: 'unavailable', statusMessage: 'Harbor Music cannot take bank details for payouts right now.' }));
    open();
    expect(await screen.findByText('Harbor Music cannot take bank details for payouts right now.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save my bank account' })).not.toBeInTheDocument();
  });
});
