import { sql, type Kysely, type Transaction } from 'kysely';
import {
  addDays,
  capacityMessage,
  csvRow,
  ENROLLMENT_STATUS_LABELS,
  ErrorCode,
  formatDay,
  type EnrollCandidateQuery,
  type EnrollCandidates,
  type Enrollment,
  type EnrollmentListQuery,
  type EnrollResult,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { auditActor, enrollmentsQuery, loadEnrollments, loadProgram, selectProgram, toEnrollment, type ProgramRow } from './program-record';
import { plainPage } from '../../db/plain-list';
import { updateOwned } from '../../db/owned-rows';

type ListQuery = ReturnType<typeof EnrollmentListQuery.parse>;
type CandidateQuery = ReturnType<typeof EnrollCandidateQuery.parse>;

/** Where each refusal is named: the bulk enroll names `studentIds.<i>`; the drawer names its fields. */
interface Fields {
  student: (index: number) => string;
  program: string;
}

const BULK_FIELDS: Fields = { student: (i) => `studentIds.${i}`, program: 'studentIds' };
const SINGLE_FIELDS: Fields = { student: () => 'programId', program: 'programId' };

function checkStartDate(program: ProgramRow, startDate: string): void {
  if (startDate < program.start_date) {
    throw new AppError(ErrorCode.ValidationFailed, `${program.name} starts on ${formatDay(program.start_date)}; an enrollment cannot start before it.`, {
      startDate: `The start date must be on or after ${formatDay(program.start_date)}, when ${program.name} starts.`,
    });
  }
  if (program.end_date && startDate > program.end_date) {
    throw new AppError(ErrorCode.ValidationFailed, `${program.name} ends on ${formatDay(program.end_date)}; an enrollment cannot start after it.`, {
      startDate: `The start date must be on or before ${formatDay(program.end_date)}, when ${program.name} ends.`,
    });
  }
}

/**
 * Enrolls students in a program, all or none, in the caller's transaction. The program row is
 * locked first, so two enrolls at once count its places one after the other and cannot overfill it.
 */
async function enrollInTransaction(
  trx: Transaction<DB>,
  {
    business,
    user,
    programId,
    studentIds,
    startDate,
    fields,
  }: { business: ScopedBusiness; user: ActingUser; programId: string; studentIds: string[]; startDate: string; fields: Fields },
): Promise<{ program: ProgramRow; ids: string[] }> {
  let program: ProgramRow;
  try {
    program = await selectProgram(trx, business.id, programId, { lock: true });
  } catch (error) {
    if (fields === SINGLE_FIELDS && error instanceof AppError)
      throw new AppError(ErrorCode.NotFound, 'Program not found.', { programId: 'Choose one of your programs.' });
    throw error;
  }
  if (program.status === 'Disabled') {
    throw new AppError(ErrorCode.Conflict, `${program.name} is disabled, so it takes no enrollments. Activate it first.`, {
      [fields.program]: `${program.name} is disabled.`,
    });
  }
  checkStartDate(program, startDate);

  const students = await trx
    .selectFrom('students')
    .select(['id', 'student_number', 'first_name', 'last_name', 'status'])
    .where('business_id', '=', business.id)
    .where('id', 'in', studentIds)
    .execute();
  const byId = new Map(students.map((s) => [s.id, s]));
  const enrolled = new Set(
    (
      await trx
        .selectFrom('enrollments')
        .select('student_id')
        .where('business_id', '=', business.id)
        .where('program_id', '=', programId)
        .where('status', '=', 'active')
        .where('student_id', 'in', studentIds)
        .execute()
    ).map((r) => r.student_id),
  );
  const problems: Record<string, string> = {};
  let missing = 0;
  studentIds.forEach((id, i) => {
    const s = byId.get(id);
    if (!s) {
      missing++;
      problems[fields.student(i)] = `No student with id ${id} was found.`;
      return;
    }
    const who = `${s.first_name} ${s.last_name} (${s.student_number})`;
    if (s.status === 'Disabled') problems[fields.student(i)] = `${who} is disabled; activate the student to enroll them.`;
    else if (enrolled.has(id)) problems[fields.student(i)] = `${who} is already enrolled in ${program.name}.`;
  });
  const count = Object.keys(problems).length;
  if (count > 0) {
    const message =
      studentIds.length === 1
        ? Object.values(problems)[0]!
        : `${count} of the ${studentIds.length} chosen students cannot be enrolled in ${program.name}; nobody was enrolled. ${Object.values(problems).join(' ')}`;
    throw new AppError(missing > 0 ? ErrorCode.NotFound : ErrorCode.Conflict, message, problems);
  }

  const current = Number(program.enrolled_count);
  if (program.capacity !== null && current + studentIds.length > Number(program.capacity)) {
    const message = capacityMessage(program.name, Math.max(0, Number(program.capacity) - current), studentIds.length);
    throw new AppError(ErrorCode.Conflict, message, { [fields.program]: message });
  }

  const rows = studentIds.map((studentId) => ({
    business_id: business.id,
    id: newId('enr'),
    student_id: studentId,
    program_id: programId,
    start_date: startDate,
    created_by: user.userId,
  }));
  await trx.insertInto('enrollments').values(rows).execute();
  await updateOwned(trx, 'programs', business.id, programId, { enrolled_count: sql<number>`enrolled_count + ${studentIds.length}` });
  await recordEvent(trx, {
    businessId: business.id,
    actor: auditActor(user),
    action: 'students.enrolled',
    details: { programId, name: program.name, startDate, studentIds, enrollmentIds: rows.map((r) => r.id) },
  });
  return { program, ids: rows.map((r) => r.id) };
}

/** A unique-index violation: a twin enroll of the same student committed first. */
function duplicateFromViolation(error: unknown): AppError | null {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'enrollments_active_key'
    ? new AppError(ErrorCode.Conflict, 'One of the chosen students was enrolled in this program at the same moment. Reload and try again.')
    : null;
}

/** POST …/programs/:programId/enrollments: many students at once, all or none. */
export async function enrollStudents(
  db: Kysely<DB>,
  { business, user, programId, body }: { business: ScopedBusiness; user: ActingUser; programId: string; body: { studentIds: string[]; startDate: string } },
): Promise<EnrollResult> {
  try {
    return await db.transaction().execute(async (trx) => {
      const { ids } = await enrollInTransaction(trx, {
        business,
        user,
        programId,
        studentIds: body.studentIds,
        startDate: body.startDate,
        fields: BULK_FIELDS,
      });
      return { enrolled: ids.length, program: await loadProgram(trx, business.id, programId), enrollments: await loadEnrollments(trx, business.id, ids) };
    });
  } catch (error) {
    throw duplicateFromViolation(error) ?? error;
  }
}

async function assertStudent(db: Kysely<DB> | Transaction<DB>, businessId: string, studentId: string) {
  const s = await db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name'])
    .where('business_id', '=', businessId)
    .where('id', '=', studentId)
    .executeTakeFirst();
  if (!s) throw AppError.notFound('Student');
  return s;
}

/** POST …/students/:studentId/enrollments: the drawer's enroll of one student. */
export async function enrollStudent(
  db: Kysely<DB>,
  { business, user, studentId, body }: { business: ScopedBusiness; user: ActingUser; studentId: string; body: { programId: string; startDate: string } },
): Promise<Enrollment> {
  await assertStudent(db, business.id, studentId);
  try {
    return await db.transaction().execute(async (trx) => {
      const { ids } = await enrollInTransaction(trx, {
        business,
        user,
        programId: body.programId,
        studentIds: [studentId],
        startDate: body.startDate,
        fields: SINGLE_FIELDS,
      });
      return (await loadEnrollments(trx, business.id, ids))[0]!;
    });
  } catch (error) {
    throw duplicateFromViolation(error) ?? error;
  }
}

/** POST …/enrollments/:enrollmentId/withdraw. The end date is the last day billed for: from the day before the start. */
export async function withdrawEnrollment(
  db: Kysely<DB>,
  {
    business,
    user,
    programId,
    enrollmentId,
    endDate,
  }: { business: ScopedBusiness; user: ActingUser; programId: string; enrollmentId: string; endDate: string },
): Promise<Enrollment> {
  return db.transaction().execute(async (trx) => {
    const program = await selectProgram(trx, business.id, programId, { lock: true });
    const enrollment = await trx
      .selectFrom('enrollments')
      .selectAll()
      .where('business_id', '=', business.id)
      .where('program_id', '=', programId)
      .where('id', '=', enrollmentId)
      .forUpdate()
      .executeTakeFirst();
    if (!enrollment) throw AppError.notFound('Enrollment');
    if (enrollment.status === 'Withdrawn') {
      throw new AppError(ErrorCode.Conflict, `This student was withdrawn from ${program.name} already, with an end date of ${formatDay(enrollment.end_date)}.`);
    }
    const earliest = addDays(enrollment.start_date, -1);
    if (endDate < earliest) {
      throw new AppError(ErrorCode.ValidationFailed, `The end date cannot be before ${formatDay(earliest)}, the day before the enrollment started.`, {
        endDate: `The end date must be on or after ${formatDay(earliest)}, the day before the enrollment started (${formatDay(enrollment.start_date)}).`,
      });
    }
    await trx
      .updateTable('enrollments')
      .set({ status: 'Withdrawn', end_date: endDate, withdrawn_at: sql<Date>`now()`, withdrawn_by: user.userId })
      .where('business_id', '=', business.id)
      .where('id', '=', enrollmentId)
      .execute();
    await updateOwned(trx, 'programs', business.id, programId, { enrolled_count: sql<number>`enrolled_count - 1` });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'enrollment.withdrawn',
      details: { programId, enrollmentId, studentId: enrollment.student_id, endDate },
    });
    return (await loadEnrollments(trx, business.id, [enrollmentId]))[0]!;
  });
}

