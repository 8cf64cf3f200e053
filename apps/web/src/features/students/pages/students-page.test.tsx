import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Student } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { student as studentRecord } from '../../../test/fixtures';
import { StudentsPage } from './students-page';

const API = `/api/businesses/${BUSINESS_ID}/students`;
const PAGE = '/business/entity/students';
const school = { entities: [{ entityType: 'student', entityTemplateName: 'Student' }] };

const student = (over: Partial<Student> = {}) =>
  studentRecord({ programs: ['Piano'], actions: ['Edit', 'Request to Pay', 'Enrollment', 'Transactions', 'Deactivate', 'Delete'], ...over });

const fake = fakeApiPerTest();

/** Stands in for the programs feature's drawer: says which student it was opened for. */
const enrollments = ({ student, onClose }: { student: { studentId: string; name: string } | null; onClose: () => void }) =>
  student ? (
    <div role="dialog" aria-label="Enrollments">
      Enrollments of {student.name} ({student.studentId})<button onClick={onClose}>Close enrollments</button>
    </div>
  ) : null;

const open = (path = PAGE) =>
  renderAt(
    path,
    {
      [PAGE]: <StudentsPage programs={[{ value: 'prg_1', label: 'Piano' }]} enrollments={enrollments} />,
      '/business/entity/billing/transactions': <p>Billing transactions</p>,
      '/business/entity/students/payment/request': <p>Student request</p>,
      '/business/entity/students/edit': <p>Edit student</p>,
    },
    { business: school },
  );

describe('the students list', () => {
  it('shows each student with guardians and programs, "Showing 1 to 2 of 2 Results", and the row actions', async () => {
    const off = student({
      studentId: 'stu_2',
      name: 'Leo Lee',
      firstName: 'Leo',
      lastName: 'Lee',
      studentNumber: 'S-1002',
      status: 'Disabled',
      programs: [],
      actions: ['Edit', 'Enrollment', 'Transactions', 'Activate'],
    });
    fake.on('GET', API, ok({ items: [student(), off], page: 1, pageSize: 25, total: 2, grades: ['Year 5', 'Year 7'] }));
    open();
    expect(await screen.findByText('Showing 1 to 2 of 2 Results')).toBeInTheDocument();
    const row = screen.getByText('Mia Lopez').closest('tr')!;
    expect(within(row).getByText('ana@families.example')).toBeInTheDocument();
    expect(within(row).getByText('Piano')).toBeInTheDocument();
    expect(within(screen.getByText('Leo Lee').closest('tr')!).getByText('Disabled')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Edit', 'Request to Pay', 'Enrollment', 'Transactions', 'Deactivate', 'Delete']);
    await u.click(screen.getByRole('menuitem', { name: 'Request to Pay' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/students/payment/request?entity=true&studentId=stu_1'));
  });

  it('opens the enrollments of the student from the row action Enrollment, and reloads the list when closed', async () => {
    fake.on('GET', API, ok({ items: [student()], page: 1, pageSize: 25, total: 1, grades: [] }));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Mia Lopez')).closest('tr')!;
    expect(screen.queryByRole('dialog', { name: 'Enrollments' })).toBeNull();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Enrollment' }));
    expect(await screen.findByText('Enrollments of Mia Lopez (stu_1)')).toBeInTheDocument();
    const before = fake.callsTo('GET', API).length;
    await u.click(screen.getByRole('button', { name: 'Close enrollments' }));
    expect(screen.queryByRole('dialog', { name: 'Enrollments' })).toBeNull();
    await waitFor(() => expect(fake.callsTo('GET', API).length).toBeGreaterThan(before));
  });

  it('sends the search, filters and sort to the API from the URL', async () => {
    fake.on('GET', API, ok({ items: [student()], page: 1, pageSize: 25, total: 1, grades: ['Year 5'] }));
    open(`${PAGE}?search=mia&grade=Year%205&programId=prg_1&status=active&sortBy=name&sortDirection=asc`);
    expect(await screen.findByText('Mia Lopez')).toBeInTheDocument();
    const query = fake.callsTo('GET', API).at(-1)!.url.searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      search: 'mia',
      grade: 'Year 5',
      programId: 'prg_1',
      status: 'active',
      sortBy: 'name',
      sortDirection: 'asc',
    });
  });

  it('asks before Delete, then deletes and says so; a refusal is shown', async () => {
    fake.on('GET', API, ok({ items: [student()], page: 1, pageSize: 25, total: 1, grades: [] }));
    fake.on('DELETE', `${API}/stu_1`, apiError(409, 'CONFLICT', 'Mia Lopez has a payment request, so they stay on record with them. Deactivate them instead.'));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Mia Lopez')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(fake.callsTo('DELETE', `${API}/stu_1`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText(/Deactivate them instead/)).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${API}/stu_1`)).toHaveLength(1);
  });

  it('offers a viewer only what changes nothing, and no Add or Import', async () => {
    fake.on('GET', API, ok({ items: [student()], page: 1, pageSize: 25, total: 1, grades: [] }));
    renderAt(PAGE, { [PAGE]: <StudentsPage enrollments={enrollments} /> }, { business: { ...school, role: 'viewer' } });
    const u = userEvent.setup();
    const row = (await screen.findByText('Mia Lopez')).closest('tr')!;
    expect(screen.queryByRole('link', { name: 'Add student' })).toBeNull();
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Enrollment', 'Transactions']);
  });

  it('says when there are no students yet, offering the import', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0, grades: [] }));
    open();
    expect(await screen.findByText('No students yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Import students/ }).length).toBeGreaterThan(0);
  });

  it('says when nothing matches the filters, and clears them', async () => {
    fake.on('GET', API, ok({ items: [], page: 1, pageSize: 25, total: 0, grades: ['Year 5'] }));
    open(`${PAGE}?status=Disabled`);
    expect(await screen.findByText('No students match')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getAllByRole('button', { name: /Clear filters/ })[0]!);
    await waitFor(() => expect(shownLocation()).toBe(PAGE));
  });
});
