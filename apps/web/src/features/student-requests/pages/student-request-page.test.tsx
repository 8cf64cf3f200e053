import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Student } from '@tay/contract';
import { approvedBusiness, request } from '../../../test/fixtures';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation, answerBusiness } from '../../../test/page-harness';
import { StudentRequestPage } from './student-request-page';

const STUDENTS = `/api/businesses/${BUSINESS_ID}/students`;

function student(over: Partial<Student> = {}): Student {
  return {
    studentId: 'stu_mia',
    studentNumber: 'S-1001',
    firstName: 'Mia',
    lastName: 'Lopez',
    name: 'Mia Lopez',
    grade: 'Year 5',
    dateOfBirth: null,
    status: 'active',
    guardians: [
      {
        payerId: 'pyr_ana',
        position: 1,
        name: 'Ana Lopez',
        firstName: 'Ana',
        lastName: 'Lopez',
        email: 'ana@families.example',
        mobile: null,
        status: 'active',
      },
      {
        payerId: 'pyr_raul',
        position: 2,
        name: 'Raul Lopez',
        firstName: 'Raul',
        lastName: 'Lopez',
        email: 'raul@families.example',
        mobile: null,
        status: 'active',
      },
    ],
    enrollments: [
      { enrollmentId: 'enr_1', programId: 'prg_piano', programName: 'Piano', startDate: '2026-09-01', endDate: null, status: 'active' },
      { enrollmentId: 'enr_2', programId: 'prg_old', programName: 'Old choir', startDate: '2025-09-01', endDate: '2026-06-30', status: 'Withdrawn' },
    ],
    programs: ['Piano'],
    requestsCount: 0,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    actions: [],
    ...over,
  };
}

const fake = fakeApiPerTest();
beforeEach(() => {
  answerBusiness(fake, approvedBusiness());
  fake.on('GET', STUDENTS, ok({ items: [student()], page: 1, pageSize: 20, total: 1, grades: ['Year 5'] }));
  fake.on('GET', `${STUDENTS}/stu_mia`, ok(student()));
});

function open(path: string) {
  return renderAt(path, {
    '/business/entity/students/payment/request': <StudentRequestPage />,
    '/business/entity/billing/students': <StudentRequestPage />,
    '/business/entity/billing/transactions': <p>Billing transactions</p>,
    '/business/payment/transactions/draft': <p>Drafts</p>,
  });
}

describe('Request to Pay Single Student', () => {
  it('?studentId= preselects the student: bills both guardians for a program and month, then opens the request in the billing history', async () => {
    fake.on('POST', `${STUDENTS}/stu_mia/payment-requests`, {
      status: 201,
      json: {
        status: 'Success',
        data: request({ transactionId: 'req_new', payerName: 'Ana Lopez', student: { studentId: 'stu_mia', name: 'Mia Lopez' }, period: 'December 2026' }),
      },
    });
    open('/business/entity/students/payment/request?entity=true&studentId=stu_mia');
    expect(await screen.findByRole('heading', { level: 1, name: 'Request to Pay Single Student' })).toBeInTheDocument();
    expect(screen.getByText('Requesting Payments')).toBeInTheDocument();
    expect(await screen.findByLabelText(/The guardian: Ana Lopez/)).toBeChecked();
    await userEvent.click(screen.getByLabelText(/Both guardians: Ana Lopez and Raul Lopez/));
    // Only the programs the student is enrolled in now.
    await userEvent.click(screen.getByLabelText('Program (optional)', { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Piano' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Old choir' })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'Piano' }));
    await userEvent.type(screen.getByLabelText(/Period/), '2026-12');
    expect(screen.getByLabelText(/Period/)).toHaveValue('2026-12');
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '125.00');
    await userEvent.type(screen.getByLabelText(/Memo/), 'December lessons');
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(fake.callsTo('POST', `${STUDENTS}/stu_mia/payment-requests`)).toHaveLength(1));
    const [call] = fake.callsTo('POST', `${STUDENTS}/stu_mia/payment-requests`);
    expect(call!.body).toMatchObject({
      amountCents: 12_500,
      billTo: 'both',
      programId: 'prg_piano',
      memo: 'December lessons',
      mode: 'send',
      channel: 'email',
      period: '2026-12',
    });
    expect(call!.headers['Idempotency-Key']).toBeTruthy();
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/billing/transactions?transid=req_new'));
  });

  it('chooses the student by typing; billing both is not offered for a student with one guardian', async () => {
    const single = student({ guardians: [student().guardians[0]!] });
    fake.on('GET', `${STUDENTS}/stu_mia`, ok(single));
    open('/business/entity/billing/students');
    await userEvent.type(await screen.findByLabelText('Student', { selector: 'input' }), 'Mia');
    // The server searches what was typed.
    await waitFor(() => expect(fake.calls.some((c) => c.url.searchParams.get('search') === 'Mia')).toBe(true));
    await userEvent.click(await screen.findByRole('option', { name: 'Mia Lopez (S-1001)' }));
    expect(await screen.findByLabelText(/Both guardians/)).toBeDisabled();
    expect(screen.getByText('This student has one guardian.')).toBeInTheDocument();
  });

  it('names each missing field before anything is sent, and shows the API’s refusal on its field', async () => {
    fake.on('POST', `${STUDENTS}/stu_mia/payment-requests`, {
      status: 400,
      json: {
        status: 'Error',
        errorDetails: {
          code: 'VALIDATION_FAILED',
          message: 'Mia Lopez is not enrolled in that program.',
          fields: { programId: 'Choose a program the student is enrolled in.' },
        },
      },
    });
    open('/business/entity/billing/students');
    await userEvent.click(await screen.findByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Choose a student.')).toBeInTheDocument();
    expect(screen.getByText('Enter an amount like 125.00.')).toBeInTheDocument();
    expect(fake.callsTo('POST', /payment-requests$/)).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Student', { selector: 'input' }), 'Mia');
    await userEvent.click(await screen.findByRole('option', { name: 'Mia Lopez (S-1001)' }));
    await screen.findByLabelText(/The guardian: Ana Lopez/);
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '40');
    await userEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText('Choose a program the student is enrolled in.')).toBeInTheDocument();
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Mia Lopez is not enrolled in that program.'))).toBe(true);
  });
});
