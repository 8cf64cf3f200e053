import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Invoice } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation, answerBusiness } from '../../../test/page-harness';
import { approvedBusiness, invoice, invoiceDetail, payer, payerSuggestion } from '../../../test/fixtures';
import { InvoiceFormPage } from './invoice-form-page';

const API = `/api/businesses/${BUSINESS_ID}/invoices`;
const FORM = '/business/payment/invoices/draft';
const DETAILS = '/business/payment/invoices/details';

const fake = fakeApiPerTest();
beforeEach(() => {
  business('America/New_York');
  URL.createObjectURL = vi.fn(() => 'blob:pdf');
  URL.revokeObjectURL = vi.fn();
});

/** The business, with the time zone its day and scheduled sends are on. */
function business(timeZone: string, invoiceTerms: string | null = null) {
  answerBusiness(fake, approvedBusiness({ timeZone, invoiceTerms }));
}

const form = (path: string) => renderAt(path, { [FORM]: <InvoiceFormPage />, [DETAILS]: <p>Details</p> });

/** The source invoice answers its detail; saving answers with what was saved. */
function serve(source: Invoice) {
  fake.on('GET', `${API}/${source.invoiceId}`, ok(invoiceDetail(source)));
  fake.on('PATCH', `${API}/${source.invoiceId}`, ok(source));
}

/** A draft with the given lines, to edit. */
function draftWith(lines: { description: string; quantity: number; unitPriceCents: number; taxRate?: number }[]) {
  return invoice({
    invoiceState: 'Draft',
    items: lines.map((l) => ({ taxRate: 0, amountCents: 0, discountCents: 0, taxCents: 0, ...l })),
  });
}

/** A figure of the totals panel, by its label. */
function figure(label: string): string | null | undefined {
  const totals = screen.getByRole('region', { name: 'Totals' });
  return within(totals).getByRole('rowheader', { name: label }).nextElementSibling?.textContent;
}

const lineAmount = (n: number) => document.querySelector(`[data-line-amount="${n}"]`)?.textContent?.replace(`Amount, line ${n}: `, '');
const descriptions = () => screen.getAllByRole('textbox', { name: /^Description, line \d+$/ }).map((i) => (i as HTMLInputElement).value);

describe('a new invoice', () => {
  it("starts with the business's invoice terms as its footer, and none without them", async () => {
    business('America/New_York', 'Payment within 30 days. Late payments incur 1.5% monthly.');
    const { unmount } = form(FORM);
    expect(await screen.findByLabelText('Footer')).toHaveValue('Payment within 30 days. Late payments incur 1.5% monthly.');
    unmount();
    business('America/New_York', null);
    form(FORM);
    expect(await screen.findByLabelText('Footer')).toHaveValue('');
  });
});

describe('the totals, as the lines are typed', () => {
  it('3 × $10.00 at 8.875% is $30.00, tax $2.66, total $32.66; a discount comes off before tax', async () => {
    const u = userEvent.setup();
    form(FORM);
    const quantity = await screen.findByLabelText('Quantity, line 1');
    expect(figure('Total')).toBe('$0.00');
    await u.clear(quantity);
    await u.type(quantity, '3');
    await u.type(screen.getByLabelText('Unit price, line 1'), '10.00');
    expect(lineAmount(1)).toBe('$30.00');
    expect(figure('Subtotal')).toBe('$30.00');
    expect(figure('Tax')).toBe('$0.00');
    expect(figure('Total')).toBe('$30.00');
    await u.type(screen.getByLabelText('Tax rate, line 1'), '8.875');
    expect([figure('Subtotal'), figure('Discount'), figure('Tax'), figure('Total')]).toEqual(['$30.00', '$0.00', '$2.66', '$32.66']);

    // A second line, then 10% off the invoice: spread over the lines, tax on what is left.
    await u.click(screen.getByRole('button', { name: 'Add line' }));
    await u.type(screen.getByLabelText('Unit price, line 2'), '5');
    expect(lineAmount(2)).toBe('$5.00');
    expect(figure('Total')).toBe('$37.66');
    await u.selectOptions(screen.getByLabelText('Discount'), 'percent');
    await u.type(screen.getByLabelText('Discount percentage'), '10');
    // $35.00 − $3.50; line 1 keeps $27.00, taxed 8.875% = $2.40; line 2 is untaxed.
    expect([figure('Subtotal'), figure('Discount'), figure('Tax'), figure('Total')]).toEqual(['$35.00', '−$3.50', '$2.40', '$33.90']);
  });

  it('issues today on the business’s clock, and shows the due date the terms give', async () => {
    business('Pacific/Kiritimati');
    const u = userEvent.setup();
    form(FORM);
    const issued = await screen.findByLabelText('Issue date');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    expect(issued).toHaveValue(today);
    await u.clear(issued);
    await u.type(issued, '2026-01-15');
    expect(screen.getByLabelText('Due date')).toHaveValue('Feb 14, 2026');
    await u.selectOptions(screen.getByLabelText('Terms'), 'net7');
    expect(screen.getByLabelText('Due date')).toHaveValue('Jan 22, 2026');
    await u.selectOptions(screen.getByLabelText('Terms'), 'custom');
    expect(screen.getByLabelText('Due date')).toHaveAttribute('type', 'date');
  });
});

