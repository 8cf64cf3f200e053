import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Patient } from '@tay/contract';
import { approvedBusiness, detail, OFFICE_VISIT, patient as patientRecord, patientStatement, request } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation, answerBusiness } from '../../../test/page-harness';
import { PatientStatementPage } from './patient-statement-page';

const PATIENTS = `/api/businesses/${BUSINESS_ID}/healthcare-clients`;
const STATEMENTS = `${PATIENTS}/pat_ana/statements`;
const REQUESTS = `/api/businesses/${BUSINESS_ID}/payment-requests`;
const PAGE = '/business/healthcare-clients/payment/request';

const patient = (over: Partial<Patient> = {}) =>
  patientRecord({
    clientId: 'pat_ana',
    firstName: 'Ana',
    lastName: 'Lopez',
    name: 'Ana Lopez',
    dateOfBirth: '1987-03-14',
    dateOfBirthMasked: '••/••/1987',
    guarantor: { payerId: 'pyr_raul', name: 'Raul Lopez', email: 'raul@families.example', mobile: null, relationship: 'spouse', status: 'active' },
    statementsCount: 0,
    requestsCount: 0,
    outstandingCents: 0,
    actions: ['Edit', 'Request to Pay', 'Transactions', 'Deactivate'],
    ...over,
  });

const fake = fakeApiPerTest();
beforeEach(() => {
  answerBusiness(fake, approvedBusiness());
  fake.on('GET', PATIENTS, ok({ items: [patient({ dateOfBirth: null })], page: 1, pageSize: 20, total: 1 }));
  fake.on('GET', `${PATIENTS}/pat_ana`, ok(patient()));
});

function open(path: string) {
  return renderAt(path, {
    [PAGE]: <PatientStatementPage />,
    '/business/payment/transactions/history': <p>Transactions history</p>,
    '/business/payment/transactions/draft': <p>Drafts</p>,
  });
}

const line = (n: number) => screen.getByRole('group', { name: `Line ${n}` });

