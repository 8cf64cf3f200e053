import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicCheckInPage } from '@tay/contract';
import { apiError, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { CheckInPage } from './check-in-page';

const TOKEN = 'b'.repeat(32);
const API = `/api/public/checkin/${TOKEN}`;

const event: PublicCheckInPage = {
  businessName: 'Harbor Music',
  businessLogoUrl: null,
  eventName: 'Summer fair',
  eventDate: '2026-12-05',
  place: 'Town hall',
  status: 'open',
  statusMessage: null,
};

const fake = fakeApiPerTest();

const open = () => renderAt(`/checkin/${TOKEN}`, { '/checkin/:token': <CheckInPage /> });

describe('the check-in page', () => {
  it('asks a new e-mail for a name, then checks them in and says a link was e-mailed', async () => {
    fake.on('GET', API, ok(event));
    fake.on('POST', API, (call) =>
      (call.body as { firstName?: string }).firstName
        ? ok({
            result: 'checked_in',
            checkedInAt: '2026-12-05T10:00:00.000Z',
            firstName: 'Nia',
            newReceiver: true,
            needsBankAccount: true,
            message: "You're checked in to Summer fair. We e-mailed you a link to add your bank account.",
          })
        : apiError(422, 'UNPROCESSABLE_ENTITY', 'We need your name.', { firstName: 'Enter your first name.', lastName: 'Enter your last name.' }),
    );
    open();
    expect(await screen.findByText('Summer fair')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/Your e-mail address/), 'nia@people.example');
    await u.click(screen.getByRole('button', { name: 'Check in' }));
    await u.type(await screen.findByLabelText(/First name/), 'Nia');
    await u.type(screen.getByLabelText(/Last name/), 'New');
    await u.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('You’re checked in')).toBeInTheDocument();
    expect(screen.getByText(/We e-mailed you a link to add your bank account/)).toBeInTheDocument();
    expect(fake.callsTo('POST', API).at(-1)!.body).toEqual({ email: 'nia@people.example', firstName: 'Nia', lastName: 'New' });
  });

  it('says when check-ins are closed', async () => {
    fake.on('GET', API, ok({ ...event, status: 'disabled', statusMessage: 'Harbor Music has closed check-ins for Summer fair.' }));
    open();
    expect(await screen.findByText('Check-ins are closed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Check in' })).not.toBeInTheDocument();
  });
});
