import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_MOBILE_MESSAGE, type PaymentRequest } from '@tay/contract';
import { apiError, BUSINESS_ID, FakeApi, ok, renderAt, shownLocation, answerBusiness } from '../../../test/page-harness';
import { approvedBusiness, detail, payer, payerSuggestion, qrPayment, request } from '../../../test/fixtures';
import { RequestFormPage } from './request-form-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const FORM = '/business/payment/request';

let fake: FakeApi;
const originalTz = process.env.TZ;
beforeEach(() => {
  fake = new FakeApi();
  fake.install();
  business('America/New_York');
});

/** The business, with the time zone scheduled sends are on. */
function business(timeZone: string) {
  answerBusiness(fake, approvedBusiness({ timeZone }));
}
afterEach(() => {
  vi.unstubAllGlobals();
  process.env.TZ = originalTz;
});

function form(path: string) {
  return renderAt(path, {
    [FORM]: <RequestFormPage />,
    '/business/payment/transactions/draft': <p>Drafts</p>,
    '/business/payment/transactions/history': <p>History</p>,
  });
}

/** The source request answers its detail; saving answers with what was saved. */
function serve(source: PaymentRequest, over: Parameters<typeof detail>[1] = {}) {
  fake.on('GET', `${LIST}/${source.transactionId}`, ok(detail(source, over)));
  fake.on('PATCH', `${LIST}/${source.transactionId}`, (call) => ok({ ...source, ...(call.body as object) }));
  fake.on('POST', LIST, (call) => ({ status: 201, json: { status: 'Success', data: { ...request(), ...(call.body as object) } } }));
}

