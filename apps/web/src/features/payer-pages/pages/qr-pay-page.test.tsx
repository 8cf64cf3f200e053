import { fireEvent, screen, within } from '@testing-library/react';
import { forwardRef, useImperativeHandle } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PublicQrPage, QrPaymentOutcome } from '@tay/contract';
import { apiError, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import type { CardFieldHandle } from '../components/card-field';
import { QrPayPage } from './qr-pay-page';

// The processor's card field is an iframe of its own (e2e/card-field.test.ts); here it hands out a token.
vi.mock('../components/card-field', () => ({
  CardField: forwardRef<CardFieldHandle>(function FakeCardField(_props, ref) {
    useImperativeHandle(ref, () => ({ tokenize: () => Promise.resolve({ token: 'tok_visa0000000001', label: 'Visa •••• 4242' }) }));
    return <div>Card details</div>;
  }),
}));

function qrPage(over: Partial<PublicQrPage> = {}): PublicQrPage {
  return {
    businessName: 'Harbor Music',
    businessLogoUrl: '/api/public/logos/biz_1.png',
    label: 'Front counter',
    memo: 'Lessons and sheet music',
    amountMode: 'open',
    amountCents: null,
    minAmountCents: 500,
    maxAmountCents: 50_000,
    ask: { name: 'required', email: 'optional', phone: 'off', note: 'off' },
    status: 'payable',
    statusMessage: null,
    ...over,
  };
}

function outcome(over: Partial<QrPaymentOutcome['payment']> = {}, state: QrPaymentOutcome['transactionState'] = 'Accepted'): QrPaymentOutcome {
  return {
    payment: {
      paymentId: 'pay_1',
      method: 'card',
      instrument: 'Visa •••• 4242',
      amountCents: 1_240,
      feeCents: 66,
      refundedCents: 0,
      state: 'Processed',
      failureReason: null,
      createdAt: '2026-05-01T10:00:00.000Z',
      settledAt: null,
      ...over,
    },
    transactionState: state,
    referenceNumber: 'TRX-10001',
    amountCents: 1_240,
    payToken: 'rtok_1',
  };
}

const PAY = '/api/public/qr/qr_abc/payments';

const fake = fakeApiPerTest();

function open(data: PublicQrPage | null) {
  if (data) fake.on('GET', '/api/public/qr/qr_abc', ok(data));
  renderAt('/pay/qr/qr_abc', { '/pay/qr/:code': <QrPayPage />, '/pay/:token': <p>The request’s page</p> });
}

const payButton = () => screen.getByRole('button', { name: /^Pay/ });

describe('the page a QR code opens', () => {
  it('a fixed amount: the business, its logo, the label, the memo and the amount; no amount to type', async () => {
    open(qrPage({ amountMode: 'fixed', amountCents: 2_500, minAmountCents: null, maxAmountCents: null }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Front counter' })).toBeInTheDocument();
    expect(screen.getByText('Harbor Music')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Harbor Music logo' })).toHaveAttribute('src', '/api/public/logos/biz_1.png');
    expect(screen.getByText('Lessons and sheet music')).toBeInTheDocument();
    expect(screen.getByText('$25.00')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Amount to pay/)).toBeNull();
    expect(payButton()).toHaveAccessibleName('Pay $25.00');
    expect(document.title).toBe('Pay Harbor Music · Tay');
  });

  it('an open amount: a money field with its bounds as help, checked before anything is sent', async () => {
    open(qrPage({ ask: { name: 'off', email: 'off', phone: 'off', note: 'off' } }));
    const amount = await screen.findByRole('textbox', { name: /Amount to pay \(USD\)/ });
    expect(amount).toBeRequired();
    expect(screen.getByText('Enter $5.00 to $500.00')).toBeInTheDocument();
    expect(payButton()).toHaveAccessibleName('Pay');

    fireEvent.change(amount, { target: { value: '4.99' } });
    expect(payButton()).toHaveAccessibleName('Pay $4.99');
    fireEvent.click(payButton());
    expect(await screen.findByText('Enter at least $5.00.')).toBeInTheDocument();
    fireEvent.change(amount, { target: { value: '500.01' } });
    fireEvent.click(payButton());
    expect(await screen.findByText('Enter at most $500.00.')).toBeInTheDocument();
    fireEvent.change(amount, { target: { value: '' } });
    fireEvent.click(payButton());
    expect(await screen.findByText('Enter the amount to pay.')).toBeInTheDocument();
    expect(fake.callsTo('POST', PAY)).toHaveLength(0);

    fireEvent.change(amount, { target: { value: '12.40' } });
    expect(payButton()).toHaveAccessibleName('Pay $12.40');
  });

  it('asks for the details the code asks for, marks the required ones, and will not pay without them', async () => {
    open(qrPage({ ask: { name: 'required', email: 'optional', phone: 'required', note: 'off' } }));
    await screen.findByRole('heading', { level: 1, name: 'Front counter' });
    expect(screen.getByRole('textbox', { name: /Your name/ })).toBeRequired();
    expect(screen.getByRole('textbox', { name: /E-mail address/ })).not.toBeRequired();
    expect(screen.getByRole('textbox', { name: /Phone number/ })).toBeRequired();
    expect(screen.queryByRole('textbox', { name: /Note for/ })).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: /Amount to pay/ }), { target: { value: '12.40' } });
    fireEvent.change(screen.getByRole('textbox', { name: /E-mail address/ }), { target: { value: 'not an address' } });
    fireEvent.click(payButton());
    expect(await screen.findByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your phone number.')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(fake.callsTo('POST', PAY)).toHaveLength(0);
  });

  it('a turned-off code says so, and takes no payment', async () => {
    open(qrPage({ status: 'disabled', statusMessage: 'Harbor Music has turned this code off. Ask them how to pay.' }));
    expect(await screen.findByText('This code is turned off')).toBeInTheDocument();
    expect(screen.getByText('Harbor Music has turned this code off. Ask them how to pay.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Front counter' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
    expect(screen.queryByText('Card details')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('an expired code says so', async () => {
    open(qrPage({ status: 'expired', statusMessage: 'This code expired on May 31, 2026.' }));
    expect(await screen.findByText('This code has expired')).toBeInTheDocument();
    expect(screen.getByText('This code expired on May 31, 2026.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('an unknown code is a page of its own, not an empty form', async () => {
    open(null);
    expect(await screen.findByRole('heading', { level: 1, name: 'We can’t find this QR code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('pays: the body carries the amount and the details under an Idempotency-Key; the success panel has the reference and the receipt', async () => {
    open(qrPage());
    fake.on('POST', PAY, { status: 201, json: { status: 'Success', data: outcome() } });
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount to pay/ }), { target: { value: '12.40' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Your name/ }), { target: { value: '  Pat Payer ' } });
    fireEvent.change(screen.getByRole('textbox', { name: /E-mail address/ }), { target: { value: 'Pat@Example.com' } });
    fireEvent.click(payButton());

    const panel = await screen.findByRole('region', { name: 'Payment received' });
    const [call] = fake.callsTo('POST', PAY);
    expect(call!.body).toEqual({
      method: 'card',
      processorToken: 'tok_visa0000000001',
      amountCents: 1_240,
      payerName: 'Pat Payer',
      payerEmail: 'pat@example.com',
    });
    expect(call!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(within(panel).getByText('$12.40 paid to Harbor Music with Visa •••• 4242.')).toBeInTheDocument();
    expect(within(panel).getByText('TRX-10001')).toBeInTheDocument();
    expect(within(panel).getByText('A receipt was e-mailed to pat@example.com.')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'View your receipt' })).toHaveAttribute('href', '/pay/rtok_1/receipt/pay_1');
    // The payer's place is the panel now; the form is gone.
    expect(within(panel).getByRole('heading', { name: 'Payment received' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('with no e-mail given, says nothing of an e-mailed receipt', async () => {
    open(
      qrPage({
        amountMode: 'fixed',
        amountCents: 1_240,
        minAmountCents: null,
        maxAmountCents: null,
        ask: { name: 'off', email: 'optional', phone: 'off', note: 'off' },
      }),
    );
    fake.on('POST', PAY, { status: 201, json: { status: 'Success', data: outcome() } });
    await screen.findByRole('heading', { level: 1, name: 'Front counter' });
    fireEvent.click(payButton());
    const panel = await screen.findByRole('region', { name: 'Payment received' });
    expect(fake.callsTo('POST', PAY)[0]!.body).toEqual({ method: 'card', processorToken: 'tok_visa0000000001', amountCents: 1_240 });
    expect(within(panel).queryByText(/e-mailed/)).toBeNull();
  });

  it('from a bank account: the name given is the account’s until changed; the transfer is on its way, followed on the request’s page', async () => {
    open(qrPage({ ask: { name: 'required', email: 'off', phone: 'off', note: 'off' } }));
    fake.on('POST', '/sandbox-processor/v1/tokens', { json: { id: 'tok_bank0000000001', label: 'Tay Sandbox Bank •••• 6789' } });
    fake.on('POST', PAY, {
      status: 201,
      json: { status: 'Success', data: outcome({ method: 'bank_account', instrument: 'Tay Sandbox Bank •••• 6789', state: 'Pending' }) },
    });
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount to pay/ }), { target: { value: '12.40' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Your name/ }), { target: { value: 'Pat Payer' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Bank account' }));
    expect(screen.getByRole('textbox', { name: 'Name on the account' })).toHaveValue('Pat Payer');
    fireEvent.change(screen.getByRole('textbox', { name: 'Routing number' }), { target: { value: '222096656' } });
    fireEvent.change(screen.getByLabelText('Account number'), { target: { value: '000123456789' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Confirm account number' }), { target: { value: '000123456789' } });
    fireEvent.click(payButton());
    const panel = await screen.findByRole('region', { name: 'Bank payment submitted' });
    expect(fake.callsTo('POST', '/sandbox-processor/v1/tokens')[0]!.body).toEqual({
      bankAccount: { routingNumber: '222096656', accountNumber: '000123456789', accountHolderName: 'Pat Payer' },
    });
    expect(fake.callsTo('POST', PAY)[0]!.body).toEqual({
      method: 'bank_account',
      processorToken: 'tok_bank0000000001',
      amountCents: 1_240,
      payerName: 'Pat Payer',
    });
    expect(within(panel).getByText('Your bank transfer of $12.40 from Tay Sandbox Bank •••• 6789 to Harbor Music is being processed.')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Follow your payment' })).toHaveAttribute('href', '/pay/rtok_1');
  });

  it('a declined card: says why, and the retry is the request’s own page', async () => {
    open(qrPage());
    fake.on('POST', PAY, { status: 201, json: { status: 'Success', data: outcome({ state: 'Rejected', failureReason: 'Your card was declined.' }, 'Error') } });
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount to pay/ }), { target: { value: '12.40' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Your name/ }), { target: { value: 'Pat Payer' } });
    fireEvent.click(payButton());
    const panel = await screen.findByRole('region', { name: 'Your payment was declined' });
    expect(within(panel).getByText('Your card was declined.')).toBeInTheDocument();
    expect(within(panel).getByText('TRX-10001')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/pay/rtok_1');
    fireEvent.click(within(panel).getByRole('link', { name: 'Try again' }));
    expect(await screen.findByText('The request’s page')).toBeInTheDocument();
  });

  it('the API’s refusal of a field is shown at the field', async () => {
    open(qrPage());
    fake.on('POST', PAY, apiError(422, 'VALIDATION_FAILED', 'Check the highlighted fields.', { amountCents: 'Enter at most $100.00.' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount to pay/ }), { target: { value: '120' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Your name/ }), { target: { value: 'Pat Payer' } });
    fireEvent.click(payButton());
    expect(await screen.findByText('Enter at most $100.00.')).toBeInTheDocument();
    expect(screen.getByText('The payment did not go through')).toBeInTheDocument();
  });

  it('no answer from the processor (503): "Try again" sends the very same payment, details and key included', async () => {
    open(qrPage());
    let answers = 0;
    fake.on('POST', PAY, () =>
      ++answers === 1
        ? apiError(503, 'PROCESSOR_UNAVAILABLE', 'The payment processor did not answer.')
        : { status: 201, json: { status: 'Success', data: outcome() } },
    );
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount to pay/ }), { target: { value: '12.40' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Your name/ }), { target: { value: 'Pat Payer' } });
    fireEvent.click(payButton());
    expect(await screen.findByText('We could not confirm your payment')).toBeInTheDocument();
    // The fields are hidden: what is sent again is what was sent.
    expect(screen.queryByRole('textbox', { name: /Your name/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again: pay $12.40' }));
    await screen.findByRole('region', { name: 'Payment received' });
    const [first, second] = fake.callsTo('POST', PAY);
    expect(second!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key']);
    expect(second!.body).toEqual(first!.body);
    expect(first!.body).toMatchObject({ payerName: 'Pat Payer', amountCents: 1_240 });
  });
});