describe('adding, removing and reordering lines', () => {
  it('by keyboard as by mouse, the focus staying with the line moved', async () => {
    const u = userEvent.setup();
    form(FORM);
    await u.type(await screen.findByLabelText('Description, line 1'), 'Alto');
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
    await u.click(screen.getByRole('button', { name: 'Add line' }));
    // A new line takes the focus.
    expect(screen.getByLabelText('Description, line 2')).toHaveFocus();
    await u.keyboard('Bass');
    await u.click(screen.getByRole('button', { name: 'Add line' }));
    await u.keyboard('Cello');
    expect(descriptions()).toEqual(['Alto', 'Bass', 'Cello']);
    expect(screen.getByRole('button', { name: 'Move line 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move line 3 down' })).toBeDisabled();

    // Keyboard: Cello up one, then up again; the focus follows it.
    screen.getByRole('button', { name: 'Move line 3 up' }).focus();
    await u.keyboard('{Enter}');
    expect(descriptions()).toEqual(['Alto', 'Cello', 'Bass']);
    expect(screen.getByRole('button', { name: 'Move line 2 up' })).toHaveFocus();
    expect(screen.getByText('Line 3 moved up to line 2.')).toBeInTheDocument();
    await u.keyboard('{Enter}');
    expect(descriptions()).toEqual(['Cello', 'Alto', 'Bass']);
    // At the top its up button is off, so the focus is on its down button.
    expect(screen.getByRole('button', { name: 'Move line 1 down' })).toHaveFocus();

    await u.click(screen.getByRole('button', { name: 'Move line 2 down' }));
    expect(descriptions()).toEqual(['Cello', 'Bass', 'Alto']);

    await u.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(descriptions()).toEqual(['Bass', 'Alto']);
    expect(screen.getByLabelText('Description, line 1')).toHaveFocus();
    expect(screen.getByText('Line 1 removed. 2 lines left.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Remove line 2' }));
    expect(descriptions()).toEqual(['Bass']);
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
  });

  it('saves the lines in the order shown', async () => {
    const draft = draftWith([
      { description: 'First', quantity: 1, unitPriceCents: 1_000 },
      { description: 'Second', quantity: 2.5, unitPriceCents: 400, taxRate: 8.875 },
    ]);
    serve(draft);
    const u = userEvent.setup();
    form(`${FORM}?invoiceid=${draft.invoiceId}`);
    await u.click(await screen.findByRole('button', { name: 'Move line 2 up' }));
    await u.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${API}/${draft.invoiceId}`)).toHaveLength(1));
    expect((fake.callsTo('PATCH', `${API}/${draft.invoiceId}`)[0]!.body as { items: unknown }).items).toEqual([
      { description: 'Second', quantity: 2.5, unitPriceCents: 400, taxRate: 8.875 },
      { description: 'First', quantity: 1, unitPriceCents: 1_000, taxRate: 0 },
    ]);
    await waitFor(() => expect(shownLocation()).toBe(`${DETAILS}?invoiceid=${draft.invoiceId}`));
  });
});

describe('errors', () => {
  it('a 422 field error from the API lands on its line’s field, and follows the line when it moves', async () => {
    const draft = draftWith([
      { description: 'Lessons', quantity: 4, unitPriceCents: 5_000 },
      { description: 'Rental', quantity: 999_999, unitPriceCents: 5_000 },
    ]);
    serve(draft);
    const message = 'The line comes to more than $10,000,000.00.';
    fake.on(
      'PATCH',
      `${API}/${draft.invoiceId}`,
      apiError(422, 'VALIDATION_FAILED', 'Check the highlighted fields.', { 'items.1.quantity': message, dueDate: 'Choose the due date.' }),
    );
    const u = userEvent.setup();
    form(`${FORM}?invoiceid=${draft.invoiceId}`);
    await u.click(await screen.findByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText('Check the highlighted fields.')).toBeInTheDocument();
    const line2 = screen.getByLabelText('Quantity, line 2');
    expect(line2).toHaveAttribute('aria-invalid', 'true');
    expect(line2).toHaveAccessibleDescription(message);
    expect(screen.getByLabelText('Quantity, line 1')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Due date')).toHaveAccessibleDescription(expect.stringContaining('Choose the due date.'));

    await u.click(screen.getByRole('button', { name: 'Move line 2 up' }));
    expect(screen.getByLabelText('Quantity, line 1')).toHaveAccessibleDescription(message);
    expect(screen.getByLabelText('Quantity, line 2')).not.toHaveAttribute('aria-invalid', 'true');
    // Typing in the field clears its error.
    await u.type(screen.getByLabelText('Quantity, line 1'), '{Backspace}');
    expect(screen.queryByText(message)).toBeNull();
    expect(shownLocation()).toBe(`${FORM}?invoiceid=${draft.invoiceId}`);
  });

  it('what the form can tell itself is said at the fields, and nothing is sent', async () => {
    const u = userEvent.setup();
    form(FORM);
    const quantity = await screen.findByLabelText('Quantity, line 1');
    await u.clear(quantity);
    await u.type(quantity, '1.2345');
    await u.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Choose a payer.')).toBeInTheDocument();
    expect(screen.getByLabelText('Description, line 1')).toHaveAccessibleDescription('Describe the item.');
    expect(quantity).toHaveAccessibleDescription('Quantities have at most 3 decimals.');
    expect(screen.getByLabelText('Unit price, line 1')).toHaveAccessibleDescription('Enter a unit price.');
    expect(fake.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });
});

describe('Send, Schedule and Preview PDF save first', () => {
  const suggestion = payerSuggestion;

  /** A new invoice for Dana, one line of 2 × $45.00. */
  async function newInvoice(u: ReturnType<typeof userEvent.setup>) {
    const dana = payer('Dana Diaz', { mobileNumber: '+14155550123' });
    fake.on('GET', '/api/directory/payers/beginsWith', ok([suggestion(dana)]));
    const created = invoice({ invoiceState: 'Draft', payerId: dana.payerId, payerName: 'Dana Diaz', number: 'INV-0042' });
    fake.on('POST', API, { status: 201, json: { status: 'Success', data: created } });
    fake.on('PATCH', `${API}/${created.invoiceId}`, ok(created));
    form(FORM);
    await u.type(await screen.findByRole('textbox', { name: 'Payer' }), 'Da');
    await u.click(await screen.findByRole('option', { name: /Dana Diaz/ }));
    await u.type(screen.getByLabelText('Description, line 1'), 'Cello lessons');
    await u.clear(screen.getByLabelText('Quantity, line 1'));
    await u.type(screen.getByLabelText('Quantity, line 1'), '2');
    await u.type(screen.getByLabelText('Unit price, line 1'), '45');
    return { dana, created };
  }

  it('Send creates the draft, then sends it with an Idempotency-Key, then opens its details', async () => {
    const u = userEvent.setup();
    const { dana, created } = await newInvoice(u);
    await u.click(screen.getByRole('radio', { name: 'Text message (SMS)' }));
    fake.on('POST', `${API}/${created.invoiceId}/send`, ok({ ...created, invoiceState: 'Sent', channel: 'sms' }));
    await u.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(shownLocation()).toBe(`${DETAILS}?invoiceid=${created.invoiceId}`));
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      payerId: dana.payerId,
      channel: 'sms',
      issueDate: today,
      terms: 'net30',
      dueDate: null,
      items: [{ description: 'Cello lessons', quantity: 2, unitPriceCents: 4_500, taxRate: 0 }],
      discount: { type: 'none' },
      memo: '',
      footer: '',
      allowPartial: false,
    });
    const [sent] = fake.callsTo('POST', `${API}/${created.invoiceId}/send`);
    expect(sent!.body).toEqual({});
    expect(sent!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Invoice sent')).toBeInTheDocument();
  });

  it('a send whose answer was lost is retried with the same key, without saving again', async () => {
    const u = userEvent.setup();
    const { created } = await newInvoice(u);
    let answers = [{ status: 503, text: '' }, ok({ ...created, invoiceState: 'Sent' })];
    fake.on('POST', `${API}/${created.invoiceId}/send`, () => {
      const [next, ...rest] = answers;
      answers = rest;
      return next!;
    });
    await u.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(shownLocation()).toBe(`${DETAILS}?invoiceid=${created.invoiceId}`));
    expect(fake.callsTo('POST', API)).toHaveLength(1);
    expect(fake.callsTo('PATCH', `${API}/${created.invoiceId}`)).toHaveLength(0);
    const keys = fake.callsTo('POST', `${API}/${created.invoiceId}/send`).map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('Schedule sends with the time picked on the business’s clock', async () => {
    business('America/Chicago');
    const u = userEvent.setup();
    const { created } = await newInvoice(u);
    fake.on('POST', `${API}/${created.invoiceId}/send`, ok({ ...created, invoiceState: 'Scheduled', sendAt: '2099-07-04T14:00:00.000Z' }));
    await u.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Choose when to send it.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
    await u.type(screen.getByLabelText('Send later (optional)'), '2099-07-04T09:00');
    await u.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(fake.callsTo('POST', `${API}/${created.invoiceId}/send`)).toHaveLength(1));
    // 9:00 in Chicago in July (UTC-5) is 14:00 UTC.
    expect(fake.callsTo('POST', `${API}/${created.invoiceId}/send`)[0]!.body).toEqual({ sendAt: '2099-07-04T14:00:00.000Z' });
    expect(await screen.findByText('Invoice scheduled')).toBeInTheDocument();
  });

  it('Preview PDF saves the draft, then shows its PDF in a preview (with its download); a second preview saves only the change', async () => {
    const u = userEvent.setup();
    const { created } = await newInvoice(u);
    fake.on('GET', `${API}/${created.invoiceId}/pdf`, {
      text: '%PDF-1.7',
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="INV-0042.pdf"' },
    });
    await u.click(screen.getByRole('button', { name: 'Preview PDF' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/${created.invoiceId}/pdf`)).toHaveLength(1));
    expect(fake.callsTo('GET', `${API}/${created.invoiceId}/pdf`)[0]!.headers.Authorization).toBe('Bearer test-token');
    expect(fake.callsTo('POST', API)).toHaveLength(1);
    const dialog = await screen.findByRole('dialog', { name: 'Preview of INV-0042' });
    expect(within(dialog).getByTitle('Preview of INV-0042')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download PDF' })).toHaveAttribute('download', 'INV-0042.pdf');
    await u.click(within(dialog).getByRole('button', { name: 'Close' }));
    // The form stays; the next save edits the invoice just made.
    await u.type(screen.getByLabelText('Memo'), 'Thanks!');
    await u.click(screen.getByRole('button', { name: 'Preview PDF' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${API}/${created.invoiceId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${API}/${created.invoiceId}`)[0]!.body).toMatchObject({ memo: 'Thanks!' });
    expect(fake.callsTo('POST', API)).toHaveLength(1);
  });
});

describe('?invoiceid= and ?copy=', () => {
  it('?copy= starts a new invoice from another, issued today, with its payer and lines', async () => {
    const sent = invoice({
      invoiceState: 'Paid',
      items: [{ description: 'Tuning', quantity: 1, unitPriceCents: 9_000, taxRate: 5, amountCents: 9_000, discountCents: 0, taxCents: 450 }],
    });
    serve(sent);
    fake.on('POST', API, { status: 201, json: { status: 'Success', data: invoice({ invoiceState: 'Draft' }) } });
    const u = userEvent.setup();
    form(`${FORM}?copy=${sent.invoiceId}`);
    expect(await screen.findByRole('heading', { name: 'New invoice' })).toBeInTheDocument();
    expect(screen.getByText(`A copy of ${sent.number}, issued today. Check the lines and dates before you send it.`)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Payer' })).toHaveValue('Pat Payer');
    expect(descriptions()).toEqual(['Tuning']);
    expect(screen.getByLabelText('Tax rate, line 1')).toHaveValue('5');
    await u.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(fake.callsTo('POST', API)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${API}/${sent.invoiceId}`)).toHaveLength(0);
  });

  it('a sent invoice cannot be edited: it is offered as a copy', async () => {
    const sent = invoice({ invoiceState: 'Sent' });
    serve(sent);
    form(`${FORM}?invoiceid=${sent.invoiceId}`);
    expect(await screen.findByRole('heading', { name: `${sent.number} can no longer be edited` })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Copy into a new invoice' })).toHaveAttribute('href', `${FORM}?copy=${sent.invoiceId}`);
  });

  it('a scheduled invoice is saved and stays scheduled: no Send or Schedule', async () => {
    const scheduled = invoice({ invoiceState: 'Scheduled', sendAt: '2099-01-15T18:30:00.000Z' });
    serve(scheduled);
    const u = userEvent.setup();
    form(`${FORM}?invoiceid=${scheduled.invoiceId}`);
    expect(await screen.findByRole('heading', { name: `Edit ${scheduled.number}` })).toBeInTheDocument();
    expect(screen.getByText(/This invoice is scheduled to go Jan 15, 2099 13:30 EST\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${API}/${scheduled.invoiceId}`)).toHaveLength(1));
  });

  it('a business that may not send invoices says why, and its buttons send nothing', async () => {
    const draft = invoice({ invoiceState: 'Draft' });
    serve(draft);
    renderAt(`${FORM}?invoiceid=${draft.invoiceId}`, { [FORM]: <InvoiceFormPage /> }, { business: { businessState: 'Disabled' } });
    expect(await screen.findByText('This business is disabled, so it cannot send invoices. Contact Tay support.')).toBeInTheDocument();
    for (const name of ['Send', 'Schedule', 'Save draft', 'Preview PDF']) expect(screen.getByRole('button', { name })).toBeDisabled();
  });
});
