import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { qrCode } from '../../../test/fixtures';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { QrCodeFormPage } from './qr-code-form-page';

// Whole pages with typing: slower than a unit test on a busy machine.
const API = `/api/businesses/${BUSINESS_ID}/qr-codes`;
const FORM = '/business/payment/qrcode/manage';
const DOWNLOAD = '/business/payment/qrcode/download';

const fake = fakeApiPerTest();

const open = (path = FORM) => renderAt(path, { [FORM]: <QrCodeFormPage />, [DOWNLOAD]: <p>Downloads</p> });
const posted = () => fake.callsTo('POST', API).map((c) => c.body as Record<string, unknown>);
const ask = (field: string, choice: string) => within(screen.getByRole('radiogroup', { name: field })).getByRole('radio', { name: choice });

describe('a new QR code', () => {
  it('a fixed amount must be given; saved, it sends the amount in cents, with no minimum or maximum', async () => {
    const saved = qrCode({ qrId: 'qr_new', label: 'Front counter' });
    fake.on('POST', API, { status: 201, json: { status: 'Success', data: saved } });
    const u = userEvent.setup();
    open();
    await u.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give the code a label, such as "Front counter".')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Amount (USD)' })).toHaveAccessibleDescription('Enter the amount the code charges.');
    expect(posted()).toHaveLength(0);

    await u.type(screen.getByRole('textbox', { name: 'Label' }), 'Front counter');
    await u.type(screen.getByRole('textbox', { name: 'Amount (USD)' }), '12,5');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter an amount like 12.00.')).toBeInTheDocument();
    expect(screen.queryByText('Give the code a label, such as "Front counter".')).toBeNull();
    expect(posted()).toHaveLength(0);

    await u.clear(screen.getByRole('textbox', { name: 'Amount (USD)' }));
    await u.type(screen.getByRole('textbox', { name: 'Amount (USD)' }), '12.50');
    await u.type(screen.getByRole('textbox', { name: 'Memo' }), 'Coffee and cake');
    await u.click(ask('Phone', 'Required'));
    await u.click(ask('E-mail', 'Off'));
    await u.type(screen.getByLabelText('Expires on'), '2026-12-31');
    await u.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      label: 'Front counter',
      amountMode: 'fixed',
      amountCents: 1250,
      minAmountCents: null,
      maxAmountCents: null,
      memo: 'Coffee and cake',
      askName: 'optional',
      askEmail: 'off',
      askPhone: 'required',
      askNote: 'off',
      expiresOn: '2026-12-31',
      status: 'active',
    });
    expect(await screen.findByText('QR code created')).toBeInTheDocument();
    await waitFor(() => expect(shownLocation()).toBe(`${DOWNLOAD}?qrcodeid=qr_new`));
  });

  it('an amount the payer enters takes an optional minimum and maximum, the maximum not below the minimum', async () => {
    fake.on('POST', API, { status: 201, json: { status: 'Success', data: qrCode({ qrId: 'qr_tips' }) } });
    const u = userEvent.setup();
    open();
    await u.type(await screen.findByRole('textbox', { name: 'Label' }), 'Tip jar');
    await u.type(screen.getByRole('textbox', { name: 'Amount (USD)' }), '9.99');
    await u.click(screen.getByRole('radio', { name: /The payer enters the amount/ }));
    expect(screen.queryByRole('textbox', { name: 'Amount (USD)' })).toBeNull();
    await u.type(screen.getByRole('textbox', { name: 'Smallest amount (USD)' }), '50');
    await u.type(screen.getByRole('textbox', { name: 'Largest amount (USD)' }), '5');
    await u.click(screen.getByRole('switch', { name: /^Active/ }));
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The maximum must not be below the minimum.')).toBeInTheDocument();
    expect(posted()).toHaveLength(0);

    await u.clear(screen.getByRole('textbox', { name: 'Largest amount (USD)' }));
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted()).toHaveLength(1));
    // The fixed amount typed before stays in the form, unsent.
    expect(posted()[0]).toMatchObject({ amountMode: 'open', amountCents: null, minAmountCents: 5000, maxAmountCents: null, status: 'Disabled' });
  });

  it('the API’s 422 lands on the fields it names, and the form says what went wrong', async () => {
    fake.on(
      'POST',
      API,
      apiError(422, 'VALIDATION_ERROR', 'Check the highlighted fields.', {
        label: 'You already have a code labelled "Front counter".',
        expiresOn: 'Expiry date must be before Jan 01, 2100.',
      }),
    );
    const u = userEvent.setup();
    open();
    await u.type(await screen.findByRole('textbox', { name: 'Label' }), 'Front counter');
    await u.type(screen.getByRole('textbox', { name: 'Amount (USD)' }), '12');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Check the highlighted fields.');
    expect(screen.getByRole('textbox', { name: 'Label' })).toHaveAccessibleDescription(
      expect.stringContaining('You already have a code labelled "Front counter".'),
    );
    expect(screen.getByLabelText('Expires on')).toHaveAccessibleDescription(expect.stringContaining('Expiry date must be before Jan 01, 2100.'));
    expect(shownLocation()).toBe(FORM);

    // Editing a field clears its error.
    await u.type(screen.getByRole('textbox', { name: 'Label' }), ' 2');
    expect(screen.queryByText('You already have a code labelled "Front counter".')).toBeNull();
    expect(screen.getByText('Expiry date must be before Jan 01, 2100.')).toBeInTheDocument();
  });
});

describe('editing a QR code', () => {
  it('starts from the code, and saves it with PATCH', async () => {
    const code = qrCode({
      label: 'Tip jar',
      amountMode: 'open',
      amountCents: null,
      minAmountCents: 100,
      maxAmountCents: 50_000,
      memo: 'Thank you!',
      askNote: 'optional',
      expiresOn: '2026-09-30',
      status: 'Disabled',
    });
    fake.on('GET', `${API}/${code.qrId}`, ok(code));
    fake.on('PATCH', `${API}/${code.qrId}`, ok({ ...code, label: 'Tips' }));
    const u = userEvent.setup();
    open(`${FORM}?qrcodeid=${code.qrId}`);
    expect(await screen.findByRole('heading', { name: 'Edit “Tip jar”' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /The payer enters the amount/ })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Smallest amount (USD)' })).toHaveValue('1.00');
    expect(screen.getByRole('textbox', { name: 'Largest amount (USD)' })).toHaveValue('500.00');
    expect(ask('Note', 'Optional')).toBeChecked();
    expect(screen.getByRole('switch', { name: /^Active/ })).not.toBeChecked();

    await u.clear(screen.getByRole('textbox', { name: 'Label' }));
    await u.type(screen.getByRole('textbox', { name: 'Label' }), 'Tips');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `${API}/${code.qrId}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `${API}/${code.qrId}`)[0]!.body).toEqual({
      label: 'Tips',
      amountMode: 'open',
      amountCents: null,
      minAmountCents: 100,
      maxAmountCents: 50_000,
      memo: 'Thank you!',
      askName: 'optional',
      askEmail: 'optional',
      askPhone: 'off',
      askNote: 'optional',
      expiresOn: '2026-09-30',
      status: 'Disabled',
    });
    expect(await screen.findByText('QR code saved')).toBeInTheDocument();
    await waitFor(() => expect(shownLocation()).toBe(`${DOWNLOAD}?qrcodeid=${code.qrId}`));
  });

  it('a code that cannot be loaded says so', async () => {
    open(`${FORM}?qrcodeid=qr_gone`);
    expect(await screen.findByText('We could not load this QR code')).toBeInTheDocument();
  });
});
