import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { detail, listOf, qrPayment, request } from '../../../test/fixtures';
import { TransactionsPage } from './transactions-page';

// Whole pages with typing, menus and modals: slower than a unit test on a busy machine.
const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const EXPORT = `${LIST}/export.csv`;
const HISTORY = '/business/payment/transactions/history';

const fake = fakeApiPerTest();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});

const page = (path = HISTORY) =>
  renderAt(path, {
    [HISTORY]: <TransactionsPage view="history" />,
    '/business/payment/transactions/draft': <TransactionsPage view="draft" />,
    '/business/payment/request': <p>Request form</p>,
  });

/** The query of the newest list request, without its paging. */
const lastListQuery = () => Object.fromEntries(fake.callsTo('GET', LIST).at(-1)!.url.searchParams);
const user = () => userEvent.setup();

describe('transactions filters put the query in the URL, and the list and the export ask for it', () => {
  it('status, date range, payer and amount range each narrow the list query', async () => {
    fake.on('GET', LIST, listOf([request()]));
    fake.on('GET', '/api/directory/payers/beginsWith', (call) =>
      ok(
        call.url.searchParams.get('includeDisabled') === 'true'
          ? [
              {
                payerId: 'pyr_dana',
                displayName: 'Dana Active',
                email: 'dana@payers.example',
                mobileNumber: null,
                reference: null,
                verification: 'verified',
                status: 'active',
              },
              {
                payerId: 'pyr_dario',
                displayName: 'Dario Gone',
                email: 'dario@payers.example',
                mobileNumber: null,
                reference: null,
                verification: 'verified',
                status: 'Disabled',
              },
            ]
          : [],
      ),
    );
    const u = user();
    page();
    await screen.findByText('Pat Payer');
    expect(lastListQuery()).toEqual({ view: 'history', page: '1', pageSize: '25', sortBy: 'createdAt', sortDirection: 'desc' });

    await u.click(screen.getByRole('combobox', { name: 'Status' }));
    await u.click(await screen.findByRole('option', { name: 'Paid' }));
    await waitFor(() => expect(lastListQuery().status).toBe('Paid'));

    await u.type(screen.getByLabelText('From'), '2026-03-01');
    await u.type(screen.getByLabelText('To'), '2026-03-31');
    await waitFor(() => expect(lastListQuery()).toMatchObject({ from: '2026-03-01', to: '2026-03-31' }));

    await u.type(screen.getByRole('textbox', { name: 'Smallest amount' }), '25');
    await u.tab();
    await u.type(screen.getByRole('textbox', { name: 'Largest amount' }), '1,000.50{Enter}');
    await waitFor(() => expect(lastListQuery()).toMatchObject({ minAmountCents: '2500', maxAmountCents: '100050' }));

    // The payer filter finds deactivated payers too: their history stays reachable.
    await u.type(screen.getByRole('textbox', { name: 'Payer' }), 'Da');
    const gone = await screen.findByRole('option', { name: /Dario Gone/ });
    expect(within(gone).getByText('Disabled')).toBeInTheDocument();
    expect(fake.callsTo('GET', '/api/directory/payers/beginsWith').at(-1)!.url.searchParams.get('includeDisabled')).toBe('true');
    await u.click(gone);
    await waitFor(() => expect(lastListQuery().payerId).toBe('pyr_dario'));

    expect(lastListQuery()).toEqual({
      view: 'history',
      page: '1',
      pageSize: '25',
      sortBy: 'createdAt',
      sortDirection: 'desc',
      status: 'Paid',
      from: '2026-03-01',
      to: '2026-03-31',
      minAmountCents: '2500',
      maxAmountCents: '100050',
      payerId: 'pyr_dario',
    });
    expect(shownLocation()).toContain('payerName=Dario+Gone');
  });

  it('Export CSV asks for exactly the list’s query (filters, search and sort), without the paging', async () => {
    fake.on('GET', LIST, listOf([request()], 60));
    fake.on('GET', EXPORT, {
      text: 'Reference\r\n',
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="transactions-2026-05-01.csv"' },
    });
    const u = user();
    page(
      `${HISTORY}?status=Sent,Resent&min=10&max=500&from=2026-01-01&to=2026-12-31&payerId=pyr_pat&payerName=Pat+Payer&search=pat&sortBy=amount&sortDirection=asc&page=2&after=req_1`,
    );
    await screen.findByText('Pat Payer');
    await u.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', EXPORT)).toHaveLength(1));
    const exported = Object.fromEntries(fake.callsTo('GET', EXPORT)[0]!.url.searchParams);
    const { page: _page, pageSize: _pageSize, after: _after, ...listed } = lastListQuery();
    expect(exported).toEqual(listed);
    expect(exported).toEqual({
      view: 'history',
      sortBy: 'amount',
      sortDirection: 'asc',
      search: 'pat',
      status: 'Sent,Resent',
      payerId: 'pyr_pat',
      from: '2026-01-01',
      to: '2026-12-31',
      minAmountCents: '1000',
      maxAmountCents: '50000',
    });
    expect(fake.callsTo('GET', EXPORT)[0]!.headers.Authorization).toBe('Bearer test-token');
  });

  it('a billing report’s days show as chips, narrow the list and the export, and each chip removes its own days', async () => {
    fake.on('GET', LIST, listOf([request()]));
    fake.on('GET', EXPORT, { text: 'Reference\r\n', headers: { 'content-type': 'text/csv' } });
    const u = user();
    page(`${HISTORY}?sentFrom=2026-11-03&sentTo=2026-11-03&paidFrom=2026-11-05&returnedTo=2026-11-30&status=Paid`);
    await screen.findByText('Pat Payer');
    expect(screen.getByText('Sent 2026-11-03 – 2026-11-03')).toBeInTheDocument();
    expect(screen.getByText('Paid from 2026-11-05')).toBeInTheDocument();
    expect(screen.getByText('Returned through 2026-11-30')).toBeInTheDocument();
    const days = { sentFrom: '2026-11-03', sentTo: '2026-11-03', paidFrom: '2026-11-05', returnedTo: '2026-11-30' };
    expect(lastListQuery()).toMatchObject({ ...days, status: 'Paid' });
    await u.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(fake.callsTo('GET', EXPORT)).toHaveLength(1));
    expect(Object.fromEntries(fake.callsTo('GET', EXPORT)[0]!.url.searchParams)).toMatchObject(days);

    await u.click(screen.getByRole('button', { name: 'Show requests sent on any day' }));
    await waitFor(() => expect(lastListQuery()).not.toHaveProperty('sentFrom'));
    expect(lastListQuery()).not.toHaveProperty('sentTo');
    expect(lastListQuery()).toMatchObject({ paidFrom: '2026-11-05', returnedTo: '2026-11-30', status: 'Paid' });
    expect(screen.queryByText('Sent 2026-11-03 – 2026-11-03')).toBeNull();
    expect(shownLocation()).not.toContain('sent');

    // They are filters like any other: Clear filters removes them too.
    await u.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    await waitFor(() => expect(lastListQuery()).not.toHaveProperty('paidFrom'));
    expect(screen.queryByText('Paid from 2026-11-05')).toBeNull();
    expect(screen.queryByText('Returned through 2026-11-30')).toBeNull();
  });

  it('an amount that is not money says so and does not change the list', async () => {
    fake.on('GET', LIST, listOf([request()]));
    const u = user();
    page();
    await screen.findByText('Pat Payer');
    const calls = fake.callsTo('GET', LIST).length;
    await u.type(screen.getByRole('textbox', { name: 'Smallest amount' }), 'ten{Enter}');
    expect(await screen.findByText('Enter an amount like 25.00')).toBeInTheDocument();
    expect(fake.callsTo('GET', LIST)).toHaveLength(calls);
    expect(shownLocation()).not.toContain('min=');
  });
});

