import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventCheckIn, PayoutEvent } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { EventCheckInsPage } from './event-check-ins-page';
import { EventsPage } from './events-page';

const API = `/api/businesses/${BUSINESS_ID}/events`;

function payoutEvent(over: Partial<PayoutEvent> = {}): PayoutEvent {
  return {
    eventId: 'evn_1',
    name: 'Summer fair',
    eventDate: '2026-12-05',
    place: 'Town hall',
    amountCents: 2500,
    status: 'active',
    checkInsCount: 0,
    maxCheckIns: null,
    checkInsCloseAt: null,
    checkInUrl: 'http://localhost:3000/checkin/abc',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    actions: ['Edit', 'Disable', 'Event Check-Ins', 'Delete'],
    ...over,
  };
}

const fake = fakeApiPerTest();

describe('Manage Events', () => {
  it('lists events with their row actions; Event Check-Ins opens the check-ins of the event', async () => {
    fake.on('GET', API, ok({ items: [payoutEvent()], page: 1, pageSize: 25, total: 1 }));
    const checkIn: EventCheckIn = {
      receiverId: 'rcv_1',
      receiverName: 'Ana Lopez',
      email: 'ana@people.example',
      verification: 'verified',
      checkedInAt: '2026-12-05T10:00:00.000Z',
      payoutId: null,
      addedVia: 'team',
      receiverReviewed: true,
    };
    fake.on('GET', `${API}/evn_1/check-ins`, ok({ event: payoutEvent({ checkInsCount: 1 }), items: [checkIn], page: 1, pageSize: 25, total: 1 }));
    renderAt('/business/payouts/qrcode', {
      '/business/payouts/qrcode': <EventsPage />,
      '/business/payouts/qrcode/check-ins': <EventCheckInsPage />,
    });
    expect(await screen.findByText('Showing 1 to 1 of 1 Results')).toBeInTheDocument();
    const u = userEvent.setup();
    const row = screen.getByText('Summer fair').closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Edit', 'Disable', 'Event Check-Ins', 'Delete', 'Download PNG', 'Download SVG', 'Download PDF poster']);
    await u.click(screen.getByRole('menuitem', { name: 'Event Check-Ins' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/payouts/qrcode/check-ins?eventId=evn_1'));
    expect(await screen.findByText('Ana Lopez')).toBeInTheDocument();
    expect(screen.getByText('Not paid yet')).toBeInTheDocument();
  });

  it('creates an event in a modal, the amount in dollars sent as cents, with its cap of check-ins', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    fake.on('POST', API, ok(payoutEvent()));
    renderAt('/business/payouts/qrcode', { '/business/payouts/qrcode': <EventsPage /> });
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getAllByRole('button', { name: 'New event' })[0]!);
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText(/Event name/), 'Summer fair');
    await u.type(within(dialog).getByLabelText(/Date/), '2026-12-05');
    await u.type(within(dialog).getByLabelText(/Amount per check-in/), '25');
    await u.type(within(dialog).getByLabelText(/Place/), 'Town hall');
    await u.type(within(dialog).getByLabelText(/Most check-ins/), '40');
    await u.click(within(dialog).getByRole('button', { name: 'Create event' }));
    await waitFor(() => expect(fake.callsTo('POST', API)).toHaveLength(1));
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      name: 'Summer fair',
      eventDate: '2026-12-05',
      place: 'Town hall',
      amountCents: 2500,
      status: 'active',
      maxCheckIns: 40,
      checkInsCloseAt: null,
    });
  });
});