/** GET …/students/:studentId/enrollments: active first, then the newest. */
export async function studentEnrollments(
  db: Kysely<DB>,
  { business, studentId }: { business: ScopedBusiness; studentId: string },
): Promise<{ items: Enrollment[] }> {
  await assertStudent(db, business.id, studentId);
  const rows = await enrollmentsQuery(db, business.id)
    .where('en.student_id', '=', studentId)
    .orderBy(sql`case when en.status = 'active' then 0 else 1 end`)
    .orderBy('en.start_date', 'desc')
    .orderBy('en.id', 'desc')
    .execute();
  return { items: rows.map(toEnrollment) };
}

const searchOf = (needle: string) =>
  sql<boolean>`(strpos(lower(s.first_name || ' ' || s.last_name), lower(${needle})) > 0 OR strpos(lower(s.student_number), lower(${needle})) > 0 OR strpos(lower(s.grade), lower(${needle})) > 0)`;

function filteredEnrollments(db: Kysely<DB>, businessId: string, programId: string, query: ListQuery) {
  let q = enrollmentsQuery(db, businessId).where('en.program_id', '=', programId);
  if (query.search) {
    const needle = query.search;
    q = q.where(sql<boolean>`(${searchOf(needle)} OR strpos(lower(coalesce(py.email, '')), lower(${needle})) > 0)`);
  }
  if (query.status) q = q.where('en.status', '=', query.status);
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'studentNumber':
      return q.orderBy(sql`lower(s.student_number) ${dir}, en.id ${dir}`);
    case 'grade':
      return q.orderBy(sql`lower(s.grade) ${dir}, lower(s.last_name) ${dir}, en.id ${dir}`);
    case 'startDate':
      return q.orderBy(sql`en.start_date ${dir}, en.id ${dir}`);
    case 'createdAt':
      return q.orderBy(sql`en.created_at ${dir}, en.id ${dir}`);
    default:
      return q.orderBy(sql`lower(s.last_name || ' ' || s.first_name) ${dir}, en.id ${dir}`);
  }
}

