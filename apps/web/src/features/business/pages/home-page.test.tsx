import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Business } from '@tay/contract';
import { business as fullBusiness } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { HomePage } from './home-page';

const BUSINESS = `/api/businesses/${BUSINESS_ID}`;
const BALANCES = `${BUSINESS}/balances`;

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('PATCH', `${BUSINESS}/update/prepareSubmit`, ok({ ready: true, missing: [] }));
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

  it('a business under review does not ask for balances', async () => {
    fake.on('GET', BUSINESS, ok(business('Pending')));
    renderAt('/business/home', { '/business/home': <HomePage /> });
    expect(await screen.findByText('Once your business is approved, the money you collect shows here, pending and available.')).toBeInTheDocument();
    expect(fake.callsTo('GET', BALANCES)).toEqual([]);
  });
});
