import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { student } from '../../../test/fixtures';
import { StudentFormPage } from './student-form-page';

const API = `/api/businesses/${BUSINESS_ID}/students`;
const ADD = '/business/entity/students/add';
const EDIT = '/business/entity/students/edit';
const school = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] };

const existing = student();

const fake = fakeApiPerTest();

const open = (path: string) =>
  renderAt(path, { [ADD]: <StudentFormPage />, [EDIT]: <StudentFormPage />, '/business/entity/students': <p>Students list</p> }, { business: school });

describe('the student form', () => {
  it('names what is missing before sending anything', async () => {
    open(ADD);
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add student' }));
    expect(await screen.findByText('Enter the student id.')).toBeInTheDocument();
    expect(screen.getByText('Enter the first name.')).toBeInTheDocument();
    expect(screen.getByText('Enter the last name.')).toBeInTheDocument();
    expect(screen.getByText('Choose one of your payers, or enter a new guardian.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)).toHaveLength(0);
  });

  it('adds a student with a new guardian, by keyboard-labelled fields; a taken student id shows on its field', async () => {
    fake.on(
      'POST',
      API,
      apiError(409, 'CONFLICT', 'The student id S-1 is taken by another student.', {
        studentNumber: 'Another student of this business already has the student id S-1.',
      }),
    );
    open(ADD);
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/Student id/), 'S-1');
    await u.type(screen.getByLabelText(/^First name/), 'Leo');
    await u.type(screen.getByLabelText(/^Last name/), 'Lee');
    await u.type(screen.getByLabelText(/Grade or group/), 'Year 7');
    await u.click(screen.getByText('A new guardian'));
    await u.type(screen.getByLabelText(/First guardian: first name/), 'Sam');
    await u.type(screen.getByLabelText(/First guardian: last name/), 'Lee');
    await u.type(screen.getByLabelText(/First guardian: e-mail/), 'sam@families.example');
    await u.click(screen.getByRole('button', { name: 'Add student' }));
    expect(await screen.findByText('Another student of this business already has the student id S-1.')).toBeInTheDocument();
    expect(fake.callsTo('POST', API)[0]!.body).toEqual({
      studentNumber: 'S-1',
      firstName: 'Leo',
      lastName: 'Lee',
      grade: 'Year 7',
      dateOfBirth: null,
      guardians: [{ firstName: 'Sam', lastName: 'Lee', email: 'sam@families.example', mobile: null }],
    });
  });

  it('refuses a date of birth in the future', async () => {
    open(ADD);
    const u = userEvent.setup();
    const dob = await screen.findByLabelText(/Date of birth/);
    await u.type(dob, '2999-01-01');
    await u.click(screen.getByRole('button', { name: 'Add student' }));
    expect(await screen.findByText('The date of birth cannot be in the future.')).toBeInTheDocument();
  });

  it('edits a student, keeping the guardian, and adds a second guardian as a new payer', async () => {
    fake.on('GET', `${API}/stu_1`, ok(existing));
    fake.on('PATCH', `${API}/stu_1`, ok({ ...existing, grade: 'Year 6' }));
    open(`${EDIT}?studentId=stu_1`);
    const u = userEvent.setup();
    const grade = await screen.findByLabelText(/Grade or group/);
    expect(grade).toHaveValue('Year 5');
    expect(screen.getByLabelText(/First guardian: payer/)).toHaveValue('Ana Lopez');
    await u.clear(grade);
    await u.type(grade, 'Year 6');
    await u.click(screen.getByRole('button', { name: 'Add a second guardian' }));
    const second = screen.getByRole('group', { name: /Second guardian/ });
    await u.click(within(second).getByText('A new guardian'));
    await u.type(within(second).getByLabelText(/first name/), 'Kim');
    await u.type(within(second).getByLabelText(/last name/), 'Lopez');
    await u.type(within(second).getByLabelText(/e-mail/), 'kim@families.example');
    await u.type(within(second).getByLabelText(/mobile/), '(415) 555-0123');
    await u.click(screen.getByRole('button', { name: 'Save student' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/students'));
    expect(fake.callsTo('PATCH', `${API}/stu_1`)[0]!.body).toEqual({
      studentNumber: 'S-1001',
      firstName: 'Mia',
      lastName: 'Lopez',
      grade: 'Year 6',
      dateOfBirth: '2016-03-14',
      guardians: [{ payerId: 'pyr_1' }, { firstName: 'Kim', lastName: 'Lopez', email: 'kim@families.example', mobile: '+14155550123' }],
    });
    expect(await screen.findByText('Student saved')).toBeInTheDocument();
  });
});