describe('Request to Pay Single Patient', () => {
  it('?clientId= preselects the patient: shows the guarantor, works out each line and the totals live, and sends the statement', async () => {
    fake.on('POST', STATEMENTS, {
      status: 201,
      json: {
        status: 'Success',
        data: request({ transactionId: 'req_new', payerName: 'Raul Lopez', amountCents: 13_500, clientId: 'pat_ana', patientName: 'Ana Lopez' }),
      },
    });
    open(`${PAGE}?entity=true&clientId=pat_ana`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Request to Pay Single Patient' })).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Billed to' })).toHaveTextContent('Raul Lopez (Spouse) · raul@families.example');
    // No date of birth anywhere on the page.
    expect(screen.queryByText(/1987/)).toBeNull();
    // The patient is read for the statement form (no date of birth; a view of the statements), not as the full record.
    const reads = fake.callsTo('GET', `${PATIENTS}/pat_ana`);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.url.searchParams.get('purpose')).toBe('statement');

    await userEvent.clear(screen.getByLabelText('Date of service'));
    await userEvent.type(screen.getByLabelText('Date of service'), '2026-11-20');
    await userEvent.type(within(line(1)).getByLabelText('Description, line 1'), 'Office visit');
    await userEvent.type(within(line(1)).getByLabelText('Billed, line 1'), '200');
    await userEvent.type(within(line(1)).getByLabelText('Insurance paid, line 1'), '120');
    await userEvent.type(within(line(1)).getByLabelText('Adjustment, line 1'), '5');
    expect(within(line(1)).getByLabelText('Patient responsibility, line 1')).toHaveTextContent('$75.00');

    await userEvent.click(screen.getByRole('button', { name: 'Add line' }));
    await userEvent.type(within(line(2)).getByLabelText('Description, line 2'), 'X-ray');
    await userEvent.type(within(line(2)).getByLabelText('Billed, line 2'), '150');
    await userEvent.type(within(line(2)).getByLabelText('Insurance paid, line 2'), '90');
    expect(within(line(2)).getByLabelText('Patient responsibility, line 2')).toHaveTextContent('$60.00');
    expect(screen.getByLabelText('Amount due')).toHaveTextContent('$135.00');

    await userEvent.click(screen.getByRole('switch', { name: /Allow a payment plan/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(fake.callsTo('POST', STATEMENTS)).toHaveLength(1));
    const [call] = fake.callsTo('POST', STATEMENTS);
    expect(call!.body).toMatchObject({
      dateOfService: '2026-11-20',
      lines: [
        { serviceDate: null, description: 'Office visit', billedCents: 20_000, insurancePaidCents: 12_000, adjustmentCents: 500 },
        { serviceDate: null, description: 'X-ray', billedCents: 15_000, insurancePaidCents: 9_000, adjustmentCents: 0 },
      ],
      allowPartial: true,
      mode: 'send',
      channel: 'email',
    });
    expect(call!.body).not.toHaveProperty('amountCents');
    expect(call!.headers['Idempotency-Key']).toBeTruthy();
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/transactions/history?transid=req_new'));
  });

  it('chooses the patient by typing, and removes a line', async () => {
    open(`${PAGE}?entity=true`);
    await userEvent.type(await screen.findByLabelText('Patient', { selector: 'input' }), 'Ana');
    await waitFor(() => expect(fake.calls.some((c) => c.url.pathname === PATIENTS && c.url.searchParams.get('search') === 'Ana')).toBe(true));
    await userEvent.click(await screen.findByRole('option', { name: 'Ana Lopez (MRN-1001)' }));
    expect(await screen.findByRole('alert', { name: 'Billed to' })).toHaveTextContent('Raul Lopez');
    // Picking from the list reads no record (each read of one is an audited view).
    expect(fake.callsTo('GET', `${PATIENTS}/pat_ana`)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Add line' }));
    expect(screen.getAllByRole('group', { name: /^Line \d$/ })).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Remove line 2' }));
    expect(screen.getAllByRole('group', { name: /^Line \d$/ })).toHaveLength(1);
  });

  it('names each missing or wrong field before anything is sent, and shows the API’s refusal on its line and field', async () => {
    fake.on('POST', STATEMENTS, {
      status: 400,
      json: {
        status: 'Error',
        errorDetails: {
          code: 'VALIDATION_FAILED',
          message: 'Line 1: the service date cannot be in the future.',
          fields: { 'lines.0.serviceDate': 'Line 1: choose today or an earlier date.' },
        },
      },
    });
    open(`${PAGE}?entity=true&clientId=pat_ana`);
    await screen.findByRole('alert', { name: 'Billed to' });
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Describe the service.')).toBeInTheDocument();
    expect(screen.getByText('Enter the billed amount, like 120.00.')).toBeInTheDocument();

    await userEvent.type(within(line(1)).getByLabelText('Description, line 1'), 'Cleaning');
    await userEvent.type(within(line(1)).getByLabelText('Billed, line 1'), '100');
    await userEvent.type(within(line(1)).getByLabelText('Insurance paid, line 1'), '80');
    await userEvent.type(within(line(1)).getByLabelText('Adjustment, line 1'), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText(/more than the \$100\.00 billed/)).toBeInTheDocument();

    await userEvent.clear(within(line(1)).getByLabelText('Adjustment, line 1'));
    await userEvent.type(within(line(1)).getByLabelText('Adjustment, line 1'), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText(/owes nothing on this statement/)).toBeInTheDocument();
    expect(fake.callsTo('POST', STATEMENTS)).toHaveLength(0);

    await userEvent.clear(within(line(1)).getByLabelText('Adjustment, line 1'));
    await userEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText('Line 1: choose today or an earlier date.')).toBeInTheDocument();
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Line 1: the service date cannot be in the future.'))).toBe(true);
  });

  it('?copy= starts a new statement from another one: its date of service, lines and fields', async () => {
    const statement = patientStatement([{ ...OFFICE_VISIT, serviceDate: '2026-11-19' }]);
    const source = request({
      transactionId: 'req_old',
      memo: 'Thank you',
      allowPartial: true,
      amountCents: 7_500,
      clientId: 'pat_ana',
      patientName: 'Ana Lopez',
      statement,
    });
    fake.on('GET', `${REQUESTS}/req_old`, ok(detail(source)));
    fake.on('POST', STATEMENTS, { status: 201, json: { status: 'Success', data: request({ transactionId: 'req_copy', transactionState: 'Draft' }) } });
    open(`${PAGE}?entity=true&clientId=pat_ana&copy=req_old`);
    expect(await screen.findByText(new RegExp(`A copy of ${source.referenceNumber}`))).toBeInTheDocument();
    expect(screen.getByLabelText('Date of service')).toHaveValue('2026-11-20');
    expect(within(line(1)).getByLabelText('Description, line 1')).toHaveValue('Office visit');
    expect(within(line(1)).getByLabelText('Billed, line 1')).toHaveValue('200.00');
    expect(screen.getByLabelText('Amount due')).toHaveTextContent('$75.00');
    await userEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(fake.callsTo('POST', STATEMENTS)).toHaveLength(1));
    expect(fake.callsTo('POST', STATEMENTS)[0]!.body).toMatchObject({
      dateOfService: '2026-11-20',
      memo: 'Thank you',
      allowPartial: true,
      mode: 'draft',
      lines: [{ serviceDate: '2026-11-19', description: 'Office visit', billedCents: 20_000, insurancePaidCents: 12_000, adjustmentCents: 500 }],
    });
    await waitFor(() => expect(shownLocation()).toBe('/business/payment/transactions/draft?transid=req_copy'));
  });
});
