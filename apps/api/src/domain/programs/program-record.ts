import type { Selectable } from 'kysely';
import { ErrorCode, placesLeft, programActions, type Enrollment, type Program } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { ProgramsTable } from '../../db/schema/students';
import { AppError } from '../../lib/app-error';
import type { ActingUser } from '../payment-requests/request-context';
import type { Actor } from '../businesses/audit';

export type ProgramRow = Selectable<ProgramsTable>;

export const auditActor = (user: ActingUser): Actor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

export function toProgram(row: ProgramRow, enrollmentsEver: number): Program {
  const enrolledCount = Number(row.enrolled_count);
  const capacity = row.capacity === null ? null : Number(row.capacity);
  return {
    programId: row.id,
    name: row.name,
    description: row.description,
    feeCents: Number(row.fee_cents),
    frequency: row.frequency,
    startDate: row.start_date,
    endDate: row.end_date,
    capacity,
    prorate: row.prorate,
    status: row.status,
    enrolledCount,
    placesLeft: placesLeft(capacity, enrolledCount),
    createdAt: row.created_at.toISOString(),
    actions: programActions(row.status, enrollmentsEver),
  };
}

/** One program of the business; another business's id is 404, as an unknown one. */
export async function selectProgram(db: Executor, businessId: string, programId: string, { lock = false } = {}): Promise<ProgramRow> {
  let query = db.selectFrom('programs').selectAll().where('business_id', '=', businessId).where('id', '=', programId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('Program');
  return row;
}

/** How many enrollments (active or withdrawn) name the program: Delete only at 0. */
export async function enrollmentsEverOf(db: Executor, businessId: string, programId: string): Promise<number> {
  const row = await db
    .selectFrom('enrollments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('program_id', '=', programId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function loadProgram(db: Executor, businessId: string, programId: string): Promise<Program> {
  const row = await selectProgram(db, businessId, programId);
  return toProgram(row, await enrollmentsEverOf(db, businessId, programId));
}

export const DUPLICATE_PROGRAM_NAME = 'You already have a program with this name.';

/** Refuses a name another program of the business has (case-insensitive). */
export async function assertUniqueProgramName(db: Executor, businessId: string, name: string, exceptId?: string): Promise<void> {
  let query = db
    .selectFrom('programs')
    .select('id')
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw duplicateName();
}

function duplicateName(): AppError {
  return new AppError(ErrorCode.Conflict, 'This business already has a program with this name.', { name: DUPLICATE_PROGRAM_NAME });
}

/** A unique-index violation (a concurrent twin got there first) as the same 409. */
export function programDuplicateFromViolation(error: unknown): AppError | null {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'programs_name_key' ? duplicateName() : null;
}

/* ------------------------------------------------------------ enrollments */

/** Enrollments with their student, first guardian and program, as the lists show them. */
export function enrollmentsQuery(db: Executor, businessId: string) {
  return db
    .selectFrom('enrollments as en')
    .innerJoin('students as s', (j) => j.onRef('s.business_id', '=', 'en.business_id').onRef('s.id', '=', 'en.student_id'))
    .innerJoin('programs as p', (j) => j.onRef('p.business_id', '=', 'en.business_id').onRef('p.id', '=', 'en.program_id'))
    .leftJoin('student_guardians as g', (j) =>
      j.onRef('g.business_id', '=', 'en.business_id').onRef('g.student_id', '=', 'en.student_id').on('g.position', '=', 1),
    )
    .leftJoin('payers as py', (j) => j.onRef('py.business_id', '=', 'g.business_id').onRef('py.id', '=', 'g.payer_id'))
    .where('en.business_id', '=', businessId)
    .select([
      'en.id',
      'en.program_id',
      'en.student_id',
      'en.start_date',
      'en.end_date',
      'en.status',
      'en.created_at',
      'p.name as program_name',
      's.student_number',
      's.first_name',
      's.last_name',
      's.grade',
      'py.id as payer_id',
      'py.display_name as payer_name',
      'py.email as payer_email',
    ]);
}

export type EnrollmentView = Awaited<ReturnType<ReturnType<typeof enrollmentsQuery>['execute']>>[number];

export function toEnrollment(row: EnrollmentView): Enrollment {
  return {
    enrollmentId: row.id,
    programId: row.program_id,
    programName: row.program_name,
    studentId: row.student_id,
    studentNumber: row.student_number,
    studentName: `${row.first_name} ${row.last_name}`,
    grade: row.grade,
    guardian: row.payer_id ? { payerId: row.payer_id, name: row.payer_name ?? '', email: row.payer_email ?? '' } : null,
    startDate: row.start_date,
    endDate: row.end_date,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

export async function loadEnrollments(db: Executor, businessId: string, ids: string[]): Promise<Enrollment[]> {
  if (ids.length === 0) return [];
  const rows = await enrollmentsQuery(db, businessId).where('en.id', 'in', ids).orderBy('s.last_name').orderBy('s.first_name').orderBy('en.id').execute();
  return rows.map(toEnrollment);
}
