import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Business } from '@tay/contract';
import { business as fullBusiness } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { HomePage } from './home-page';

const BUSINESS = `/api/businesses/${BUSINESS_ID}`;
const BALANCES = `${BUSINESS}/balances`;
const DISPUTES = `${BUSINESS}/disputes/summary`;

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('PATCH', `${BUSINESS}/update/prepareSubmit`, ok({ ready: true, missing: [] }));
  fake.on('GET', DISPUTES, ok({ needsResponseCount: 0, nextDueAt: null }));
});

function business(businessState: Business['businessState']) {
  return fullBusiness({ businessState, stateReason: businessState === 'Disabled' ? 'Documents expired' : null });
}

describe('the home page', () => {
  it('a Disabled business still sees the money it collected before', async () => {
    fake.on('GET', BUSINESS, ok(business('Disabled')));
    fake.on('GET', BALANCES, ok({ pendingCents: 0, availableCents: 1_215_600, collectedCents: 1_225_550, feesCents: 9_950, payoutsInFlightCents: 0 }));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    expect(await screen.findByText('$12,255.50 collected, $99.50 in fees.')).toBeInTheDocument();
    expect(screen.getByText('$12,156.00')).toBeInTheDocument();
    expect(screen.getByText('Contact Tay support to enable your business again.')).toBeInTheDocument();
  });

  it('a Disabled business that collected nothing is told so, and offered no request', async () => {
    fake.on('GET', BUSINESS, ok(business('Disabled')));
    fake.on('GET', BALANCES, ok({ pendingCents: 0, availableCents: 0, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 }));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    expect(await screen.findByText('A disabled business takes no payments, and this one collected none.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Request a payment' })).toBeNull();
  });

  it('says how many disputes need a response and the days left on the soonest, and leads to them', async () => {
    fake.on('GET', BUSINESS, ok(business('Approved')));
    fake.on('GET', BALANCES, ok({ pendingCents: 0, availableCents: 10_000, collectedCents: 10_000, feesCents: 0, payoutsInFlightCents: 0 }));
    fake.on('GET', DISPUTES, ok({ needsResponseCount: 2, nextDueAt: new Date(Date.now() + 4.5 * 86_400_000).toISOString() }));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    const notice = await screen.findByRole('region', { name: 'Disputes that need a response' });
    expect(notice).toHaveTextContent('2 disputes need your evidence — the soonest: 5 days left.');
    expect(screen.getByRole('link', { name: 'Respond' })).toHaveAttribute(
      'href',
      '/business/payment/disputes?state=NeedsResponse&sortBy=evidenceDueAt&sortDirection=asc',
    );
  });

  it('shows nothing about disputes while none needs a response', async () => {
    fake.on('GET', BUSINESS, ok(business('Approved')));
    fake.on('GET', BALANCES, ok({ pendingCents: 0, availableCents: 10_000, collectedCents: 10_000, feesCents: 0, payoutsInFlightCents: 0 }));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    expect(await screen.findByText('Balances')).toBeInTheDocument();
    expect(fake.callsTo('GET', DISPUTES)).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Disputes that need a response' })).toBeNull();
  });

  it('a business under review does not ask for balances', async () => {
    fake.on('GET', BUSINESS, ok(business('Pending')));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    expect(await screen.findByText('Once your business is approved, the money you collect shows here, pending and available.')).toBeInTheDocument();
    expect(fake.callsTo('GET', BALANCES)).toEqual([]);
    expect(fake.callsTo('GET', DISPUTES)).toEqual([]);
  });
});
