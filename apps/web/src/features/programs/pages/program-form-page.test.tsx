import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { program } from '../../../test/fixtures';
import { checkProgram, emptyProgramValues, ProgramFormPage } from './program-form-page';

const API = `/api/businesses/${BUSINESS_ID}/programs`;
const PAGE = '/business/entity/program/manage';

const saved = program({ feeCents: 12_050, frequency: 'term', capacity: 12, prorate: false, enrolledCount: 4, placesLeft: 8 });

const fake = fakeApiPerTest();

const open = (path = PAGE) => renderAt(path, { [PAGE]: <ProgramFormPage />, '/business/entity/program': <p>Programs list</p> });

describe('checkProgram', () => {
  it('names each missing or wrong field, as the API would', () => {
    const result = checkProgram({ ...emptyProgramValues(), fee: '12.345', capacity: '0', startDate: '2026-09-01', endDate: '2026-08-01' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      name: 'Enter the program name.',
      feeCents: 'Enter the fee as an amount, such as 120.00.',
      capacity: 'The capacity must be at least 1, or empty for no limit.',
      endDate: 'The end date cannot be before the start date.',
    });
  });

  it('turns the typed fee into cents and empty dates and capacity into null', () => {
    const result = checkProgram({ ...emptyProgramValues(), name: ' Piano ', fee: '1,200.5', startDate: '2026-09-01' });
    expect(result).toEqual({
      ok: true,
      body: expect.objectContaining({ name: ' Piano ', feeCents: 120_050, endDate: null, capacity: null, frequency: 'monthly', prorate: false }),
    });
  });
});

describe('the program form', () => {
  it('adds a program with the shared money input, then goes back to the list', async () => {
    fake.on('POST', API, ok(saved));
    open();
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Name/), 'Piano');
    await u.type(screen.getByLabelText(/^Fee/), '120.50');
    await u.click(screen.getByLabelText('Per term'));
    await u.type(screen.getByLabelText(/^Start date/), '2026-09-01');
    await u.type(screen.getByLabelText(/^Capacity/), '12');
    await u.click(screen.getByRole('button', { name: 'Add program' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/program'));
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      name: 'Piano',
      description: '',
      feeCents: 12_050,
      frequency: 'term',
      startDate: '2026-09-01',
      endDate: null,
      capacity: 12,
      prorate: false,
    });
    expect(await screen.findByText('Program added')).toBeInTheDocument();
  });

  it('shows what the form checks before sending anything', async () => {
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add program' }));
    expect(await screen.findByText('Enter the program name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the fee.')).toBeInTheDocument();
    expect(screen.getByText('Enter the start date.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
  });

  it('edits ?programId=, and shows the API refusal on its field', async () => {
    fake.on('GET', `${API}/prg_1`, ok(saved));
    fake.on(
      'PATCH',
      `${API}/prg_1`,
      apiError(400, 'VALIDATION_FAILED', 'Piano has 4 students enrolled, so its capacity cannot be below 4.', {
        capacity: '4 students are enrolled: the capacity must be at least 4, or empty for no limit.',
      }),
    );
    open(`${PAGE}?programId=prg_1`);
    const u = userEvent.setup();
    const name = await screen.findByLabelText(/^Name/);
    expect(name).toHaveValue('Piano');
    expect(screen.getByLabelText(/^Fee/)).toHaveValue('120.50');
    expect(screen.getByText('4 students are enrolled: the capacity cannot go below that.')).toBeInTheDocument();
    const capacity = screen.getByLabelText(/^Capacity/);
    await u.clear(capacity);
    await u.type(capacity, '2');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('4 students are enrolled: the capacity must be at least 4, or empty for no limit.')).toBeInTheDocument();
    expect(fake.callsTo('PATCH', `${API}/prg_1`)[0]!.body).toMatchObject({ capacity: 2, feeCents: 12_050 });
  });
});
