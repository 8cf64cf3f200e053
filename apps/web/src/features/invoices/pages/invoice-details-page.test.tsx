import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOICE_TIMELINE_LABELS, type InvoiceTimelineEvent } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { detail as requestDetail, invoice, invoiceDetail, request } from '../../../test/fixtures';
import { wrapsAnywhere } from '../../../test/text-wrap';
import { InvoiceDetailsPage } from './invoice-details-page';

const API = `/api/businesses/${BUSINESS_ID}/invoices`;
const DETAILS = '/business/payment/invoices/details';

const fake = fakeApiPerTest();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:pdf');
  URL.revokeObjectURL = vi.fn();
});

const open = (invoiceId: string, extra = '') =>
  renderAt(`${DETAILS}?invoiceid=${invoiceId}${extra}`, {
    [DETAILS]: <InvoiceDetailsPage />,
    '/business/payment/invoices/list': <p>Invoices list</p>,
    '/business/payment/invoices/draft': <p>Invoice form</p>,
  });
const actionNames = () =>
  within(screen.getByRole('group', { name: 'Invoice actions' }))
    .getAllByRole('button')
    .map((b) => b.textContent);

/** A sent invoice with three lines, a discount, tax, a part paid and its pay link. */
function sentInvoice() {
  const sent = invoice({
    invoiceState: 'Sent',
    overdue: true,
    items: [
      { description: 'Piano lessons', quantity: 3, unitPriceCents: 1_000, taxRate: 8.875, amountCents: 3_000, discountCents: 0, taxCents: 266 },
      { description: 'Sheet music', quantity: 1.5, unitPriceCents: 2_000, taxRate: 0, amountCents: 3_000, discountCents: 0, taxCents: 0 },
    ],
    subtotalCents: 6_000,
    discountCents: 0,
    taxCents: 266,
    totalCents: 6_266,
    amountPaidCents: 1_000,
    balanceCents: 5_266,
    memo: 'May lessons',
    footer: 'Thank you!',
  });
  return invoiceDetail(sent, {
    payLink: 'http://localhost/pay/tok_abc',
    timeline: (['create', 'send', 'viewed', 'paymentProcessed'] as InvoiceTimelineEvent[]).map((event, i) => ({
      at: `2026-05-0${i + 1}T10:00:00.000Z`,
      actor: i === 0 ? 'owner@biz.example' : 'System',
      event,
      detail: null,
    })),
    payments: [
      {
        paymentId: 'pay_1',
        method: 'card',
        instrument: 'Visa •••• 4242',
        amountCents: 1_000,
        feeCents: 59,
        refundedCents: 0,
        state: 'Processed',
        failureReason: null,
        createdAt: '2026-05-04T10:00:00.000Z',
        settledAt: null,
      },
    ],
    emails: [
      {
        messageId: 'msg_1',
        channel: 'email',
        to: 'pat@payers.example',
        subject: 'Invoice INV-0001 from Harbor Music',
        delivery: 'delivered',
        attempts: 1,
        lastError: null,
        createdAt: '2026-05-02T10:00:00.000Z',
        sentAt: '2026-05-02T10:00:01.000Z',
      },
    ],
  });
}