/** GET …/programs/:programId/enrollments. */
export async function listEnrollments(db: Kysely<DB>, { business, programId, query }: { business: ScopedBusiness; programId: string; query: ListQuery }) {
  await selectProgram(db, business.id, programId);
  let counted = db
    .selectFrom('enrollments as en')
    .innerJoin('students as s', (j) => j.onRef('s.business_id', '=', 'en.business_id').onRef('s.id', '=', 'en.student_id'))
    .leftJoin('student_guardians as g', (j) =>
      j.onRef('g.business_id', '=', 'en.business_id').onRef('g.student_id', '=', 'en.student_id').on('g.position', '=', 1),
    )
    .leftJoin('payers as py', (j) => j.onRef('py.business_id', '=', 'g.business_id').onRef('py.id', '=', 'g.payer_id'))
    .where('en.business_id', '=', business.id)
    .where('en.program_id', '=', programId);
  if (query.search) {
    const needle = query.search;
    counted = counted.where(sql<boolean>`(${searchOf(needle)} OR strpos(lower(coalesce(py.email, '')), lower(${needle})) > 0)`);
  }
  if (query.status) counted = counted.where('en.status', '=', query.status);
  return plainPage(query, filteredEnrollments(db, business.id, programId, query), counted, (rows) => rows.map(toEnrollment));
}