describe('?transid= edits a Draft or scheduled request; &copy=1 always makes a new one', () => {
  it('edits a Draft in place: Save as draft PATCHes that request', async () => {
    const draft = request({ transactionState: 'Draft', amountCents: 4_200, memo: 'Violin, May' });
    serve(draft);
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    expect(await screen.findByRole('heading', { name: `Edit ${draft.referenceNumber}` })).toBeInTheDocument();
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('42.00');
    await u.clear(screen.getByLabelText('Amount (USD)'));
    await u.type(screen.getByLabelText('Amount (USD)'), '45');
    await u.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)[0]!.body).toMatchObject({
      payerId: 'pyr_pat',
      amountCents: 4_500,
      memo: 'Violin, May',
      mode: 'draft',
    });
    expect(fake.callsTo('POST', LIST)).toHaveLength(0);
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/transactions/draft'));
  });

  it('copies a Draft into a new request with its payer and amount: Send now POSTs, the Draft is left alone', async () => {
    const draft = request({ transactionState: 'Draft', amountCents: 4_200, memo: 'Violin, May', allowPartial: true });
    serve(draft);
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}&copy=1`);
    expect(await screen.findByRole('heading', { name: 'Single Request to Pay' })).toBeInTheDocument();
    expect(screen.getByText(`A copy of ${draft.referenceNumber}. Check the dates before you send it.`)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Payer' })).toHaveValue('Pat Payer');
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('42.00');
    expect(screen.queryByRole('button', { name: 'Save as draft' })).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(fake.callsTo('POST', LIST)).toHaveLength(1));
    expect(fake.callsTo('POST', LIST)[0]!.body).toEqual({
      payerId: 'pyr_pat',
      channel: 'email',
      amountCents: 4_200,
      memo: 'Violin, May',
      reference: 'INV-7',
      dueDate: draft.dueDate,
      expiresOn: null,
      allowPartial: true,
      mode: 'send',
      sendAt: null,
    });
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(0);
  });

  it('copies a scheduled request without its send time', async () => {
    const pending = request({ transactionState: 'Pending', sendAt: '2099-03-08T10:30:00.000Z' });
    serve(pending);
    form(`${FORM}?transid=${pending.transactionId}&copy=1`);
    expect(await screen.findByRole('heading', { name: 'Single Request to Pay' })).toBeInTheDocument();
    expect(screen.getByLabelText('Send later (optional)')).toHaveValue('');
  });

  it('a request that can no longer be edited (Paid) is copied even without copy=1', async () => {
    const paid = request({ transactionState: 'Paid' });
    serve(paid);
    form(`${FORM}?transid=${paid.transactionId}`);
    expect(await screen.findByText(`A copy of ${paid.referenceNumber}. Check the dates before you send it.`)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Edit/ })).toBeNull();
  });
});

describe('a request that collects an invoice', () => {
  it('is not edited here: the form offers the invoice instead, and nothing is saved', async () => {
    const scheduled = request({ transactionState: 'Pending', invoiceId: 'inv_9', invoiceNumber: 'INV-0009' });
    serve(scheduled);
    form(`${FORM}?transid=${scheduled.transactionId}`);
    expect(await screen.findByRole('heading', { name: `${scheduled.referenceNumber} collects invoice INV-0009` })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit the invoice' })).toHaveAttribute('href', '/business/payment/invoices/draft?invoiceid=inv_9');
    expect(screen.queryByLabelText('Amount (USD)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();
  });

  it('can still be copied into a plain request', async () => {
    const scheduled = request({ transactionState: 'Pending', invoiceId: 'inv_9', invoiceNumber: 'INV-0009', amountCents: 6_266 });
    serve(scheduled);
    form(`${FORM}?transid=${scheduled.transactionId}&copy=1`);
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue('62.66');
  });
});

describe('a payment through a QR code', () => {
  it.each(['', '&copy=1'])('is neither edited nor copied (%s): it was sent to no one, and may have no payer', async (copy) => {
    const walkIn = qrPayment();
    serve(walkIn);
    form(`${FORM}?transid=${walkIn.transactionId}${copy}`);
    expect(await screen.findByRole('heading', { name: `${walkIn.referenceNumber} is a payment through a QR code` })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Payments through this code' })).toHaveAttribute(
      'href',
      '/business/payment/qrcode/transactions?qrcodeid=qr_counter',
    );
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();
    // No payer record to read.
    expect(fake.calls.some((c) => c.url.pathname.includes('/payers/'))).toBe(false);
  });
});

describe('the send time of a scheduled request, on the business’s clock', () => {
  it('opens in the business’s time zone, not the browser’s, and saves back the same instant', async () => {
    process.env.TZ = 'Asia/Tokyo';
    business('America/Los_Angeles');
    const pending = request({ transactionState: 'Pending', sendAt: '2099-01-15T18:30:00.000Z' });
    serve(pending);
    const u = userEvent.setup();
    form(`${FORM}?transid=${pending.transactionId}`);
    // 18:30 UTC is 10:30 in Los Angeles (UTC-8 in January); in Tokyo it would be 03:30 the next day.
    expect(await screen.findByLabelText('Send later (optional)')).toHaveValue('2099-01-15T10:30');
    expect(screen.getByText('Pick a time in America/Los_Angeles, the business’s time zone, then choose Schedule')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${LIST}/${pending.transactionId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${LIST}/${pending.transactionId}`)[0]!.body).toMatchObject({ mode: 'schedule', sendAt: '2099-01-15T18:30:00.000Z' });
  });

  it('schedules a time picked on the business’s clock at that instant', async () => {
    process.env.TZ = 'Europe/London';
    business('America/Chicago');
    const draft = request({ transactionState: 'Draft' });
    serve(draft);
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    const input = await screen.findByLabelText('Send later (optional)');
    await u.type(input, '2099-07-04T09:00');
    await u.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(1));
    // 9:00 in Chicago in July (UTC-5) is 14:00 UTC; on the browser's London clock it would be 08:00 UTC.
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)[0]!.body).toMatchObject({ mode: 'schedule', sendAt: '2099-07-04T14:00:00.000Z' });
  });
});

