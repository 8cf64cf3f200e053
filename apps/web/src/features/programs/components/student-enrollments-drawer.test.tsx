import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Enrollment, Program } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { StudentEnrollmentsDrawer } from './student-enrollments-drawer';

const STUDENT_API = `/api/businesses/${BUSINESS_ID}/students/stu_1/enrollments`;
const PROGRAMS_API = `/api/businesses/${BUSINESS_ID}/programs`;

const enrollment = (over: Partial<Enrollment> = {}): Enrollment => ({
  enrollmentId: 'enr_1',
  programId: 'prg_1',
  programName: 'Piano',
  studentId: 'stu_1',
  studentNumber: 'S-1',
  studentName: 'Mia Lopez',
  grade: '5',
  guardian: null,
  startDate: '2026-09-01',
  endDate: null,
  status: 'active',
  createdAt: '2026-09-01T10:00:00.000Z',
  ...over,
});

const program = (id: string, name: string, over: Partial<Program> = {}): Program => ({
  programId: id,
  name,
  description: '',
  feeCents: 5_000,
  frequency: 'monthly',
  startDate: '2026-01-01',
  endDate: null,
  capacity: null,
  prorate: false,
  status: 'active',
  enrolledCount: 0,
  placesLeft: null,
  createdAt: '2026-08-01T10:00:00.000Z',
  actions: ['Edit', 'Students', 'Enroll', 'Deactivate'],
  ...over,
});

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on(
    'GET',
    STUDENT_API,
    ok({ items: [enrollment(), enrollment({ enrollmentId: 'enr_0', programId: 'prg_0', programName: 'Choir', status: 'Withdrawn', endDate: '2026-08-31' })] }),
  );
  fake.on('GET', PROGRAMS_API, ok({ items: [program('prg_1', 'Piano'), program('prg_2', 'Drums')], page: 1, pageSize: 100, total: 2 }));
});

const open = () =>
  renderAt('/business/entity/students', {
    '/business/entity/students': <StudentEnrollmentsDrawer businessId={BUSINESS_ID} student={{ studentId: 'stu_1', name: 'Mia Lopez' }} onClose={() => {}} />,
  });

describe('the enrollments drawer', () => {
  it("lists the student's enrollments, and enrolls them in another program", async () => {
    fake.on('POST', STUDENT_API, {
      status: 201,
      json: { status: 'Success', data: enrollment({ enrollmentId: 'enr_2', programId: 'prg_2', programName: 'Drums' }) },
    });
    open();
    const table = await screen.findByRole('table', { name: 'Enrollments of Mia Lopez' });
    expect(within(table).getByText('Piano')).toBeInTheDocument();
    expect(within(table).getByText('Aug 31, 2026')).toBeInTheDocument();
    expect(within(table).getByText('Withdrawn')).toBeInTheDocument();

    const u = userEvent.setup();
    await u.click(screen.getAllByLabelText(/^Program/).find((el) => el.tagName === 'INPUT')!);
    expect(await screen.findByRole('option', { name: /Piano .* — enrolled/ })).toHaveAttribute('data-combobox-disabled', 'true');
    await u.click(await screen.findByRole('option', { name: /^Drums/ }));
    const start = screen.getByLabelText(/^Start date/);
    await u.clear(start);
    await u.type(start, '2026-10-01');
    await u.click(screen.getByRole('button', { name: 'Enroll' }));
    expect(await screen.findByText('Student enrolled')).toBeInTheDocument();
    expect(fake.callsTo('POST', STUDENT_API)[0]!.body).toEqual({ programId: 'prg_2', startDate: '2026-10-01' });
  });

  it('shows a refusal on the program field', async () => {
    fake.on(
      'POST',
      STUDENT_API,
      apiError(409, 'CONFLICT', 'Drums has 0 places left; 1 student was chosen.', { programId: 'Drums has 0 places left; 1 student was chosen.' }),
    );
    open();
    const u = userEvent.setup();
    await screen.findByRole('table', { name: 'Enrollments of Mia Lopez' });
    await u.click(screen.getAllByLabelText(/^Program/).find((el) => el.tagName === 'INPUT')!);
    await u.click(await screen.findByRole('option', { name: /^Drums/ }));
    await u.click(screen.getByRole('button', { name: 'Enroll' }));
    expect(await screen.findByText('Drums has 0 places left; 1 student was chosen.')).toBeInTheDocument();
  });

  it('withdraws after asking for the end date', async () => {
    fake.on('POST', `${PROGRAMS_API}/prg_1/enrollments/enr_1/withdraw`, ok(enrollment({ status: 'Withdrawn', endDate: '2026-09-30' })));
    open();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Withdraw from Piano' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Mia Lopez?' });
    const end = within(dialog).getByLabelText(/^End date/);
    await u.clear(end);
    await u.type(end, '2026-08-30');
    await u.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await within(dialog).findByText(/on or after Aug 31, 2026/)).toBeInTheDocument();
    expect(fake.callsTo('POST', `${PROGRAMS_API}/prg_1/enrollments/enr_1/withdraw`)).toHaveLength(0);
    await u.clear(end);
    await u.type(end, '2026-09-30');
    await u.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Student withdrawn')).toBeInTheDocument();
    await waitFor(() => expect(fake.callsTo('POST', `${PROGRAMS_API}/prg_1/enrollments/enr_1/withdraw`)[0]!.body).toEqual({ endDate: '2026-09-30' }));
  });
});