export async function* exportEnrollments(
  db: Kysely<DB>,
  { business, programId, query }: { business: ScopedBusiness; programId: string; query: ListQuery },
): AsyncGenerator<string> {
  await selectProgram(db, business.id, programId);
  const rows = await filteredEnrollments(db, business.id, programId, query).execute();
  yield '\ufeff' + csvRow(['Student id', 'Student', 'Grade', 'Guardian', 'Guardian e-mail', 'Program', 'Start date', 'End date', 'Status']) + '\r\n';
  for (const row of rows) {
    const e = toEnrollment(row);
    yield (
      csvRow([
        e.studentNumber,
        e.studentName,
        e.grade,
        e.guardian?.name ?? '',
        e.guardian?.email ?? '',
        e.programName,
        formatDay(e.startDate),
        e.endDate ? formatDay(e.endDate) : '',
        ENROLLMENT_STATUS_LABELS[e.status],
      ]) + '\r\n'
    );
  }
}

/** GET …/programs/:programId/enrollments/candidates: the students to pick from, each saying whether it is enrolled now. */
export async function enrollCandidates(
  db: Kysely<DB>,
  { business, programId, query }: { business: ScopedBusiness; programId: string; query: CandidateQuery },
): Promise<EnrollCandidates> {
  await selectProgram(db, business.id, programId);
  let base = db.selectFrom('students as s').where('s.business_id', '=', business.id);
  if (query.search) base = base.where(searchOf(query.search));
  if (query.grade) base = base.where('s.grade', '=', query.grade);
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  const order =
    query.sortBy === 'studentNumber'
      ? sql`lower(s.student_number) ${dir}, s.id ${dir}`
      : query.sortBy === 'grade'
        ? sql`lower(s.grade) ${dir}, lower(s.last_name) ${dir}, s.id ${dir}`
        : sql`lower(s.last_name || ' ' || s.first_name) ${dir}, s.id ${dir}`;
  const [rows, count, grades] = await Promise.all([
    base
      .leftJoin('student_guardians as g', (j) => j.onRef('g.business_id', '=', 's.business_id').onRef('g.student_id', '=', 's.id').on('g.position', '=', 1))
      .leftJoin('payers as py', (j) => j.onRef('py.business_id', '=', 'g.business_id').onRef('py.id', '=', 'g.payer_id'))
      .select([
        's.id',
        's.student_number',
        's.first_name',
        's.last_name',
        's.grade',
        's.status',
        'py.id as payer_id',
        'py.display_name as payer_name',
        'py.email as payer_email',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('enrollments as en')
              .select('en.id')
              .whereRef('en.business_id', '=', 's.business_id')
              .whereRef('en.student_id', '=', 's.id')
              .where('en.program_id', '=', programId)
              .where('en.status', '=', 'active'),
          )
          .as('enrolled'),
      )
      .orderBy(order)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('students').select('grade').distinct().where('business_id', '=', business.id).where('grade', '<>', '').orderBy('grade').execute(),
  ]);
  return {
    items: rows.map((r) => ({
      studentId: r.id,
      studentNumber: r.student_number,
      name: `${r.first_name} ${r.last_name}`,
      grade: r.grade,
      status: r.status,
      enrolled: Boolean(r.enrolled),
      guardian: r.payer_id ? { payerId: r.payer_id, name: r.payer_name ?? '', email: r.payer_email ?? '' } : null,
    })),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(count.n),
    grades: grades.map((g) => g.grade),
  };
}
