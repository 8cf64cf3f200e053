import { sql, type Kysely, type Transaction } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  formatDay,
  STUDENT_STATUS_LABELS,
  type FieldErrors,
  type Student,
  type StudentListQuery,
  type StudentValues,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor as AuditActor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { ensureGuardianPayers, payersByEmail, payersById, type GuardianPayer, type NewGuardian } from './guardians';
import { loadStudent, selectStudent, studentName, toStudents } from './student-record';
import { plainPage } from '../../db/plain-list';
import { updateOwned } from '../../db/owned-rows';

type ListQuery = ReturnType<typeof StudentListQuery.parse>;

const auditActor = (user: ActingUser): AuditActor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

export const duplicateStudentNumber = (studentNumber: string) => `Another student of this business already has the student id ${studentNumber}.`;

function duplicateError(studentNumber: string): AppError {
  return new AppError(ErrorCode.Conflict, `The student id ${studentNumber} is taken by another student.`, {
    studentNumber: duplicateStudentNumber(studentNumber),
  });
}

/** Refuses a student id (case-insensitive) another student of the business has. */
async function assertStudentNumberFree(db: Transaction<DB>, businessId: string, studentNumber: string, exceptId?: string) {
  let query = db
    .selectFrom('students')
    .select('id')
    .where('business_id', '=', businessId)
    .where(sql<boolean>`lower(student_number) = lower(${studentNumber})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw duplicateError(studentNumber);
}

function fromViolation(error: unknown, studentNumber: string): AppError | null {
  const e = error as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === 'students_number_key') return duplicateError(studentNumber);
  return null;
}

function assertBirthDate(business: ScopedBusiness, body: StudentValues) {
  if (body.dateOfBirth && body.dateOfBirth > todayIn(business.timeZone)) {
    throw AppError.validation('The date of birth cannot be in the future.', { dateOfBirth: 'The date of birth cannot be in the future.' });
  }
}

const inactive = (p: GuardianPayer) =>
  `${p.display_name} is deactivated, so they cannot be a guardian. Activate them in Manage Payers, or choose another payer.`;

/**
 * The payers of the guardians sent, in order: an existing payer by id; a new guardian whose
 * e-mail a payer already has is that payer (never a duplicate); otherwise a payer made now, in
 * the caller's transaction. A Disabled payer cannot be added; one who is a guardian already
 * (`kept`, on an edit) stays.
 */
async function resolveGuardians(
  trx: Transaction<DB>,
  business: ScopedBusiness,
  body: StudentValues,
  kept: ReadonlySet<string> = new Set(),
): Promise<{ ids: string[]; created: string[] }> {
  const byId = await payersById(
    trx,
    business.id,
    body.guardians.flatMap((g) => (g.payerId ? [g.payerId] : [])),
  );
  const emails = body.guardians.flatMap((g) => (!g.payerId && g.email ? [g.email] : []));
  const existing = await payersByEmail(trx, business.id, emails);
  const fields: FieldErrors = {};
  const fresh: NewGuardian[] = [];
  body.guardians.forEach((g, i) => {
    if (g.payerId) {
      const payer = byId.get(g.payerId);
      if (!payer) throw new AppError(ErrorCode.NotFound, 'Payer not found.', { [`guardians.${i}.payerId`]: 'This business has no payer with this id.' });
      if (payer.status !== 'active' && !kept.has(payer.id)) fields[`guardians.${i}.payerId`] = inactive(payer);
      return;
    }
    const payer = existing.get(g.email!);
    if (payer) {
      if (payer.status !== 'active' && !kept.has(payer.id)) fields[`guardians.${i}.email`] = inactive(payer);
      return;
    }
    fresh.push({ firstName: g.firstName!, lastName: g.lastName!, email: g.email!, mobile: g.mobile ?? null });
  });
  if (Object.keys(fields).length > 0) throw AppError.validation('A guardian cannot be used: see the highlighted fields.', fields);
  const made = await ensureGuardianPayers(trx, business.id, fresh, null);
  const ids = body.guardians.map((g) => (g.payerId ? g.payerId : (existing.get(g.email!)?.id ?? made.byEmail.get(g.email!)!.id)));
  if (ids.length === 2 && ids[0] === ids[1]) {
    const key = body.guardians[1]!.payerId ? 'guardians.1.payerId' : 'guardians.1.email';
    throw AppError.validation('The second guardian is the same payer as the first.', { [key]: 'The second guardian is the same payer as the first.' });
  }
  return { ids, created: made.created };
}

async function linkGuardians(trx: Transaction<DB>, businessId: string, studentId: string, payerIds: string[]) {
  await trx.deleteFrom('student_guardians').where('business_id', '=', businessId).where('student_id', '=', studentId).execute();
  await trx
    .insertInto('student_guardians')
    .values(payerIds.map((payer_id, i) => ({ business_id: businessId, student_id: studentId, payer_id, position: i + 1 })))
    .execute();
}

async function recordGuardianPayers(trx: Transaction<DB>, business: ScopedBusiness, user: ActingUser, created: string[], studentId: string) {
  for (const payerId of created) {
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'payer.created', details: { payerId, asGuardianOf: studentId } });
  }
}

function columnsOf(body: StudentValues) {
  return {
    student_number: body.studentNumber,
    first_name: body.firstName,
    last_name: body.lastName,
    grade: body.grade,
    date_of_birth: body.dateOfBirth ?? null,
  };
}

/** POST …/students: an active student with one or two guardians, in one transaction. */
export async function createStudent(
  db: Kysely<DB>,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: StudentValues },
): Promise<Student> {
  assertBirthDate(business, body);
  try {
    return await db.transaction().execute(async (trx) => {
      await assertStudentNumberFree(trx, business.id, body.studentNumber);
      const { ids, created } = await resolveGuardians(trx, business, body);
      const id = newId('stu');
      await trx
        .insertInto('students')
        .values({ business_id: business.id, id, ...columnsOf(body), created_by: user.userId })
        .execute();
      await linkGuardians(trx, business.id, id, ids);
      await recordGuardianPayers(trx, business, user, created, id);
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'student.created',
        details: { studentId: id, studentNumber: body.studentNumber, guardians: ids },
      });
      return loadStudent(trx, business.id, id);
    });
  } catch (error) {
    throw fromViolation(error, body.studentNumber) ?? error;
  }
}

/** PATCH …/students/:studentId: the student's fields and guardians (replaced as sent). */
export async function updateStudent(
  db: Kysely<DB>,
  { business, user, studentId, body }: { business: ScopedBusiness; user: ActingUser; studentId: string; body: StudentValues },
): Promise<Student> {
  assertBirthDate(business, body);
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await selectStudent(trx, business.id, studentId, { lock: true });
      await assertStudentNumberFree(trx, business.id, body.studentNumber, studentId);
      const before = await trx
        .selectFrom('student_guardians')
        .select('payer_id')
        .where('business_id', '=', business.id)
        .where('student_id', '=', studentId)
        .orderBy('position')
        .execute();
      const { ids, created } = await resolveGuardians(trx, business, body, new Set(before.map((g) => g.payer_id)));
      await updateOwned(trx, 'students', business.id, studentId, { ...columnsOf(body) });
      await linkGuardians(trx, business.id, studentId, ids);
      await recordGuardianPayers(trx, business, user, created, studentId);
      const changed = Object.entries({
        studentNumber: current.student_number !== body.studentNumber,
        firstName: current.first_name !== body.firstName,
        lastName: current.last_name !== body.lastName,
        grade: current.grade !== body.grade,
        dateOfBirth: current.date_of_birth !== (body.dateOfBirth ?? null),
        guardians: before.map((g) => g.payer_id).join(',') !== ids.join(','),
      })
        .filter(([, yes]) => yes)
        .map(([field]) => field);
      await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'student.updated', details: { studentId, changed } });
      return loadStudent(trx, business.id, studentId);
    });
  } catch (error) {
    throw fromViolation(error, body.studentNumber) ?? error;
  }
}

/** Activate / Deactivate. */
export async function setStudentStatus(
  db: Kysely<DB>,
  { business, user, studentId, activate }: { business: ScopedBusiness; user: ActingUser; studentId: string; activate: boolean },
): Promise<Student> {
  return db.transaction().execute(async (trx) => {
    const current = await selectStudent(trx, business.id, studentId, { lock: true });
    const status = activate ? 'active' : 'Disabled';
    if (current.status === status) throw new AppError(ErrorCode.Conflict, `${studentName(current)} is already ${activate ? 'active' : 'deactivated'}.`);
    await updateOwned(trx, 'students', business.id, studentId, { status });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: activate ? 'student.activated' : 'student.deactivated',
      details: { studentId },
    });
    return loadStudent(trx, business.id, studentId);
  });
}

/**
 * Deletes a student no payment request names, with their guardian links and enrollments; each
 * program they were enrolled in counts one fewer. A student with requests stays on record.
 */
export async function deleteStudent(db: Kysely<DB>, { business, user, studentId }: { business: ScopedBusiness; user: ActingUser; studentId: string }) {
  await db.transaction().execute(async (trx) => {
    const current = await selectStudent(trx, business.id, studentId, { lock: true });
    const requests = await trx
      .selectFrom('payment_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('business_id', '=', business.id)
      .where('source_kind', '=', 'student')
      .where('source_id', '=', studentId)
      .executeTakeFirstOrThrow();
    if (Number(requests.n) > 0) {
      throw new AppError(
        ErrorCode.Conflict,
        `${studentName(current)} has ${Number(requests.n) === 1 ? 'a payment request' : `${requests.n} payment requests`}, so they stay on record with them. Deactivate them instead.`,
      );
    }
    const active = await trx
      .selectFrom('enrollments')
      .select(['program_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('business_id', '=', business.id)
      .where('student_id', '=', studentId)
      .where('status', '=', 'active')
      .groupBy('program_id')
      .orderBy('program_id')
      .execute();
    for (const { program_id, n } of active) {
      await updateOwned(trx, 'programs', business.id, program_id, { enrolled_count: sql<number>`greatest(enrolled_count - ${Number(n)}, 0)` });
    }
    await trx.deleteFrom('student_charges').where('business_id', '=', business.id).where('student_id', '=', studentId).execute();
    await trx.deleteFrom('enrollments').where('business_id', '=', business.id).where('student_id', '=', studentId).execute();
    await trx.deleteFrom('student_guardians').where('business_id', '=', business.id).where('student_id', '=', studentId).execute();
    await trx.deleteFrom('students').where('business_id', '=', business.id).where('id', '=', studentId).execute();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'student.deleted',
      details: { studentId, studentNumber: current.student_number, name: studentName(current) },
    });
  });
}

export async function getStudent(db: Kysely<DB>, { business, studentId }: { business: ScopedBusiness; studentId: string }): Promise<Student> {
  return loadStudent(db, business.id, studentId);
}

function filtered(db: Kysely<DB>, businessId: string, query: Pick<ListQuery, 'search' | 'grade' | 'programId' | 'status'>) {
  let q = db.selectFrom('students as s').where('s.business_id', '=', businessId);
  if (query.search) {
    const needle = query.search.toLowerCase();
    q = q.where(
      sql<boolean>`(strpos(lower(s.first_name || ' ' || s.last_name), ${needle}) > 0
        OR strpos(lower(s.student_number), ${needle}) > 0
        OR EXISTS (SELECT 1 FROM student_guardians sg JOIN payers p ON p.business_id = sg.business_id AND p.id = sg.payer_id
                   WHERE sg.business_id = s.business_id AND sg.student_id = s.id AND strpos(lower(p.email), ${needle}) > 0))`,
    );
  }
  if (query.grade) q = q.where(sql<boolean>`lower(s.grade) = lower(${query.grade})`);
  if (query.programId) {
    q = q.where(
      sql<boolean>`EXISTS (SELECT 1 FROM enrollments e WHERE e.business_id = s.business_id AND e.student_id = s.id
                   AND e.program_id = ${query.programId} AND e.status = 'active')`,
    );
  }
  if (query.status) q = q.where('s.status', '=', query.status);
  return q;
}

function sorted(query: ListQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'name':
      return sql`lower(s.first_name || ' ' || s.last_name) ${dir}, s.id ${dir}`;
    case 'studentNumber':
      return sql`lower(s.student_number) ${dir}, s.id ${dir}`;
    case 'grade':
      return sql`lower(s.grade) ${dir}, lower(s.last_name || ' ' || s.first_name) ${dir}, s.id ${dir}`;
    case 'status':
      return sql`s.status ${dir}, s.id ${dir}`;
    default:
      return sql`s.created_at ${dir}, s.id ${dir}`;
  }
}

/** A school has hundreds or thousands of students: a plain filtered, sorted page, with every grade for the filter. */
export async function listStudents(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(db, business.id, query);
  const [page, grades] = await Promise.all([
    plainPage(query, base.selectAll('s').orderBy(sorted(query)), base, (rows) => toStudents(db, business.id, rows)),
    db.selectFrom('students').select('grade').distinct().where('business_id', '=', business.id).where('grade', '<>', '').orderBy('grade').execute(),
  ]);
  return { ...page, grades: grades.map((g) => g.grade) };
}

const EXPORT_CHUNK = 500;

export async function* exportStudents(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const rows = await filtered(db, business.id, query).selectAll('s').orderBy(sorted(query)).execute();
  yield (
    '\ufeff' +
    csvRow([
      'Student id',
      'First name',
      'Last name',
      'Grade',
      'Date of birth',
      'Status',
      'Guardian',
      'Guardian e-mail',
      'Second guardian',
      'Second guardian e-mail',
      'Programs',
      'Added',
    ]) +
    '\r\n'
  );
  for (let i = 0; i < rows.length; i += EXPORT_CHUNK) {
    const students = await toStudents(db, business.id, rows.slice(i, i + EXPORT_CHUNK));
    let text = '';
    for (const s of students) {
      const [first, second] = s.guardians;
      text +=
        csvRow([
          s.studentNumber,
          s.firstName,
          s.lastName,
          s.grade,
          s.dateOfBirth ? formatDay(s.dateOfBirth) : '',
          STUDENT_STATUS_LABELS[s.status],
          first?.name ?? '',
          first?.email ?? '',
          second?.name ?? '',
          second?.email ?? '',
          s.programs.join('; '),
          formatDateTime(s.createdAt, business.timeZone),
        ]) + '\r\n';
    }
    yield text;
  }
}
