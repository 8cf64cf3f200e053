import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PatientView } from '@tay/contract';
import { patient } from '../../../test/fixtures';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { PatientFormPage } from './patient-form-page';

const API = `/api/businesses/${BUSINESS_ID}/healthcare-clients`;
const ADD = '/business/healthcare-clients/add';
const EDIT = '/business/healthcare-clients/edit';
const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };

const existing = patient({ actions: ['Edit'] });

const view = (over: Partial<PatientView> = {}): PatientView => ({
  viewId: '2',
  userId: 'usr_1',
  actor: 'Owner Person (owner@clinic.example)',
  what: 'edit',
  viewedAt: '2026-11-20T15:30:00.000Z',
  ipAddress: null,
  ...over,
});

const fake = fakeApiPerTest();

const open = (path: string) =>
  renderAt(path, { [ADD]: <PatientFormPage />, [EDIT]: <PatientFormPage />, '/business/healthcare-clients': <p>Patients list</p> }, { business: clinic });

describe('the patient form', () => {
  it('names what is missing before sending anything', async () => {
    open(ADD);
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add patient' }));
    expect(await screen.findByText('Enter the patient id (MRN).')).toBeInTheDocument();
    expect(screen.getByText('Enter the first name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the last name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the date of birth.')).toBeInTheDocument();
    expect(screen.getByText("Enter the patient's e-mail address, or choose an existing payer.")).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
  });

  it('adds a patient who pays for themself; a taken MRN shows on its field', async () => {
    fake.on(
      'POST',
      API,
      apiError(409, 'CONFLICT', 'The MRN M-1 is taken by another patient.', { mrn: 'Another patient of this practice already has the MRN M-1.' }),
    );
    open(ADD);
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^MRN/), 'M-1');
    await u.type(screen.getByLabelText(/^First name/), 'Ana');
    await u.type(screen.getByLabelText(/^Last name/), 'Lopez');
    await u.type(screen.getByLabelText(/^Date of birth/), '1984-05-31');
    await u.type(screen.getByLabelText(/Patient's e-mail/), 'ana@patients.example');
    await u.type(screen.getByLabelText(/Patient's mobile number/), '(415) 555-0123');
    await u.click(screen.getByRole('button', { name: 'Add patient' }));
    expect(await screen.findByText('Another patient of this practice already has the MRN M-1.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      mrn: 'M-1',
      firstName: 'Ana',
      lastName: 'Lopez',
      dateOfBirth: '1984-05-31',
      guarantor: { relationship: 'self', email: 'ana@patients.example', mobile: '+14155550123' },
    });
  });

  it('adds a patient billed to a new person, asking who they are to the patient', async () => {
    fake.on('POST', API, ok({ ...existing, clientId: 'pat_9' }));
    open(ADD);
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^MRN/), 'M-2');
    await u.type(screen.getByLabelText(/^First name/), 'Leo');
    await u.type(screen.getByLabelText(/^Last name/), 'Lee');
    await u.type(screen.getByLabelText(/^Date of birth/), '2016-04-02');
    await u.click(screen.getByText('Another person'));
    await u.click(screen.getByRole('button', { name: 'Add patient' }));
    expect(await screen.findByText('Choose who the guarantor is to the patient.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
    await u.click(screen.getAllByLabelText(/^Who the guarantor is to the patient/).find((el) => el.tagName === 'INPUT')!);
    await u.click(await screen.findByRole('option', { name: 'Parent' }));
    await u.type(screen.getByLabelText(/Guarantor: first name/), 'Sam');
    await u.type(screen.getByLabelText(/Guarantor: last name/), 'Lee');
    await u.type(screen.getByLabelText(/Guarantor: e-mail/), 'sam@patients.example');
    await u.click(screen.getByRole('button', { name: 'Add patient' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/healthcare-clients'));
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      mrn: 'M-2',
      firstName: 'Leo',
      lastName: 'Lee',
      dateOfBirth: '2016-04-02',
      guarantor: { relationship: 'parent', firstName: 'Sam', lastName: 'Lee', email: 'sam@patients.example', mobile: null },
    });
    expect(await screen.findByText('Patient added')).toBeInTheDocument();
  });

  it('refuses a date of birth in the future', async () => {
    open(ADD);
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Date of birth/), '2999-01-01');
    await u.click(screen.getByRole('button', { name: 'Add patient' }));
    expect(await screen.findByText('The date of birth cannot be in the future.')).toBeInTheDocument();
  });

  it('opens the full record once (an audited edit view), lists who viewed it, and saves keeping the guarantor', async () => {
    fake.on('GET', `${API}/pat_1`, ok(existing));
    fake.on(
      'GET',
      `${API}/pat_1/views`,
      ok({ items: [view(), view({ viewId: '1', actor: 'ana@clinic.example', what: 'record' })], page: 1, pageSize: 10, total: 2 }),
    );
    fake.on('PATCH', `${API}/pat_1`, ok({ ...existing, firstName: 'Leon' }));
    open(`${EDIT}?clientId=pat_1`);
    const u = userEvent.setup();
    const first = await screen.findByLabelText(/^First name/);
    expect(first).toHaveValue('Leo');
    expect(screen.getByLabelText(/^Date of birth/)).toHaveValue('2016-04-02');
    expect(screen.getByLabelText(/Guarantor: payer/)).toHaveValue('Sam Lee');
    expect(fake.callsTo('GET', `${API}/pat_1`)[0]!.url.searchParams.get('purpose')).toBe('edit');

    const views = await screen.findByRole('region', { name: 'Record views' });
    expect(views).toBeInTheDocument();
    expect(screen.getByText(/Every view of this patient's record is recorded/)).toBeInTheDocument();
    expect(await screen.findByText('Owner Person (owner@clinic.example)')).toBeInTheDocument();
    expect(screen.getByText('Opened the edit form')).toBeInTheDocument();
    expect(screen.getByText('Viewed the record')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();

    await u.clear(first);
    await u.type(first, 'Leon');
    await u.click(screen.getByRole('button', { name: 'Save patient' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/healthcare-clients'));
    expect(fake.callsTo('PATCH', `${API}/pat_1`)[0]!.body).toEqual({
      mrn: 'MRN-1001',
      firstName: 'Leon',
      lastName: 'Lee',
      dateOfBirth: '2016-04-02',
      guarantor: { relationship: 'parent', payerId: 'pyr_1' },
    });
    // The record was read once: saving does not read (and so record) it again.
    expect(fake.callsTo('GET', `${API}/pat_1`)).toHaveLength(1);
  });

  it("says when the patient cannot be loaded (another practice's id is not found)", async () => {
    fake.on('GET', `${API}/pat_x`, apiError(404, 'NOT_FOUND', 'Patient not found.'));
    open(`${EDIT}?clientId=pat_x`);
    expect(await screen.findByText('We could not load this patient')).toBeInTheDocument();
  });
});

describe('the patient form on a phone', () => {
  afterEach(() => vi.restoreAllMocks());
  const switches = () => [screen.getByLabelText('Who pays for the patient'), screen.getByLabelText('An existing payer or a new one')];

  it('stacks the options of both guarantor switches across the width, so none is cut off', async () => {
    const real = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ ...real(query), matches: query === '(max-width: 47.99em)' }));
    open(ADD);
    await screen.findByRole('button', { name: 'Add patient' });
    for (const control of switches()) {
      expect(control).toHaveAttribute('data-orientation', 'vertical');
      expect(control).toHaveAttribute('data-full-width', 'true');
    }
  });

  it('keeps them side by side on a wider screen', async () => {
    open(ADD);
    await screen.findByRole('button', { name: 'Add patient' });
    for (const control of switches()) expect(control).toHaveAttribute('data-orientation', 'horizontal');
  });
});