describe('Idempotency-Key from the form', () => {
  it('PATCH carries one; a 5xx retry reuses it; after a definitive 400 the next Send is a new attempt', async () => {
    const draft = request({ transactionState: 'Draft' });
    fake.on('GET', `${LIST}/${draft.transactionId}`, ok(detail(draft)));
    let answers = [
      { status: 503, text: '' },
      apiError(400, 'VALIDATION_FAILED', 'Pat Payer is deactivated; activate them first.', { payerId: 'This payer is deactivated; activate them first.' }),
      ok({ ...draft, transactionState: 'Sent' }),
    ];
    fake.on('PATCH', `${LIST}/${draft.transactionId}`, () => {
      const [next, ...rest] = answers;
      answers = rest;
      return next!;
    });
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    const send = await screen.findByRole('button', { name: 'Send now' });
    await u.click(send);
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    await u.click(send);
    expect(await screen.findByText('Pat Payer is deactivated; activate them first.')).toBeInTheDocument();
    expect(screen.getByText('This payer is deactivated; activate them first.')).toBeInTheDocument();
    // The business reactivates the payer elsewhere, then presses Send again.
    await u.click(send);
    await waitFor(() => expect(shownLocation()).toMatch(/^\/business\/payment\/transactions\/history\?transid=/));
    const keys = fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`).map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('a changed body is a new intent with a new key', async () => {
    fake.on('POST', LIST, { status: 503, text: '' });
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/payers/pyr_pat`, ok(payer('Pat Payer', { payerId: 'pyr_pat', email: 'pat@payers.example' })));
    const u = userEvent.setup();
    form(`${FORM}?payerId=pyr_pat`);
    await u.type(await screen.findByLabelText('Amount (USD)'), '10');
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    await screen.findByText('Something went wrong on our side. Please try again.');
    await u.type(screen.getByLabelText('Amount (USD)'), '0');
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(fake.callsTo('POST', LIST)).toHaveLength(2));
    const [first, second] = fake.callsTo('POST', LIST);
    expect([(first!.body as { amountCents: number }).amountCents, (second!.body as { amountCents: number }).amountCents]).toEqual([1_000, 10_000]);
    expect(second!.headers['Idempotency-Key']).not.toBe(first!.headers['Idempotency-Key']);
  });
});

describe('a business that may not request payments', () => {
  it('says why, and its buttons send nothing (Enter included)', async () => {
    const draft = request({ transactionState: 'Draft', amountCents: 4_200, memo: 'Violin, May' });
    serve(draft);
    const u = userEvent.setup();
    renderAt(`${FORM}?transid=${draft.transactionId}`, { [FORM]: <RequestFormPage /> }, { business: { businessState: 'Disabled' } });
    expect(await screen.findByText('This business is disabled, so it cannot request payments. Contact Tay support.')).toBeInTheDocument();
    for (const name of ['Send now', 'Schedule', 'Save as draft']) expect(screen.getByRole('button', { name })).toBeDisabled();
    await u.type(screen.getByLabelText('Amount (USD)'), '{Enter}');
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(0);
    expect(fake.callsTo('POST', LIST)).toHaveLength(0);
  });
});

