import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Patient } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { patient as patientRecord } from '../../../test/fixtures';
import { PatientsPage } from './patients-page';

const API = `/api/businesses/${BUSINESS_ID}/healthcare-clients`;
const PAGE = '/business/healthcare-clients';
const clinic = { entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };

const patient = (over: Partial<Patient> = {}) =>
  patientRecord({
    firstName: 'Ana',
    lastName: 'Lopez',
    name: 'Ana Lopez',
    dateOfBirth: null,
    dateOfBirthMasked: '••/••/1984',
    guarantor: { payerId: 'pyr_1', name: 'Ana Lopez', email: 'ana@patients.example', mobile: null, relationship: 'self', status: 'active' },
    statementsCount: 0,
    requestsCount: 0,
    outstandingCents: 0,
    refundedCents: 0,
    ...over,
  });

const fake = fakeApiPerTest();

const open = (path = PAGE, business: Record<string, unknown> = clinic) =>
  renderAt(
    path,
    {
      [PAGE]: <PatientsPage />,
      '/business/payment/transactions/history': <p>Transactions history</p>,
      '/business/healthcare-clients/payment/request': <p>Patient request</p>,
      '/business/healthcare-clients/edit': <p>Edit patient</p>,
    },
    { business },
  );

describe('the patients list', () => {
  it('shows each patient with the date of birth masked, the guarantor, "Showing 1 to 2 of 2 Results", and the row actions', async () => {
    const leo = patient({
      clientId: 'pat_2',
      name: 'Leo Lee',
      firstName: 'Leo',
      lastName: 'Lee',
      mrn: 'MRN-1002',
      dateOfBirthMasked: '••/••/2016',
      guarantor: { payerId: 'pyr_2', name: 'Sam Lee', email: 'sam@patients.example', mobile: null, relationship: 'parent', status: 'active' },
      status: 'Disabled',
      requestsCount: 2,
      outstandingCents: 4500,
      actions: ['Edit', 'Transactions', 'Activate'],
    });
    fake.on('GET', API, ok({ items: [patient(), leo], page: 1, pageSize: 25, total: 2 }));
    open();
    expect(await screen.findByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Patients' })).toBeInTheDocument();
    const row = screen.getByText('Ana Lopez', { selector: 'a' }).closest('tr')!;
    expect(within(row).getByText('Born ••/••/1984')).toBeInTheDocument();
    expect(within(row).getByText('ana@patients.example')).toBeInTheDocument();
    const leoRow = screen.getByText('Leo Lee').closest('tr')!;
    expect(within(leoRow).getByText('Sam Lee')).toBeInTheDocument();
    expect(within(leoRow).getByText(/Parent/)).toBeInTheDocument();
    expect(within(leoRow).getByText('$45.00')).toBeInTheDocument();
    expect(within(leoRow).getByText('Disabled')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Edit', 'Request to Pay', 'Transactions', 'Deactivate', 'Delete']);
    await u.click(screen.getByRole('menuitem', { name: 'Request to Pay' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/healthcare-clients/payment/request?entity=true&clientId=pat_1'));
  });

  it('opens the transactions history filtered to the patient', async () => {
    fake.on('GET', API, ok({ items: [patient()], page: 1, pageSize: 25, total: 1 }));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Ana Lopez', { selector: 'a' })).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Transactions' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/transactions/history?clientId=pat_1'));
  });

  it('sends the search, filters and sort to the API from the URL', async () => {
    fake.on('GET', API, ok({ items: [patient()], page: 1, pageSize: 25, total: 1 }));
    open(`${PAGE}?search=ana&status=active&relationship=self&sortBy=mrn&sortDirection=asc`);
    expect(await screen.findByText('Ana Lopez', { selector: 'a' })).toBeInTheDocument();
    const query = fake.callsTo('GET', API).at(-1)!.url.searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ search: 'ana', status: 'active', relationship: 'self', sortBy: 'mrn', sortDirection: 'asc' });
  });

  it('asks before Deactivate, then deactivates and says so', async () => {
    fake.on('GET', API, ok({ items: [patient()], page: 1, pageSize: 25, total: 1 }));
    fake.on('POST', `${API}/pat_1/deactivate`, ok(patient({ status: 'Disabled', actions: ['Edit', 'Transactions', 'Activate', 'Delete'] })));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Ana Lopez', { selector: 'a' })).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    expect(fake.callsTo('POST', `${API}/pat_1/deactivate`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, deactivate' }));
    expect(await screen.findByText('Patient deactivated')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/pat_1/deactivate`)).toHaveLength(1);
  });

  it('asks before Delete, then deletes; a refusal is shown', async () => {
    fake.on('GET', API, ok({ items: [patient()], page: 1, pageSize: 25, total: 1 }));
    fake.on('DELETE', `${API}/pat_1`, apiError(409, 'CONFLICT', 'Ana Lopez has a payment request, so they stay on record with them. Deactivate them instead.'));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Ana Lopez', { selector: 'a' })).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(fake.callsTo('DELETE', `${API}/pat_1`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText(/Deactivate them instead/)).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${API}/pat_1`)).toHaveLength(1);
  });

  it('offers a viewer only what changes nothing, and no Add or Import', async () => {
    fake.on('GET', API, ok({ items: [patient()], page: 1, pageSize: 25, total: 1 }));
    open(PAGE, { ...clinic, role: 'viewer' });
    const u = userEvent.setup();
    const row = (await screen.findByText('Ana Lopez', { selector: 'a' })).closest('tr')!;
    expect(screen.queryByRole('link', { name: 'Add patient' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Import patients' })).toBeNull();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Transactions']);
  });

  it('says when there are no patients yet, offering the import and the add', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    open();
    expect(await screen.findByText('No patients yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Import patients/ }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: /Add patient/ }).length).toBeGreaterThan(0);
  });

  it('says when nothing matches the filters, and clears them', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0 }));
    open(`${PAGE}?status=Disabled`);
    expect(await screen.findByText('No patients match')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getAllByRole('button', { name: /Clear filters/ })[0]!);
    await waitFor(() => expect(shownLocation()).toBe(PAGE));
  });

  it('says when the list cannot be loaded', async () => {
    fake.on('GET', API, apiError(500, 'INTERNAL', 'Something went wrong on our side.'));
    open();
    expect(await screen.findByText(/Something went wrong on our side/)).toBeInTheDocument();
  });
});
