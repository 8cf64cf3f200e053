import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Enrollment, Program } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { program } from '../../../test/fixtures';
import { ProgramStudentsPage } from './program-students-page';

const API = `/api/businesses/${BUSINESS_ID}/programs/prg_1`;
const PAGE = '/business/entity/program/students/list';

const piano = program({ enrolledCount: 1, placesLeft: 9 });

const mia: Enrollment = {
  enrollmentId: 'enr_1',
  programId: 'prg_1',
  programName: 'Piano',
  studentId: 'stu_1',
  studentNumber: 'S-001',
  studentName: 'Mia Lopez',
  grade: '5',
  guardian: { payerId: 'pyr_1', name: 'Gina Lopez', email: 'gina@families.example' },
  startDate: '2026-09-15',
  endDate: null,
  status: 'active',
  createdAt: '2026-09-01T10:00:00.000Z',
};

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(piano));
  fake.on('GET', `${API}/enrollments`, ok({ items: [mia], page: 1, pageSize: 25, total: 1 }));
});

const open = () => renderAt(`${PAGE}?programId=prg_1`, { [PAGE]: <ProgramStudentsPage />, '/business/entity/program/students/enroll': <p>Enroll page</p> });

describe("a program's students", () => {
  it('shows the program, places left and each student with guardian and dates', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Piano' })).toBeInTheDocument();
    expect(screen.getByText(/9 places left/)).toBeInTheDocument();
    const row = (await screen.findByText('Mia Lopez')).closest('tr')!;
    expect(within(row).getByText('S-001')).toBeInTheDocument();
    expect(within(row).getByText('gina@families.example')).toBeInTheDocument();
    expect(within(row).getByText('Sep 15, 2026')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Enroll students' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/program/students/enroll?programId=prg_1'));
  });

  it('withdraws a student after asking for the end date', async () => {
    fake.on('POST', `${API}/enrollments/enr_1/withdraw`, ok({ ...mia, status: 'Withdrawn', endDate: '2026-10-31' }));
    open();
    const u = userEvent.setup();
    const row = (await screen.findByText('Mia Lopez')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: 'Row actions' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Mia Lopez?' });
    expect(fake.callsTo('POST', `${API}/enrollments/enr_1/withdraw`)).toHaveLength(0);
    const end = within(dialog).getByLabelText(/^End date/);
    await u.clear(end);
    await u.type(end, '2026-10-31');
    await u.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Student withdrawn')).toBeInTheDocument();
    expect(fake.callsTo('POST', `${API}/enrollments/enr_1/withdraw`)[0]!.body).toEqual({ endDate: '2026-10-31' });
  });

  it('filters by status through the API', async () => {
    open();
    await screen.findByText('Mia Lopez');
    const u = userEvent.setup();
    await u.click(screen.getAllByLabelText('Status').find((el) => el.tagName === 'INPUT')!);
    await u.click(await screen.findByRole('option', { name: 'Withdrawn' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/enrollments`).at(-1)!.url.searchParams.get('status')).toBe('Withdrawn'));
  });
});

describe('the students page opened without a program', () => {
  const PROGRAMS = `/api/businesses/${BUSINESS_ID}/programs`;
  const openBare = () =>
    renderAt(PAGE, {
      [PAGE]: <ProgramStudentsPage />,
      '/business/entity/program': <p>Programs list</p>,
      '/business/entity/program/manage': <p>Program form</p>,
    });

  it('shows its heading and the programs to choose from; choosing one opens its students', async () => {
    const violin: Program = { ...piano, programId: 'prg_2', name: 'Violin', status: 'Disabled' };
    fake.on('GET', PROGRAMS, ok({ items: [piano, violin], page: 1, pageSize: 100, total: 2 }));
    openBare();
    expect(await screen.findByRole('heading', { name: 'Program students', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('No program chosen')).toBeNull();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('combobox', { name: 'Program' }));
    expect(await screen.findByRole('option', { name: 'Violin (disabled)' })).toBeInTheDocument();
    await u.click(screen.getByRole('option', { name: 'Piano' }));
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}?programId=prg_1`));
    // Every program, by name.
    expect(Object.fromEntries(fake.callsTo('GET', PROGRAMS)[0]!.url.searchParams)).toMatchObject({ sortBy: 'name', sortDirection: 'asc', pageSize: '100' });
    expect(await screen.findByText('Mia Lopez')).toBeInTheDocument();
  });

  it('with no programs says how to create one', async () => {
    fake.on('GET', PROGRAMS, ok({ items: [], page: 1, pageSize: 100, total: 0 }));
    openBare();
    expect(await screen.findByText('No programs yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a program' })).toHaveAttribute('href', '/business/entity/program/manage');
    expect(screen.getByRole('link', { name: 'Manage Programs' })).toHaveAttribute('href', '/business/entity/program');
  });
});
