import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BillableStudent } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { BulkStudentsPage } from './bulk-students-page';

const PAGE = '/business/entity/billing/bulkstudents';
const REVIEW = '/business/entity/billing/reviewbulkrequest';
const UPLOAD = '/business/entity/billing/bulkstudents/upload';
const STUDENTS = `/api/businesses/${BUSINESS_ID}/student-billing/students`;
const CREATE = `/api/businesses/${BUSINESS_ID}/student-billing`;
const STUDENT = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] } as const;

const student = (id: string, name: string, grade: string): BillableStudent => ({
  studentId: id,
  studentNumber: `S-${id}`,
  name,
  grade,
  guardians: [{ payerId: `pyr_${id}`, name: `Parent of ${name}`, email: `${id}@families.example` }],
  programs: [{ programId: 'prg_piano', name: 'Piano' }],
});

const ALL = [student('s1', 'Mia Lopez', 'Year 5'), student('s2', 'Leo Lee', 'Year 7'), student('s3', 'Ana Park', 'Year 5')];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', STUDENTS, (call) => {
    const grade = call.url.searchParams.get('grade');
    const items = grade ? ALL.filter((s) => s.grade === grade) : ALL;
    return ok({ items, total: items.length, grades: ['Year 5', 'Year 7'], programs: [{ programId: 'prg_piano', name: 'Piano' }] });
  });
});

const open = (role = 'owner') =>
  renderAt(PAGE, { [PAGE]: <BulkStudentsPage />, [REVIEW]: <p>Review page</p>, [UPLOAD]: <p>Upload page</p> }, { business: { ...STUDENT, role } as never });

describe('Request to Pay Multiple Students', () => {
  it('filters by grade, selects all matching, and makes the batch for review', async () => {
    fake.on('POST', CREATE, { status: 201, json: { status: 'Success', data: { batchId: 'bat_7', rows: 2, valid: 2, invalid: 0, totalCents: 5_000 } } });
    open();
    const u = userEvent.setup();
    expect(await screen.findByText('Showing 1 to 3 of 3 Results')).toBeInTheDocument();
    await u.click(screen.getAllByLabelText(/^Grade/).find((el) => el.tagName === 'INPUT')!);
    await u.click(await screen.findByRole('option', { name: 'Year 5', hidden: true }));
    expect(await screen.findByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    expect(fake.callsTo('GET', STUDENTS).at(-1)!.url.searchParams.get('grade')).toBe('Year 5');
    await u.click(screen.getByRole('button', { name: 'Select all 2 matching' }));
    expect(screen.getByText(/2 students picked/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Pick Mia Lopez' })).toBeChecked();

    await u.type(screen.getByRole('textbox', { name: 'Amount' }), '25');
    await u.type(screen.getByRole('textbox', { name: 'Memo' }), 'Field trip');
    await u.click(screen.getByRole('radio', { name: 'Both guardians' }));
    await u.click(screen.getByRole('button', { name: 'Create batch for review' }));
    await waitFor(() => expect(shownLocation()).toBe(`${REVIEW}?batchId=bat_7`));
    const [made] = fake.callsTo('POST', CREATE);
    expect(made!.body).toMatchObject({ studentIds: ['s1', 's3'], amountCents: 2_500, memo: 'Field trip', billTo: 'both' });
    expect(made!.headers['Idempotency-Key']).toBeTruthy();
  });

  it('says what is missing before sending anything, and shows the API refusal', async () => {
    fake.on('POST', CREATE, apiError(400, 'VALIDATION_FAILED', 'The due date cannot be in the past.', { dueDate: 'The due date cannot be in the past.' }));
    open();
    const u = userEvent.setup();
    await screen.findByText('Mia Lopez');
    await u.click(screen.getByRole('button', { name: 'Create batch for review' }));
    expect(await screen.findByText('Enter an amount.')).toBeInTheDocument();
    expect(screen.getByText('Enter what the request is for.')).toBeInTheDocument();
    expect(screen.getAllByText('Pick at least one student.').length).toBeGreaterThan(0);
    expect(fake.callsTo('POST', CREATE)).toHaveLength(0);

    await u.click(screen.getByRole('checkbox', { name: 'Pick Leo Lee' }));
    await u.type(screen.getByRole('textbox', { name: 'Amount' }), '10');
    await u.type(screen.getByRole('textbox', { name: 'Memo' }), 'Books');
    await u.click(screen.getByRole('button', { name: 'Create batch for review' }));
    expect(await screen.findAllByText('The due date cannot be in the past.')).toHaveLength(2);
  });

  it('offers the CSV upload, and a viewer cannot make a batch', async () => {
    open('viewer');
    await screen.findByText('Mia Lopez');
    expect(screen.queryByRole('link', { name: 'Upload a CSV' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create batch for review' })).toBeDisabled();
  });

  it('the upload button goes to the upload step of the same flow', async () => {
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('link', { name: 'Upload a CSV' }));
    await waitFor(() => expect(shownLocation()).toBe(UPLOAD));
  });
});
