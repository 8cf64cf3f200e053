import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The person reads the history in Tokyo; the business keeps Los Angeles time (docs/product.md §9).
vi.hoisted(() => {
  process.env.TZ = 'Asia/Tokyo';
});

import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { business, detail, listOf, request } from '../../../test/fixtures';
import { TransactionsPage } from './transactions-page';

const API = `/api/businesses/${BUSINESS_ID}`;
const LIST = `${API}/payment-requests`;
const HISTORY = '/business/payment/transactions/history';

// 04:30 UTC on Nov 25: 20:30 the evening before in Los Angeles, 13:30 the same day in Tokyo.
const CREATED = '2026-11-25T04:30:00.000Z';

const fake = fakeApiPerTest();
beforeEach(() => {
  const own = business({ businessState: 'Approved' });
  // A raw answer, so the configuration's newer fields can ride along whatever the fixture holds.
  fake.on(
    'GET',
    API,
    ok({ ...own, config: { ...own.config, timeZone: 'America/Los_Angeles', confirmAboveCents: 1_000_000, amountCeilingCents: 1_000_000_000 } }),
  );
});

const page = (path = HISTORY) => renderAt(path, { [HISTORY]: <TransactionsPage view="history" /> });

describe('the transaction history on the business’s clock, whatever the viewer’s', () => {
  it('shows when each request was created in the business’s time zone, labelled', async () => {
    expect(new Date(CREATED).getHours()).toBe(13);
    fake.on('GET', LIST, listOf([request({ payerName: 'Lena Late', createdAt: CREATED })]));
    page();
    const row = (await screen.findByText('Lena Late')).closest('tr')!;
    expect(await within(row).findByText('Nov 24, 2026 20:30 PST')).toBeInTheDocument();
    expect(within(row).queryByText(/Nov 25, 2026/)).toBeNull();
  });

  it('when the business’s zone cannot be read, says whose clock the time is on instead', async () => {
    fake.on('GET', API, { status: 500, json: { status: 'Error', errorDetails: { code: 'INTERNAL', message: 'Down.' } } });
    fake.on('GET', LIST, listOf([request({ payerName: 'Lena Late', createdAt: CREATED })]));
    page();
    const row = (await screen.findByText('Lena Late')).closest('tr')!;
    expect(await within(row).findByText('Nov 25, 2026 13:30 GMT+9')).toBeInTheDocument();
  });

  it('an opened request’s timeline and payments read on the same clock', async () => {
    const r = request({ transactionState: 'Paid', payerName: 'Lena Late', createdAt: CREATED });
    fake.on('GET', LIST, listOf([r]));
    fake.on(
      'GET',
      `${LIST}/${r.transactionId}`,
      ok(
        detail(r, {
          timeline: [{ at: CREATED, actor: 'owner@biz.example', event: 'create', fromState: null, toState: null, detail: null }],
          payments: [
            {
              paymentId: 'pay_1',
              method: 'card',
              instrument: 'Visa •••• 4242',
              amountCents: 12_500,
              feeCents: 393,
              refundedCents: 0,
              state: 'Processed',
              failureReason: null,
              createdAt: '2026-07-01T18:05:00.000Z',
              settledAt: null,
            },
          ],
        }),
      ),
    );
    page(`${HISTORY}?transid=${r.transactionId}`);
    const dialog = await screen.findByRole('dialog', { name: `Request ${r.referenceNumber}` });
    expect(await within(dialog).findByText('Nov 24, 2026 20:30 PST · owner@biz.example')).toBeInTheDocument();
    // Summer: daylight time, named so.
    expect(within(within(dialog).getByRole('table', { name: 'Payments' })).getByText('Jul 01, 2026 11:05 PDT')).toBeInTheDocument();
  });
});