describe('the empty list', () => {
  it('with a payer or amount filter on: "No requests match these filters", and Clear filters empties every filter input', async () => {
    fake.on('GET', LIST, (call) => (call.url.searchParams.has('payerId') || call.url.searchParams.has('minAmountCents') ? listOf([]) : listOf([request()])));
    const u = user();
    page(`${HISTORY}?payerId=pyr_dario&payerName=Dario+Gone&min=5&max=9&sortBy=amount`);
    expect(await screen.findByText('No requests match these filters')).toBeInTheDocument();
    expect(screen.queryByText('No requests yet')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Smallest amount' })).toHaveValue('5');
    expect(screen.getByRole('textbox', { name: 'Payer' })).toHaveValue('Dario Gone');

    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await u.click(clear.at(-1)!);
    await screen.findByText('Pat Payer');
    expect(shownLocation()).toBe(`${HISTORY}?sortBy=amount`);
    // The inputs follow the URL: nothing stale is left in them.
    expect(screen.getByRole('textbox', { name: 'Smallest amount' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Largest amount' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Payer' })).toHaveValue('');
    expect(lastListQuery()).toEqual({ view: 'history', page: '1', pageSize: '25', sortBy: 'amount', sortDirection: 'desc' });
  });

  it('with no filter: "No requests yet" and a way to send the first one', async () => {
    fake.on('GET', LIST, listOf([]));
    page();
    expect(await screen.findByText('No requests yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request a payment' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });
});

describe('a page past the last one', () => {
  it('deleting the only draft on page 2 moves to page 1, without the keyset anchor, instead of "No drafts"', async () => {
    const first = Array.from({ length: 25 }, () => request({ transactionState: 'Draft', payerName: 'Dee Draft' }));
    const only = request({ transactionState: 'Draft', payerName: 'Lone Draft' });
    let deleted = false;
    fake.on('GET', LIST, (call) => {
      const total = deleted ? 25 : 26;
      // Page 2, reached with next: the rows after the last of page 1; none once the only one is gone.
      if (call.url.searchParams.get('page') === '2') return ok({ items: deleted ? [] : [only], page: 2, pageSize: 25, total });
      return ok({ items: first, page: 1, pageSize: 25, total });
    });
    fake.on('DELETE', `${LIST}/${only.transactionId}`, () => {
      deleted = true;
      return ok(null);
    });
    const u = user();
    page(`/business/payment/transactions/draft?page=2&after=${first.at(-1)!.transactionId}`);
    const row = (await screen.findByText('Lone Draft')).closest('tr')!;
    expect(screen.getByText('Showing 26 to 26 of 26 Results')).toBeInTheDocument();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await u.click(await screen.findByRole('button', { name: 'Yes, delete' }));

    expect(await screen.findAllByText('Dee Draft')).toHaveLength(25);
    expect(screen.getByText('Showing 1 to 25 of 25 Results')).toBeInTheDocument();
    expect(shownLocation()).toBe('/business/payment/transactions/draft?page=1');
    expect(lastListQuery()).toMatchObject({ page: '1' });
    expect(lastListQuery()).not.toHaveProperty('after');
    expect(screen.queryByText('No drafts')).toBeNull();
  });
});

describe('row actions', () => {
  async function chooseAction(rowText: string, action: string) {
    const u = user();
    const row = (await screen.findByText(rowText)).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: action }));
  }

  it('Edit on a Draft opens the request itself', async () => {
    const draft = request({ transactionState: 'Draft', payerName: 'Dee Draft' });
    fake.on('GET', LIST, listOf([draft]));
    page('/business/payment/transactions/draft');
    await chooseAction('Dee Draft', 'Edit');
    expect(shownLocation()).toBe(`/business/payment/request?transid=${draft.transactionId}`);
  });

  it('a request that collects an invoice shows the invoice’s number, a link to it, and Edit opens the invoice', async () => {
    const scheduled = request({ transactionState: 'Pending', payerName: 'Ivy Invoiced', invoiceId: 'inv_9', invoiceNumber: 'INV-0009' });
    const plain = request({ transactionState: 'Sent', payerName: 'Paul Plain' });
    fake.on('GET', LIST, listOf([scheduled, plain]));
    page();
    const row = (await screen.findByText('Ivy Invoiced')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Invoice INV-0009' })).toHaveAttribute('href', '/business/payment/invoices/details?invoiceid=inv_9');
    expect(within((await screen.findByText('Paul Plain')).closest('tr')!).queryByRole('link', { name: /^Invoice/ })).toBeNull();
    const u = user();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((m) => m.textContent);
    expect(items).toContain('Edit the invoice');
    expect(items).not.toContain('Edit');
    await u.click(screen.getByRole('menuitem', { name: 'Edit the invoice' }));
    expect(shownLocation()).toBe('/business/payment/invoices/draft?invoiceid=inv_9');
  });

  it('a payment through a QR code shows the code it came through, and offers its receipt only', async () => {
    const walkIn = qrPayment({ payerName: 'Walk-in payer' });
    fake.on('GET', LIST, listOf([walkIn]));
    page();
    const row = (await screen.findByText('Walk-in payer')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Paid through QR code Front counter' })).toHaveAttribute(
      'href',
      '/business/payment/qrcode/transactions?qrcodeid=qr_counter',
    );
    // A walk-in payer who gave no e-mail: the name, and nothing under it.
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('Walk-in payer');
    const u = user();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    // Its money was received: an owner may refund it.
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['View/Download receipt', 'Refund']);
  });

  it('Copy on a Draft goes to the form with copy=1', async () => {
    const draft = request({ transactionState: 'Draft', payerName: 'Dee Draft' });
    fake.on('GET', LIST, listOf([draft]));
    page('/business/payment/transactions/draft');
    await chooseAction('Dee Draft', 'Copy');
    expect(shownLocation()).toBe(`/business/payment/request?transid=${draft.transactionId}&copy=1`);
  });

  it('View/Download receipt opens the receipt of a Paid request, and Download PDF fetches it', async () => {
    const paid = request({ transactionState: 'Paid', payerName: 'Paula Paid', amountPaidCents: 12_500 });
    fake.on('GET', LIST, listOf([paid]));
    fake.on(
      'GET',
      `${LIST}/${paid.transactionId}/receipt`,
      ok({
        transactionId: paid.transactionId,
        referenceNumber: paid.referenceNumber,
        businessName: 'Harbor Music',
        timeZone: 'America/Los_Angeles',
        payerName: 'Paula Paid',
        payerEmail: 'paula@payers.example',
        memo: 'Spring term',
        reference: '',
        transactionState: 'Paid',
        requestAmountCents: 12_500,
        amountPaidCents: 12_500,
        remainingCents: 0,
        payments: [
          {
            paymentId: 'pay_1',
            businessName: 'Harbor Music',
            referenceNumber: paid.referenceNumber,
            method: 'card',
            methodLabel: 'Visa •••• 4242',
            amountCents: 12_500,
            paymentState: 'Processed',
            paidAt: '2026-03-08T10:30:00.000Z',
            requestAmountCents: 12_500,
            remainingCents: 0,
          },
        ],
      }),
    );
    fake.on('GET', `${LIST}/${paid.transactionId}/receipt.pdf`, {
      text: '%PDF-1.7',
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="receipt.pdf"' },
    });
    const u = user();
    page();
    await chooseAction('Paula Paid', 'View/Download receipt');
    const dialog = await screen.findByRole('dialog', { name: `Receipt ${paid.referenceNumber}` });
    // On the business's clock: 10:30 UTC is 3:30 in Los Angeles that morning.
    expect(await within(dialog).findByText('Mar 08, 2026 3:30 PDT')).toBeInTheDocument();
    expect(within(dialog).getByText('Visa •••• 4242')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(fake.callsTo('GET', `${LIST}/${paid.transactionId}/receipt.pdf`)).toHaveLength(1));
    expect(shownLocation()).toBe(`${HISTORY}?receipt=${paid.transactionId}`);
  });

  it('Resend after a gateway timeout retries with the same Idempotency-Key; after it succeeds the next Resend is new', async () => {
    const sent = request({ transactionState: 'Sent', payerName: 'Sam Sent' });
    fake.on('GET', LIST, listOf([sent]));
    // A 504 from a proxy: the resend may have gone out; only the same key makes the retry safe.
    let answers = [{ status: 504, text: '' }, ok({ ...sent, transactionState: 'Resent' }), ok({ ...sent, transactionState: 'Resent' })];
    fake.on('POST', `${LIST}/${sent.transactionId}/resend`, () => {
      const [next, ...rest] = answers;
      answers = rest;
      return next!;
    });
    const u = user();
    page();
    for (let i = 0; i < 3; i++) {
      await chooseAction('Sam Sent', 'Resend');
      await u.click(await screen.findByRole('button', { name: 'Yes, resend' }));
      await waitFor(() => expect(fake.callsTo('POST', `${LIST}/${sent.transactionId}/resend`)).toHaveLength(i + 1));
    }
    const keys = fake.callsTo('POST', `${LIST}/${sent.transactionId}/resend`).map((c) => c.headers['Idempotency-Key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('two requests with unknown outcomes each keep their own key: the server refuses a key reused on another request', async () => {
    const a = request({ transactionState: 'Sent', payerName: 'Ava Sent' });
    const b = request({ transactionState: 'Sent', payerName: 'Ben Sent' });
    fake.on('GET', LIST, listOf([a, b]));
    for (const r of [a, b]) {
      let answers = [{ status: 504, text: '' }, ok({ ...r, transactionState: 'Resent' })];
      fake.on('POST', `${LIST}/${r.transactionId}/resend`, () => {
        const [next, ...rest] = answers;
        answers = rest;
        return next!;
      });
    }
    const u = user();
    page();
    for (const [name, r, n] of [
      ['Ava Sent', a, 1],
      ['Ben Sent', b, 1],
      ['Ava Sent', a, 2],
      ['Ben Sent', b, 2],
    ] as const) {
      await chooseAction(name, 'Resend');
      await u.click(await screen.findByRole('button', { name: 'Yes, resend' }));
      await waitFor(() => expect(fake.callsTo('POST', `${LIST}/${r.transactionId}/resend`)).toHaveLength(n));
    }
    const [a1, a2] = fake.callsTo('POST', `${LIST}/${a.transactionId}/resend`).map((c) => c.headers['Idempotency-Key']);
    const [b1, b2] = fake.callsTo('POST', `${LIST}/${b.transactionId}/resend`).map((c) => c.headers['Idempotency-Key']);
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(b1).not.toBe(a1);
  });
});

describe('the detail drawer', () => {
  it('opens from the keyboard: the reference is a link to the request’s details', async () => {
    const sent = request({ transactionState: 'Sent', payerName: 'Sam Sent' });
    fake.on('GET', LIST, listOf([sent]));
    fake.on('GET', `${LIST}/${sent.transactionId}`, ok(detail(sent)));
    const u = user();
    page(`${HISTORY}?status=Sent`);
    const link = await screen.findByRole('link', { name: `View ${sent.referenceNumber}` });
    link.focus();
    await u.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: `Request ${sent.referenceNumber}` })).toBeInTheDocument();
    expect(shownLocation()).toBe(`${HISTORY}?status=Sent&transid=${sent.transactionId}`);
  });

  it('for a failed payment says what happened and offers only Copy, as the row does', async () => {
    const failed = request({ transactionState: 'Error', payerName: 'Erin Error' });
    fake.on('GET', LIST, listOf([failed]));
    fake.on('GET', `${LIST}/${failed.transactionId}`, ok(detail(failed)));
    const u = user();
    page(`${HISTORY}?transid=${failed.transactionId}`);
    const guidance = await screen.findByRole('region', { name: 'What you can do' });
    expect(within(guidance).getByText('The last payment failed')).toBeInTheDocument();
    expect(guidance.textContent).not.toMatch(/resend/i);
    expect(
      within(guidance)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Copy']);
    await u.click(within(guidance).getByRole('button', { name: 'Copy' }));
    expect(shownLocation()).toBe(`/business/payment/request?transid=${failed.transactionId}&copy=1`);
  });
});
