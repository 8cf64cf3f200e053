import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../test/page-harness';
import { BusinessSearch } from './business-search';

const fake = fakeApiPerTest();
const SEARCH = `/api/businesses/${BUSINESS_ID}/search`;

describe('the header search', () => {
  it('opens on Ctrl+K, asks the API once the typing pauses, shows the hits grouped, and Enter opens the first', async () => {
    fake.on('GET', SEARCH, (call) =>
      ok({
        query: call.url.searchParams.get('q'),
        groups: [
          {
            kind: 'requests',
            label: 'Requests to pay',
            hits: [
              {
                kind: 'requests',
                id: 'req_1',
                title: 'TRX-10001 · Ana Lopez',
                detail: '$123.45 · Sent',
                href: '/business/payment/transactions/history?transid=req_1',
              },
            ],
          },
          {
            kind: 'payers',
            label: 'Payers',
            hits: [{ kind: 'payers', id: 'pyr_1', title: 'Ana Lopez', detail: 'ana@example.com', href: '/business/payment/payers/transactions?payerId=pyr_1' }],
          },
        ],
      }),
    );
    renderAt('/business/home', { '/business/home': <BusinessSearch businessId={BUSINESS_ID} />, '*': <p>Elsewhere</p> });
    const u = userEvent.setup();
    await u.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('textbox', { name: 'Search payers, requests, invoices and more' });
    await u.type(box, 'ana');
    expect(await screen.findByText('Requests to pay')).toBeInTheDocument();
    expect(screen.getByText('Payers')).toBeInTheDocument();
    expect(screen.getByText('$123.45 · Sent')).toBeInTheDocument();
    // One request for the pause, not one per letter.
    expect(fake.callsTo('GET', SEARCH).map((c) => c.url.searchParams.get('q'))).toEqual(['ana']);
    await u.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/transactions/history?transid=req_1'));
  });

  it('says when nothing matches', async () => {
    fake.on('GET', SEARCH, ok({ query: 'zzz', groups: [] }));
    renderAt('/business/home', { '/business/home': <BusinessSearch businessId={BUSINESS_ID} /> });
    const u = userEvent.setup();
    await u.click(screen.getAllByRole('button', { name: 'Search' })[0]!);
    await u.type(await screen.findByRole('textbox', { name: 'Search payers, requests, invoices and more' }), 'zzz');
    expect(await screen.findByText('Nothing in this business matches “zzz”.')).toBeInTheDocument();
  });
});
