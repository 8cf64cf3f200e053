import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { payerPaths } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { payer } from '../../../test/fixtures';
import { PayerFormPage } from './payer-form-page';

const LIST = `/api/businesses/${BUSINESS_ID}/payers`;
const fake = fakeApiPerTest();

const open = (options?: Parameters<typeof renderAt>[2]) =>
  renderAt(payerPaths.add, { [payerPaths.add]: <PayerFormPage />, [payerPaths.list]: <p>Payers list</p> }, options);

async function fillIn() {
  const u = userEvent.setup();
  await u.type(await screen.findByLabelText('First name'), 'Fran');
  await u.type(screen.getByLabelText('Last name'), 'First');
  await u.type(screen.getByLabelText(/E-mail/), 'fran@payers.example');
  await u.click(screen.getByRole('button', { name: 'Add payer' }));
}

describe('the payer form', () => {
  it('adds the payer and goes back to the list', async () => {
    fake.on('POST', LIST, ok(payer('Fran First', { email: 'fran@payers.example' })));
    open();
    await fillIn();
    expect(await screen.findByText('Payers list')).toBeInTheDocument();
    expect(fake.callsTo('POST', LIST)[0]!.body).toMatchObject({ firstName: 'Fran', lastName: 'First', email: 'fran@payers.example' });
  });

  it('puts a refusal’s field errors onto their fields, and any other refusal above them', async () => {
    fake.on('POST', LIST, apiError(400, 'VALIDATION_FAILED', 'Check the fields.', { email: 'A payer with this e-mail already exists.' }));
    open();
    await fillIn();
    expect(await screen.findByText('A payer with this e-mail already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText(/E-mail/)).toHaveAttribute('aria-invalid', 'true');

    fake.on('POST', LIST, apiError(403, 'BUSINESS_NOT_APPROVED', 'Payers can be added or changed once your business is approved.'));
    await userEvent.click(screen.getByRole('button', { name: 'Add payer' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.some((a) => a.textContent === 'Payers can be added or changed once your business is approved.')).toBe(true);
  });

  it('a viewer is told why, and Add payer is off', async () => {
    open({ business: { role: 'viewer' } });
    expect(await screen.findByText('Your role in this business is view only: you can read and export payers, not add or change them.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add payer' })).toBeDisabled();
  });
});
