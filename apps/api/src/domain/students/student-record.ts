import type { Selectable } from 'kysely';
import { studentActions, type Student, type StudentEnrollmentSummary, type StudentGuardian } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { StudentsTable } from '../../db/schema/students';
import { AppError } from '../../lib/app-error';

export type StudentRow = Selectable<StudentsTable>;

export const studentName = (s: Pick<StudentRow, 'first_name' | 'last_name'>) => `${s.first_name} ${s.last_name}`;

/** One student of the business; another business's id is 404, as an unknown one. */
export async function selectStudent(db: Executor, businessId: string, studentId: string, { lock = false } = {}): Promise<StudentRow> {
  let query = db.selectFrom('students').selectAll().where('business_id', '=', businessId).where('id', '=', studentId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('Student');
  return row;
}

/** Guardians, enrollments and request counts of these students, by student id. */
async function detailsOf(db: Executor, businessId: string, ids: string[]) {
  const guardians = new Map<string, StudentGuardian[]>();
  const enrollments = new Map<string, StudentEnrollmentSummary[]>();
  const requests = new Map<string, number>();
  if (ids.length === 0) return { guardians, enrollments, requests };
  const [g, e, r] = await Promise.all([
    db
      .selectFrom('student_guardians as sg')
      .innerJoin('payers as p', (j) => j.onRef('p.business_id', '=', 'sg.business_id').onRef('p.id', '=', 'sg.payer_id'))
      .select(['sg.student_id', 'sg.position', 'p.id', 'p.display_name', 'p.first_name', 'p.last_name', 'p.email', 'p.mobile_number', 'p.status'])
      .where('sg.business_id', '=', businessId)
      .where('sg.student_id', 'in', ids)
      .orderBy('sg.position')
      .execute(),
    db
      .selectFrom('enrollments as e')
      .innerJoin('programs as pr', (j) => j.onRef('pr.business_id', '=', 'e.business_id').onRef('pr.id', '=', 'e.program_id'))
      .select(['e.student_id', 'e.id', 'e.program_id', 'pr.name', 'e.start_date', 'e.end_date', 'e.status'])
      .where('e.business_id', '=', businessId)
      .where('e.student_id', 'in', ids)
      .orderBy('e.status')
      .orderBy('e.start_date', 'desc')
      .orderBy('e.id')
      .execute(),
    db
      .selectFrom('payment_requests')
      .select(['source_id as student_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('business_id', '=', businessId)
      .where('source_kind', '=', 'student')
      .where('source_id', 'in', ids)
      .groupBy('source_id')
      .execute(),
  ]);
  for (const row of g) {
    const list = guardians.get(row.student_id) ?? [];
    list.push({
      payerId: row.id,
      position: Number(row.position),
      name: row.display_name,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      mobile: row.mobile_number,
      status: row.status,
    });
    guardians.set(row.student_id, list);
  }
  for (const row of e) {
    const list = enrollments.get(row.student_id) ?? [];
    list.push({
      enrollmentId: row.id,
      programId: row.program_id,
      programName: row.name,
      startDate: String(row.start_date),
      endDate: row.end_date === null ? null : String(row.end_date),
      status: row.status,
    });
    enrollments.set(row.student_id, list);
  }
  for (const row of r) if (row.student_id) requests.set(row.student_id, Number(row.n));
  return { guardians, enrollments, requests };
}

function toStudent(row: StudentRow, details: Awaited<ReturnType<typeof detailsOf>>): Student {
  const enrollments = details.enrollments.get(row.id) ?? [];
  const requestsCount = details.requests.get(row.id) ?? 0;
  return {
    studentId: row.id,
    studentNumber: row.student_number,
    firstName: row.first_name,
    lastName: row.last_name,
    name: studentName(row),
    grade: row.grade,
    dateOfBirth: row.date_of_birth === null ? null : String(row.date_of_birth),
    status: row.status,
    guardians: details.guardians.get(row.id) ?? [],
    enrollments,
    programs: enrollments.filter((e) => e.status === 'active').map((e) => e.programName),
    requestsCount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: studentActions(row.status, requestsCount),
  };
}

/** Students as the API shows them, in the order given. */
export async function toStudents(db: Executor, businessId: string, rows: StudentRow[]): Promise<Student[]> {
  const details = await detailsOf(
    db,
    businessId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toStudent(r, details));
}

export async function loadStudent(db: Executor, businessId: string, studentId: string): Promise<Student> {
  const row = await selectStudent(db, businessId, studentId);
  const [student] = await toStudents(db, businessId, [row]);
  return student!;
}
