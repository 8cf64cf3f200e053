import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EnrollCandidate } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt, shownLocation } from '../../../test/page-harness';
import { program } from '../../../test/fixtures';
import { ProgramEnrollPage } from './program-enroll-page';

const API = `/api/businesses/${BUSINESS_ID}/programs/prg_1`;
const PAGE = '/business/entity/program/students/enroll';

const piano = program({ startDate: '2026-01-01', capacity: 3, enrolledCount: 1, placesLeft: 2 });

const candidate = (id: string, name: string, over: Partial<EnrollCandidate> = {}): EnrollCandidate => ({
  studentId: id,
  studentNumber: id.toUpperCase(),
  name,
  grade: '5',
  status: 'active',
  enrolled: false,
  guardian: null,
  ...over,
});

const students = [
  candidate('s1', 'Ana Adams'),
  candidate('s2', 'Ben Brown'),
  candidate('s3', 'Cy Cole', { enrolled: true }),
  candidate('s4', 'Dee Diaz', { status: 'Disabled' }),
];

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', API, ok(piano));
  fake.on('GET', `${API}/enrollments/candidates`, ok({ items: students, page: 1, pageSize: 25, total: 4, grades: ['5', '6'] }));
});

const open = () => renderAt(`${PAGE}?programId=prg_1`, { [PAGE]: <ProgramEnrollPage />, '/business/entity/program/students/list': <p>Program students</p> });

describe('enrolling students in a program', () => {
  it('shows places left; "select all on this page" picks only the students who can be enrolled; enrolls them with the start date', async () => {
    fake.on('POST', `${API}/enrollments`, { status: 201, json: { status: 'Success', data: { enrolled: 2, program: piano, enrollments: [] } } });
    open();
    expect(await screen.findByText('2 places left')).toBeInTheDocument();
    expect(await screen.findByText('Ana Adams')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Cy Cole' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select Dee Diaz' })).toBeDisabled();

    const u = userEvent.setup();
    await u.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByText('2 students selected')).toBeInTheDocument();
    const start = screen.getByLabelText(/^Start date/);
    await u.clear(start);
    await u.type(start, '2026-09-15');
    await u.click(screen.getByRole('button', { name: 'Enroll 2 students' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/entity/program/students/list?programId=prg_1'));
    expect(fake.callsTo('POST', `${API}/enrollments`)[0]!.body).toEqual({ studentIds: ['s1', 's2'], startDate: '2026-09-15' });
    expect(await screen.findByText('Students enrolled')).toBeInTheDocument();
  });

  it('will not send more students than places left', async () => {
    fake.on('GET', API, ok({ ...piano, placesLeft: 1, enrolledCount: 2 }));
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('checkbox', { name: 'Select Ana Adams' }));
    await u.click(screen.getByRole('checkbox', { name: 'Select Ben Brown' }));
    expect(screen.getByText('Piano has 1 place left; 2 students are selected.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enroll 2 students' })).toBeDisabled();
  });

  it('names each refused student beside them, and enrolls nobody', async () => {
    fake.on(
      'POST',
      `${API}/enrollments`,
      apiError(409, 'CONFLICT', '1 of the 2 chosen students cannot be enrolled in Piano; nobody was enrolled.', {
        'studentIds.1': 'Ben Brown (S2) is already enrolled in Piano.',
      }),
    );
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('checkbox', { name: 'Select Ana Adams' }));
    await u.click(screen.getByRole('checkbox', { name: 'Select Ben Brown' }));
    await u.click(screen.getByRole('button', { name: 'Enroll 2 students' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Nobody was enrolled')).toBeInTheDocument();
    expect(within(alert).getByText('Ben Brown (S2) is already enrolled in Piano.')).toBeInTheDocument();
    const row = screen.getByText('Ben Brown').closest('tr')!;
    expect(within(row).getByText('Ben Brown (S2) is already enrolled in Piano.')).toBeInTheDocument();
    expect(shownLocation()).toBe(`${PAGE}?programId=prg_1`);
  });

  it('shows a start date outside the program on the date field', async () => {
    fake.on(
      'POST',
      `${API}/enrollments`,
      apiError(400, 'VALIDATION_FAILED', 'Piano starts on Jan 01, 2026; an enrollment cannot start before it.', {
        startDate: 'The start date must be on or after Jan 01, 2026, when Piano starts.',
      }),
    );
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('checkbox', { name: 'Select Ana Adams' }));
    await u.click(screen.getByRole('button', { name: 'Enroll 1 student' }));
    expect(await screen.findByText('The start date must be on or after Jan 01, 2026, when Piano starts.')).toBeInTheDocument();
  });

  it('filters by grade through the API', async () => {
    open();
    await screen.findByText('Ana Adams');
    const u = userEvent.setup();
    await u.click(screen.getAllByLabelText('Grade').find((el) => el.tagName === 'INPUT')!);
    await u.click(await screen.findByRole('option', { name: '6' }));
    await waitFor(() => expect(fake.callsTo('GET', `${API}/enrollments/candidates`).at(-1)!.url.searchParams.get('grade')).toBe('6'));
  });
});

describe('enrolling opened without a program', () => {
  const PROGRAMS = `/api/businesses/${BUSINESS_ID}/programs`;
  const openBare = () => renderAt(PAGE, { [PAGE]: <ProgramEnrollPage />, '/business/entity/program/manage': <p>Program form</p> });

  it('shows its heading and the active programs; choosing one opens its enrollment', async () => {
    fake.on('GET', PROGRAMS, ok({ items: [piano], page: 1, pageSize: 100, total: 1 }));
    openBare();
    expect(await screen.findByRole('heading', { name: 'Enroll students', level: 1 })).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('combobox', { name: 'Program' }));
    await u.click(await screen.findByRole('option', { name: 'Piano' }));
    await waitFor(() => expect(shownLocation()).toBe(`${PAGE}?programId=prg_1`));
    // Only programs that take enrollments are offered.
    expect(fake.callsTo('GET', PROGRAMS)[0]!.url.searchParams.get('status')).toBe('active');
    expect(await screen.findByRole('heading', { name: 'Enroll in Piano' })).toBeInTheDocument();
  });

  it('with no active program says how to add or activate one', async () => {
    fake.on('GET', PROGRAMS, ok({ items: [], page: 1, pageSize: 100, total: 0 }));
    openBare();
    expect(await screen.findByText('No active programs')).toBeInTheDocument();
    expect(screen.getByText(/Add a program in Manage Programs, or activate one there/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a program' })).toHaveAttribute('href', '/business/entity/program/manage');
  });
});
