import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Outlet, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { EntityType } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { listOf, request } from '../../../test/fixtures';
import { PaymentsLandingPage } from './payments-landing-page';
import { TransactionsPage } from './transactions-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const BALANCES = `/api/businesses/${BUSINESS_ID}/balances`;

const fake = fakeApiPerTest();

const summary = { openCount: 1, openCents: 12_500, paidCount: 0, paidCents: 0, draftCount: 0, scheduledCount: 0, needsAttentionCount: 0 };

/** Balances that grow by a dollar on every read, so a refresh shows on screen. */
function balancesThatMove() {
  let reads = 0;
  fake.on('GET', BALANCES, () => {
    reads += 1;
    return ok({ pendingCents: reads * 100, availableCents: 50_000, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 });
  });
}

/** The business shell hands the page its template through the outlet's context. */
function InTemplate({ template, children }: { template: EntityType; children: ReactNode }) {
  return (
    <Routes>
      <Route element={<Outlet context={{ template }} />}>
        <Route index element={children} />
      </Route>
    </Routes>
  );
}

describe('the payments landing page', () => {
  it.each([
    ['standard', 'Manage Transactions and Request to pay', '/business/payment/request', 'Payers', '/business/payment/payers'],
    ['student', 'Requesting Payments', '/business/entity/students/payment/request?entity=true', 'Students', '/business/entity/students'],
    ['healthCare', 'Requesting Payments', '/business/healthcare-clients/payment/request?entity=true', 'Patients', '/business/healthcare-clients'],
  ] as const)('a %s business gets its heading, its own single request and its people', async (template, heading, requestHref, people, peopleHref) => {
    balancesThatMove();
    fake.on('GET', `${LIST}/summary`, ok(summary));
    renderAt('/business/payment', {
      '/business/payment': (
        <InTemplate template={template}>
          <PaymentsLandingPage />
        </InTemplate>
      ),
    });
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a payment' })).toHaveAttribute('href', requestHref);
    expect(screen.getByRole('link', { name: people })).toHaveAttribute('href', peopleHref);
  });

  it("shows the business's balances and the request figures", async () => {
    balancesThatMove();
    fake.on('GET', `${LIST}/summary`, ok(summary));
    renderAt('/business/payment', { '/business/payment': <PaymentsLandingPage /> });
    expect(await screen.findByText('$500.00')).toBeInTheDocument();
    expect(screen.getByText('$1.00')).toBeInTheDocument();
    expect(screen.getByText('1 open request(s)')).toBeInTheDocument();
  });

  it('balances that fail to load say so and offer to try again, which shows them', async () => {
    let fail = true;
    fake.on('GET', BALANCES, () =>
      fail
        ? apiError(503, 'UNAVAILABLE', 'The ledger is not answering.')
        : ok({ pendingCents: 100, availableCents: 50_000, collectedCents: 0, feesCents: 0, payoutsInFlightCents: 0 }),
    );
    fake.on('GET', `${LIST}/summary`, ok(summary));
    const u = userEvent.setup();
    renderAt('/business/payment', { '/business/payment': <PaymentsLandingPage /> });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your balances could not be loaded')).toBeInTheDocument();
    expect(within(alert).getByText('The ledger is not answering.')).toBeInTheDocument();
    // The request figures loaded: only the balances are said to have failed.
    expect(screen.getByText('1 open request(s)')).toBeInTheDocument();
    expect(screen.queryByText('The figures could not be loaded')).toBeNull();

    fail = false;
    await u.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('$500.00')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a request action the balances on screen are read again', async () => {
    const sent = request({ transactionState: 'Sent', payerName: 'Sam Sent' });
    balancesThatMove();
    fake.on('GET', `${LIST}/summary`, ok(summary));
    fake.on('GET', LIST, listOf([sent]));
    fake.on('POST', `${LIST}/${sent.transactionId}/resend`, ok({ ...sent, transactionState: 'Resent' }));
    const u = userEvent.setup();
    renderAt('/business/payment', {
      '/business/payment': (
        <>
          <PaymentsLandingPage />
          <TransactionsPage view="history" />
        </>
      ),
    });
    expect(await screen.findByText('$1.00')).toBeInTheDocument();
    const row = (await screen.findByText('Sam Sent')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Resend' }));
    await u.click(await screen.findByRole('button', { name: 'Yes, resend' }));
    await waitFor(() => expect(fake.callsTo('GET', BALANCES)).toHaveLength(2));
    expect(await screen.findByText('$2.00')).toBeInTheDocument();
  });
});