describe('Send by: e-mail or text message', () => {
  const suggestion = payerSuggestion;
  const texted = payer('Tess Texter', { mobileNumber: '+14155550123' });
  const unreachable = payer('Tom Nomobile', { mobileNumber: null });

  /** A new request for the payer picked from the typeahead, with an amount. */
  async function newRequestFor(who: ReturnType<typeof payer>, u: ReturnType<typeof userEvent.setup>) {
    fake.on('GET', '/api/directory/payers/beginsWith', ok([suggestion(texted), suggestion(unreachable)]));
    fake.on('POST', LIST, (call) => ({ status: 201, json: { status: 'Success', data: { ...request(), ...(call.body as object) } } }));
    form(FORM);
    await u.type(await screen.findByRole('textbox', { name: 'Payer' }), 'T');
    await u.click(await screen.findByRole('option', { name: new RegExp(who.displayName) }));
    await u.type(screen.getByLabelText('Amount (USD)'), '30');
  }

  const sentBody = async () => {
    await waitFor(() => expect(fake.callsTo('POST', LIST)).toHaveLength(1));
    return fake.callsTo('POST', LIST)[0]!.body;
  };

  it('starts on E-mail; a payer with a mobile can be texted, and the request says so', async () => {
    const u = userEvent.setup();
    await newRequestFor(texted, u);
    const group = screen.getByRole('radiogroup', { name: 'Send by' });
    expect(within(group).getByRole('radio', { name: 'E-mail' })).toBeChecked();
    const sms = within(group).getByRole('radio', { name: 'Text message (SMS)' });
    expect(sms).toBeEnabled();
    expect(within(group).getByText('Texted to (415) 555-0123')).toBeInTheDocument();
    await u.click(sms);
    expect(sms).toBeChecked();
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await sentBody()).toMatchObject({ payerId: texted.payerId, channel: 'sms', amountCents: 3_000, mode: 'send' });
  });

  it('a payer without a mobile cannot be texted: the option says why, and the request goes by e-mail', async () => {
    const u = userEvent.setup();
    await newRequestFor(unreachable, u);
    const group = screen.getByRole('radiogroup', { name: 'Send by' });
    expect(within(group).getByRole('radio', { name: 'Text message (SMS)' })).toBeDisabled();
    expect(within(group).getByText(NO_MOBILE_MESSAGE)).toBeInTheDocument();
    expect(within(group).getByRole('radio', { name: 'E-mail' })).toBeChecked();
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await sentBody()).toMatchObject({ payerId: unreachable.payerId, channel: 'email' });
  });

  it('texting chosen, then a payer without a mobile picked instead: it falls back to e-mail', async () => {
    const u = userEvent.setup();
    await newRequestFor(texted, u);
    await u.click(screen.getByRole('radio', { name: 'Text message (SMS)' }));
    const picker = screen.getByRole('textbox', { name: 'Payer' });
    await u.clear(picker);
    await u.type(picker, 'T');
    await u.click(await screen.findByRole('option', { name: new RegExp(unreachable.displayName) }));
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Text message (SMS)' })).toBeDisabled();
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await sentBody()).toMatchObject({ payerId: unreachable.payerId, channel: 'email' });
  });

  it('editing a draft that goes by text message starts on it, with the payer’s number, and saves it so', async () => {
    const draft = request({ transactionState: 'Draft', payerId: texted.payerId, payerName: texted.displayName, payerEmail: texted.email });
    serve(draft, { channel: 'sms' });
    fake.on('GET', `/api/businesses/${BUSINESS_ID}/payers/${texted.payerId}`, ok(texted));
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    expect(await screen.findByRole('radio', { name: 'Text message (SMS)' })).toBeChecked();
    expect(screen.getByText('Texted to (415) 555-0123')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)[0]!.body).toMatchObject({ channel: 'sms', mode: 'draft' });
  });

  it('the server’s refusal of a text message (no mobile number) shows at Send by', async () => {
    const draft = request({ transactionState: 'Draft' });
    serve(draft, { channel: 'sms' });
    // The payer's record could not be read here: its number is not known, so the server decides.
    fake.on('PATCH', `${LIST}/${draft.transactionId}`, apiError(422, 'VALIDATION_FAILED', 'The request was not saved.', { channel: NO_MOBILE_MESSAGE }));
    const u = userEvent.setup();
    form(`${FORM}?transid=${draft.transactionId}`);
    expect(await screen.findByRole('radio', { name: 'Text message (SMS)' })).toBeChecked();
    await u.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText(NO_MOBILE_MESSAGE)).toBeInTheDocument();
    // Said at the control: a screen reader hears it with "Send by".
    expect(screen.getByRole('radiogroup', { name: 'Send by' })).toHaveAccessibleDescription(expect.stringContaining(NO_MOBILE_MESSAGE));
    expect(fake.callsTo('PATCH', `${LIST}/${draft.transactionId}`)[0]!.body).toMatchObject({ channel: 'sms', mode: 'send' });
  });
});