describe('an invoice’s details', () => {
  it('a Sent invoice with a payment offers Resend, Withdraw, Copy, Refund and Download PDF, and no Edit', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    open(detail.invoiceId, '&entity=true');
    expect(await screen.findByRole('heading', { level: 1, name: `Invoice ${detail.number}` })).toBeInTheDocument();
    // The $10.00 received can be refunded.
    expect(actionNames()).toEqual(['Resend', 'Withdraw', 'Copy', 'Refund', 'Download PDF']);
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByText('Sent', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.getByText('Overdue')).toBeInTheDocument();
  });

  it('shows the invoice as the payer sees it: who bills whom, the lines, the figures, the memo and footer', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    open(detail.invoiceId);
    const doc = await screen.findByRole('article', { name: `Invoice ${detail.number} as the payer sees it` });
    expect(within(doc).getByText('Harbor Music')).toBeInTheDocument();
    expect(within(doc).getByText('Pat Payer')).toBeInTheDocument();
    const items = within(doc).getByRole('table', { name: 'Items' });
    expect(
      within(items)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['Piano lessons', '3', '$10.00', '8.875%', '$30.00'],
      ['Sheet music', '1.5', '$20.00', '—', '$30.00'],
    ]);
    const totals = within(doc).getByRole('region', { name: 'Totals' });
    const figure = (label: string) => within(totals).getByRole('rowheader', { name: label }).nextElementSibling?.textContent;
    expect(['Subtotal', 'Discount', 'Tax', 'Total', 'Amount paid', 'Balance due'].map(figure)).toEqual([
      '$60.00',
      '$0.00',
      '$2.66',
      '$62.66',
      '$10.00',
      '$52.66',
    ]);
    expect(within(doc).getByText('May lessons')).toBeInTheDocument();
    expect(within(doc).getByText('Thank you!')).toBeInTheDocument();
  });

  it('lists its payments, messages with their delivery, its timeline in words, its pay link and its payment request', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    open(detail.invoiceId);
    const payments = await screen.findByRole('table', { name: 'Payments' });
    expect(within(payments).getByText('Visa •••• 4242')).toBeInTheDocument();
    const messages = await screen.findByRole('table', { name: 'Messages' });
    expect(within(messages).getByText('Invoice INV-0001 from Harbor Music')).toBeInTheDocument();
    expect(within(messages).getByText('Delivered')).toBeInTheDocument();
    const titles = [...document.querySelectorAll('.mantine-Timeline-itemTitle')].map((t) => t.textContent);
    expect(titles).toEqual([
      INVOICE_TIMELINE_LABELS.create,
      INVOICE_TIMELINE_LABELS.send,
      INVOICE_TIMELINE_LABELS.viewed,
      INVOICE_TIMELINE_LABELS.paymentProcessed,
    ]);
    expect(screen.getByText('http://localhost/pay/tok_abc')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View its payment request in the transaction history' })).toHaveAttribute(
      'href',
      `/business/payment/transactions/history?transid=${detail.transactionId}`,
    );
  });

  it('Resend asks first, then resends with an Idempotency-Key and says so', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    fake.on('POST', `${API}/${detail.invoiceId}/resend`, ok({ ...detail, invoiceState: 'Resent' }));
    const u = userEvent.setup();
    open(detail.invoiceId);
    await u.click(await screen.findByRole('button', { name: 'Resend' }));
    const dialog = await screen.findByRole('dialog', { name: `Resend ${detail.number}?` });
    expect(within(dialog).getByText('Pat Payer gets the invoice again with a new link; earlier links stop working.')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Yes, resend' }));
    await waitFor(() => expect(fake.callsTo('POST', `${API}/${detail.invoiceId}/resend`)).toHaveLength(1));
    expect(fake.callsTo('POST', `${API}/${detail.invoiceId}/resend`)[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Invoice resent')).toBeInTheDocument();
  });

  it('Withdraw asks first; keeping it sends nothing', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    const u = userEvent.setup();
    open(detail.invoiceId);
    await u.click(await screen.findByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: `Withdraw ${detail.number}?` });
    await u.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(fake.callsTo('POST', `${API}/${detail.invoiceId}/withdraw`)).toHaveLength(0);
  });

  it('a Draft offers Edit and Delete; once deleted, back to the list', async () => {
    const draft = invoiceDetail(invoice({ invoiceState: 'Draft' }));
    fake.on('GET', `${API}/${draft.invoiceId}`, ok(draft));
    fake.on('DELETE', `${API}/${draft.invoiceId}`, { status: 204 });
    const u = userEvent.setup();
    open(draft.invoiceId);
    await screen.findByRole('heading', { level: 1, name: `Invoice ${draft.number}` });
    expect(actionNames()).toEqual(['Edit', 'Copy', 'Delete', 'Download PDF']);
    await u.click(screen.getByRole('button', { name: 'Delete' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/invoices/list'));
  });

  it('Download PDF fetches the invoice’s PDF with the session’s token', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    fake.on('GET', `${API}/${detail.invoiceId}/pdf`, { text: '%PDF-1.7', headers: { 'content-type': 'application/pdf' } });
    const u = userEvent.setup();
    open(detail.invoiceId);
    await u.click(await screen.findByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/${detail.invoiceId}/pdf`)).toHaveLength(1));
    expect(fake.callsTo('GET', `${API}/${detail.invoiceId}/pdf`)[0]!.headers.Authorization).toBe('Bearer test-token');
  });

  it('Refund opens the refund dialog for its payment request; once refunded, the figures say so and nothing more is offered', async () => {
    const inv = sentInvoice();
    const requestId = inv.transactionId!;
    const REQUEST = `/api/businesses/${BUSINESS_ID}/payment-requests/${requestId}`;
    const req = request({ transactionId: requestId, transactionState: 'PartiallyPaid', amountCents: 6_266, amountPaidCents: 1_000 });
    fake.on('GET', `${API}/${inv.invoiceId}`, ok(inv));
    fake.on('GET', REQUEST, ok(requestDetail(req, { payments: inv.payments })));
    fake.on('POST', `${REQUEST}/refunds`, {
      status: 201,
      ...ok({
        refundId: 'rfd_1',
        requestId,
        referenceNumber: req.referenceNumber,
        payerName: req.payerName,
        paymentId: 'pay_1',
        instrument: 'Visa •••• 4242',
        amountCents: 1_000,
        feeReturnedCents: 0,
        reason: 'duplicate',
        note: null,
        state: 'Succeeded',
        failureReason: null,
        createdBy: 'owner@biz.example',
        createdAt: '2026-05-05T10:00:00.000Z',
        processedAt: '2026-05-05T10:00:00.000Z',
      }),
    });
    const u = userEvent.setup();
    open(inv.invoiceId);
    await u.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: /^Refund TRX-/ });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /Amount to refund/ })).toHaveValue('10.00'));
    await u.click(
      within(dialog)
        .getAllByLabelText(/^Reason/)
        .find((el) => el.tagName === 'INPUT')!,
    );
    await u.click(await screen.findByRole('option', { name: 'Duplicate' }));
    // The invoice read again after the refund: refunded in full.
    fake.on('GET', `${API}/${inv.invoiceId}`, ok({ ...inv, refundedCents: 1_000, payments: inv.payments.map((p) => ({ ...p, refundedCents: 1_000 })) }));
    await u.click(within(dialog).getByRole('button', { name: /^Refund \$10\.00/ }));
    await waitFor(() => expect(fake.callsTo('POST', `${REQUEST}/refunds`)).toHaveLength(1));
    expect(fake.callsTo('POST', `${REQUEST}/refunds`)[0]!.body).toMatchObject({ paymentId: 'pay_1', amountCents: 1_000, reason: 'duplicate' });
    const totals = screen.getByRole('region', { name: 'Totals' });
    await waitFor(() => expect(within(totals).getByText('Refunded')).toBeInTheDocument());
    expect(within(totals).getByText('Refunded').closest('tr')!.querySelector('[data-figure]')!.textContent).toBe('$10.00');
    expect(actionNames()).not.toContain('Refund');
  });

  it('a viewer gets only Download PDF', async () => {
    const detail = sentInvoice();
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    renderAt(`${DETAILS}?invoiceid=${detail.invoiceId}`, { [DETAILS]: <InvoiceDetailsPage /> }, { business: { role: 'viewer' } });
    await screen.findByRole('heading', { level: 1, name: `Invoice ${detail.number}` });
    expect(actionNames()).toEqual(['Download PDF']);
  });
});

describe('an invoice’s details on a phone (390 px)', () => {
  it('breaks the long text a person typed: the payer’s name and e-mail, the memo with its link, the footer, a timeline entry', async () => {
    const surname = 'Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflege';
    const email = `${'pat.'.repeat(20)}payer@harbor-music-and-arts-academy.example`;
    const url = `https://harbor.example/terms/${'x'.repeat(200)}`;
    const base = sentInvoice();
    const detail = {
      ...base,
      payerName: `Pat ${surname}`,
      payerEmail: email,
      memo: `May lessons\n${url}`,
      footer: `Questions: ${email}`,
      timeline: [{ at: '2026-05-01T10:00:00.000Z', actor: email, event: 'create' as const, detail: `Noted: ${url}` }],
    };
    fake.on('GET', `${API}/${detail.invoiceId}`, ok(detail));
    open(detail.invoiceId);
    const doc = await screen.findByRole('article', { name: `Invoice ${detail.number} as the payer sees it` });
    expect(wrapsAnywhere(within(doc).getByText(`Pat ${surname}`))).toBe(true);
    expect(wrapsAnywhere(within(doc).getByText(email))).toBe(true);
    const memo = within(doc).getByText(url, { exact: false });
    expect(memo).toHaveStyle({ overflowWrap: 'anywhere', whiteSpace: 'pre-line' });
    expect(within(doc).getByText(`Questions: ${email}`)).toHaveStyle({ overflowWrap: 'anywhere' });
    // The line under the heading names the payer too.
    expect(wrapsAnywhere(screen.getByText(new RegExp(`^Pat ${surname} · \\$62\\.66`)))).toBe(true);
    expect(wrapsAnywhere(screen.getByText(`Noted: ${url}`))).toBe(true);
    expect(wrapsAnywhere(screen.getByText(new RegExp(`· ${email.replace(/\./g, '\\.')}$`)))).toBe(true);
  });
});
