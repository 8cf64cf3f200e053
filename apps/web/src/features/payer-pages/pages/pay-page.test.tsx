import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { forwardRef, useImperativeHandle } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PublicPayPage } from '@tay/contract';
import { resetFirstScreen } from '../../../lib/first-screen';
import { fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { OFFICE_VISIT, patientStatement } from '../../../test/fixtures';
import { wrapsAnywhere } from '../../../test/text-wrap';
import type { CardFieldHandle } from '../components/card-field';
import { PayPage } from './pay-page';

// The processor's card field is an iframe of its own (e2e/card-field.test.ts); here it hands out a token.
vi.mock('../components/card-field', () => ({
  CardField: forwardRef<CardFieldHandle>(function FakeCardField(_props, ref) {
    useImperativeHandle(ref, () => ({ tokenize: () => Promise.resolve({ token: 'tok_visa0000000001', label: 'Visa •••• 4242' }) }));
    return <div>Card details</div>;
  }),
}));

function page(over: Partial<PublicPayPage>): PublicPayPage {
  return {
    businessName: 'Harbor Music',
    businessLogoUrl: null,
    referenceNumber: 'TRX-10001',
    payerName: 'Pat Payer',
    amountCents: 12_500,
    amountPaidCents: 0,
    remainingCents: 12_500,
    memo: 'Spring term',
    forStudent: null,
    forPatient: null,
    statement: null,
    dueDate: '2099-06-01',
    expiresOn: '2099-07-01',
    allowPartial: false,
    transactionState: 'Sent',
    invoice: null,
    status: 'payable',
    statusMessage: null,
    declinable: true,
    payments: [],
    refundedCents: 0,
    ...over,
  };
}

const fake = fakeApiPerTest();

function open(data: PublicPayPage) {
  fake.on('GET', '/api/public/pay/tok_1', ok(data));
  renderAt('/pay/tok_1', { '/pay/:token': <PayPage /> });
}

const card = {
  paymentId: 'pay_1',
  instrument: 'Visa •••• 4242',
  amountCents: 12_500,
  state: 'Processed' as const,
  failureReason: null,
  createdAt: '2026-05-01T10:00:00.000Z',
  refundedCents: 0,
};

describe('the pay page headline, once the payer has paid', () => {
  it('reads what was paid while the card payment settles, not $0.00', async () => {
    open(
      page({
        transactionState: 'Accepted',
        status: 'processing',
        statusMessage: 'A payment for this request is being processed.',
        amountPaidCents: 12_500,
        remainingCents: 0,
        payments: [card],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 paid' })).toBeInTheDocument();
    expect(screen.queryByText('$0.00')).toBeNull();
  });

  it('reads what was paid once it is paid in full', async () => {
    open(
      page({
        transactionState: 'Paid',
        status: 'paid',
        statusMessage: 'This request is paid in full. Thank you!',
        amountPaidCents: 12_500,
        remainingCents: 0,
        payments: [card],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 paid' })).toBeInTheDocument();
    expect(screen.getByText('Paid in full')).toBeInTheDocument();
  });

  it('tells the payer what the business refunded, and says Refunded once all of it was', async () => {
    const paid = { transactionState: 'Paid' as const, status: 'paid' as const, amountPaidCents: 12_500, remainingCents: 0 };
    open(page({ ...paid, statusMessage: 'This request is paid in full. Thank you!', refundedCents: 2_000, payments: [{ ...card, refundedCents: 2_000 }] }));
    expect(await screen.findByText('Harbor Music refunded $20.00 of the $125.00 you paid.')).toBeInTheDocument();
    expect(screen.getByText('Paid in full')).toBeInTheDocument();
    expect(screen.getByText('$125.00 · Visa •••• 4242 · $20.00 refunded')).toBeInTheDocument();
  });

  it('says Refunded when everything paid was given back', async () => {
    open(
      page({
        transactionState: 'Paid',
        status: 'paid',
        statusMessage: 'Harbor Music refunded this request in full; there is nothing to pay.',
        amountPaidCents: 12_500,
        remainingCents: 0,
        refundedCents: 12_500,
        payments: [{ ...card, refundedCents: 12_500 }],
      }),
    );
    expect(await screen.findByText('Refunded in full: Harbor Music returned the $125.00 you paid.')).toBeInTheDocument();
    expect(screen.getByText('Refunded')).toBeInTheDocument();
    expect(screen.queryByText('Paid in full')).toBeNull();
  });

  it('reads the bank payment on its way while it clears', async () => {
    open(
      page({
        transactionState: 'Accepted',
        status: 'processing',
        statusMessage: 'A payment for this request is being processed.',
        payments: [{ ...card, instrument: 'Bank •••• 6789', state: 'Pending' }],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: '$125.00 being paid' })).toBeInTheDocument();
  });
});

describe('the pay page of an invoice', () => {
  const invoice: NonNullable<PublicPayPage['invoice']> = {
    number: 'INV-0001',
    issueDate: '2026-05-01',
    dueDate: '2026-05-31',
    items: [
      { description: 'Piano lessons, May', quantity: 3, unitPriceCents: 1_000, taxRate: 8.875, amountCents: 3_000, discountCents: 300, taxCents: 240 },
      { description: 'Sheet music', quantity: 1.5, unitPriceCents: 2_000, taxRate: 0, amountCents: 3_000, discountCents: 300, taxCents: 0 },
    ],
    subtotalCents: 6_000,
    discountCents: 600,
    taxCents: 240,
    totalCents: 5_640,
    memo: '',
    footer: 'Thank you for learning with us.',
  };

  it('shows the invoice’s lines and figures above the payment form', async () => {
    open(page({ amountCents: 5_640, remainingCents: 5_640, invoice }));
    const section = await screen.findByRole('region', { name: 'Invoice INV-0001' });
    expect(within(section).getByText('Issued May 01, 2026 · Due May 31, 2026')).toBeInTheDocument();
    const items = within(section).getByRole('table', { name: 'Items of invoice INV-0001' });
    expect(
      within(items)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Description', 'Qty', 'Unit price', 'Amount']);
    const rows = within(items).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Piano lessons, May', '3', '$10.00', '$30.00'],
      ['Sheet music', '1.5', '$20.00', '$30.00'],
    ]);
    const totals = within(section).getByRole('region', { name: 'Totals of invoice INV-0001' });
    const figure = (label: string) => within(totals).getByRole('rowheader', { name: label }).nextElementSibling?.textContent;
    expect([figure('Subtotal'), figure('Discount'), figure('Tax'), figure('Total')]).toEqual(['$60.00', '−$6.00', '$2.40', '$56.40']);
    expect(within(section).getByText('Thank you for learning with us.')).toBeInTheDocument();
    // The payer can keep a copy: the PDF by the same link.
    expect(within(section).getByRole('link', { name: 'Download the invoice (PDF)' })).toHaveAttribute('href', '/api/public/pay/tok_1/invoice.pdf');
    // The invoice comes before the form that pays it.
    const pay = screen.getByRole('button', { name: 'Pay $56.40' });
    expect(section.compareDocumentPosition(pay) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('on a phone (390 px), each line is its description over "quantity × price", beside its amount', async () => {
    const real = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ ...real(query), matches: query === '(max-width: 47.99em)' }));
    open(page({ amountCents: 5_640, remainingCents: 5_640, invoice }));
    const items = await screen.findByRole('table', { name: 'Items of invoice INV-0001' });
    expect(
      within(items)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Item', 'Amount']);
    const rows = within(items).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Piano lessons, May3 × $10.00', '$30.00'],
      ['Sheet music1.5 × $20.00', '$30.00'],
    ]);
    vi.restoreAllMocks();
  });

  it('a plain request shows no invoice', async () => {
    open(page({}));
    await screen.findByRole('button', { name: 'Pay $125.00' });
    expect(screen.queryByRole('region', { name: /^Invoice/ })).toBeNull();
  });
});

describe('the pay page of a student’s request', () => {
  it('says whom it is for: the student, the program and the period', async () => {
    open(page({ forStudent: 'For Mia Lopez — Piano, December 2026', memo: '' }));
    expect(await screen.findByText('For Mia Lopez — Piano, December 2026')).toBeInTheDocument();
  });

  it('a request of no student says nothing of one', async () => {
    open(page({}));
    expect(await screen.findByText('Spring term')).toBeInTheDocument();
    expect(screen.queryByText(/^For /)).toBeNull();
  });
});

describe('the pay page of a patient’s statement', () => {
  const statement = patientStatement([
    OFFICE_VISIT,
    {
      serviceDate: '2026-11-18',
      description: 'X-ray, two views',
      billedCents: 15_000,
      insurancePaidCents: 9_000,
      adjustmentCents: 0,
      responsibilityCents: 6_000,
    },
  ]);

  it('says whose statement it is by first name, lists the lines and totals, and offers the payment plan', async () => {
    open(
      page({
        forPatient: 'Statement for Ana — date of service Nov 20, 2026',
        statement,
        amountCents: 13_500,
        remainingCents: 13_500,
        allowPartial: true,
        memo: '',
      }),
    );
    expect(await screen.findByText('Statement for Ana — date of service Nov 20, 2026')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Lines of your statement' });
    expect(within(table).getByText('Office visit')).toBeInTheDocument();
    expect(within(table).getByText('X-ray, two views')).toBeInTheDocument();
    const total = within(table).getByText('Total').closest('tr')!;
    expect(within(total as HTMLElement).getByText('$350.00')).toBeInTheDocument();
    expect(within(total as HTMLElement).getByText('$210.00')).toBeInTheDocument();
    expect(within(total as HTMLElement).getByText('$5.00')).toBeInTheDocument();
    expect(within(total as HTMLElement).getByText('$135.00')).toBeInTheDocument();
    expect(screen.getByText(/Payment plan: you may pay part of it now/)).toBeInTheDocument();
  });
});

describe('long text on a phone', () => {
  const url = `https://harbor.example/terms/${'x'.repeat(200)}`;
  const email = `${'pat.'.repeat(20)}payer@harbor-music-and-arts-academy.example`;

  it('breaks a memo with a long link, and keeps its line breaks', async () => {
    open(page({ memo: `Spring term\n${url}` }));
    const memo = await screen.findByText(url, { exact: false });
    expect(memo).toHaveStyle({ overflowWrap: 'anywhere', whiteSpace: 'pre-line' });
  });

  it('breaks a long student or patient line, and the payer’s name in the header', async () => {
    const surname = 'Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflegeundsorgfaltigkeitbeschutzen';
    open(page({ payerName: `Pat ${surname}`, forStudent: `For Mia ${surname} — Piano, December 2026`, forPatient: `Statement for ${surname}` }));
    expect(wrapsAnywhere(await screen.findByText(`For Mia ${surname} — Piano, December 2026`))).toBe(true);
    expect(wrapsAnywhere(screen.getByText(`Statement for ${surname}`))).toBe(true);
    expect(wrapsAnywhere(screen.getByText(new RegExp(`requests a payment from Pat ${surname}`)))).toBe(true);
  });

  it('breaks an invoice’s memo and footer', async () => {
    const invoice: NonNullable<PublicPayPage['invoice']> = {
      number: 'INV-0002',
      issueDate: '2026-05-01',
      dueDate: '2026-05-31',
      items: [{ description: 'Lessons', quantity: 1, unitPriceCents: 5_000, taxRate: 0, amountCents: 5_000, discountCents: 0, taxCents: 0 }],
      subtotalCents: 5_000,
      discountCents: 0,
      taxCents: 0,
      totalCents: 5_000,
      memo: `See ${url}`,
      footer: `Questions: ${email}`,
    };
    open(page({ amountCents: 5_000, remainingCents: 5_000, memo: '', invoice }));
    const section = await screen.findByRole('region', { name: 'Invoice INV-0002' });
    expect(within(section).getByText(`See ${url}`)).toHaveStyle({ overflowWrap: 'anywhere' });
    expect(within(section).getByText(`Questions: ${email}`)).toHaveStyle({ overflowWrap: 'anywhere' });
  });
});

describe('a part payment’s amount', () => {
  const partial = () => open(page({ allowPartial: true }));

  async function payWith(text: string) {
    const u = userEvent.setup();
    partial();
    const amount = await screen.findByRole('textbox', { name: 'Amount to pay (USD)' });
    await u.clear(amount);
    if (text) await u.type(amount, text);
    await u.click(screen.getByRole('button', { name: /^Pay/ }));
    return amount;
  }

  it.each([
    ['1.005', 'Enter an amount in dollars and cents, such as 12.40.'],
    ['twelve', 'Enter an amount in dollars and cents, such as 12.40.'],
    ['', 'Enter the amount to pay.'],
    ['0', 'Enter an amount above $0.00.'],
    ['0.00', 'Enter an amount above $0.00.'],
    ['125.01', 'You can pay at most $125.00.'],
  ])('%j is refused with "%s", and nothing is sent', async (text, message) => {
    const amount = await payWith(text);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(fake.callsTo('POST', /\/api\/public\/pay\//)).toHaveLength(0);
  });
});

describe('a page that came with its first screen (ADR 047)', () => {
  it('draws from the answer the server embedded, without asking the API, and takes the screen’s place', async () => {
    document.body.insertAdjacentHTML(
      'afterbegin',
      `<div id="first-screen"><h1>$125.00</h1></div><script type="application/json" id="tay-first-screen">${JSON.stringify({ kind: 'pay', key: 'tok_1', value: page({ memo: 'From the server' }) })}</script>`,
    );
    resetFirstScreen();
    try {
      renderAt('/pay/tok_1', { '/pay/:token': <PayPage /> });
      expect(await screen.findByText('From the server')).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: '$125.00' })).toBeInTheDocument();
      expect(document.getElementById('first-screen')).toBeNull();
      expect(fake.callsTo('GET', '/api/public/pay/tok_1')).toHaveLength(0);
    } finally {
      document.getElementById('tay-first-screen')?.remove();
      resetFirstScreen();
    }
  });

  it('is not used for another link', async () => {
    document.body.insertAdjacentHTML(
      'afterbegin',
      `<script type="application/json" id="tay-first-screen">${JSON.stringify({ kind: 'pay', key: 'tok_other', value: page({ memo: 'Not this one' }) })}</script>`,
    );
    resetFirstScreen();
    try {
      open(page({ memo: 'Spring term' }));
      expect(await screen.findByText('Spring term')).toBeInTheDocument();
      expect(screen.queryByText('Not this one')).toBeNull();
      expect(fake.callsTo('GET', '/api/public/pay/tok_1')).toHaveLength(1);
    } finally {
      document.getElementById('tay-first-screen')?.remove();
      resetFirstScreen();
    }
  });
});
