import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Balances } from '@tay/contract';
import { BalancesCard, type BalancesCardProps } from './balances-card';

function renderCard(props: Partial<BalancesCardProps>) {
  return render(
    <MantineProvider env="test">
      <MemoryRouter>
        <BalancesCard balances={undefined} loading={false} error={null} onRetry={() => {}} {...props} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

const ZERO: Balances = { pendingCents: 0, availableCents: 0, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 };

describe('the balances on the home page', () => {
  it('shows pending and available from the ledger as US dollars', () => {
    renderCard({ balances: { pendingCents: 4_851, availableCents: 1_215_600, collectedCents: 1_225_550, feesCents: 5_099, payoutsInFlightCents: 0 } });
    expect(within(screen.getByRole('group', { name: 'Pending' })).getByText('$48.51')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Available' })).getByText('$12,156.00')).toBeInTheDocument();
    expect(screen.getByText('$12,255.50 collected, $50.99 in fees.')).toBeInTheDocument();
  });

  it('shows a negative available balance after a return as it is', () => {
    renderCard({ balances: { pendingCents: 0, availableCents: -2_500, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 } });
    expect(within(screen.getByRole('group', { name: 'Available' })).getByText('-$25.00')).toBeInTheDocument();
    // Below zero, payouts wait: the card says so.
    expect(screen.getByText('Payouts are paused')).toBeInTheDocument();
    expect(screen.getByText(/Refunds took your available balance to -\$25\.00\. No payout can be approved/)).toBeInTheDocument();
  });

  it('says nothing of paused payouts at zero or above', () => {
    renderCard({ balances: { pendingCents: 0, availableCents: 100, collectedCents: 100, feesCents: 0, payoutsInFlightCents: 0 } });
    expect(screen.queryByText('Payouts are paused')).toBeNull();
  });

  it('says when nothing was collected yet, and how to start', () => {
    renderCard({ balances: ZERO });
    expect(screen.getByText('No payments yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a payment' })).toHaveAttribute('href', '/business/payment/request');
    expect(screen.queryByRole('group', { name: 'Pending' })).not.toBeInTheDocument();
  });

  it('shows that it is loading', () => {
    renderCard({ loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your balances');
  });

  it('says when the balances could not be loaded, and tries again on request', async () => {
    const onRetry = vi.fn();
    renderCard({ error: new Error('We could not reach Tay. Check your connection and try again.'), onRetry });
    expect(screen.getByRole('alert')).toHaveTextContent('We could not load your balances');
    expect(screen.getByRole('alert')).toHaveTextContent('We could not reach Tay.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
