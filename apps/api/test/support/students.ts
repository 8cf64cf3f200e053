import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { insertPayer } from './approved-business';
import { insertSourceRequest } from './requests';

export interface StudentOptions {
  studentNumber?: string;
  firstName?: string;
  lastName?: string;
  grade?: string;
  dateOfBirth?: string | null;
  status?: 'active' | 'Disabled';
  /** The guardians' payer ids, first guardian first; by default one new payer. */
  guardians?: string[];
}

/**
 * A student of the business with their guardians, written directly (the students API has its
 * own tests). Returns the student's id.
 */
export async function insertStudent(db: Kysely<DB>, businessId: string, over: StudentOptions = {}): Promise<string> {
  const id = newId('stu');
  const guardians = over.guardians ?? [await insertPayer(db, businessId, { displayName: 'Gina Guardian' })];
  await db
    .insertInto('students')
    .values({
      business_id: businessId,
      id,
      student_number: over.studentNumber ?? `S-${id.slice(-8)}`,
      first_name: over.firstName ?? 'Mia',
      last_name: over.lastName ?? 'Lopez',
      grade: over.grade ?? '',
      date_of_birth: over.dateOfBirth ?? null,
      status: over.status ?? 'active',
      created_by: null,
    })
    .execute();
  if (guardians.length > 0) {
    await db
      .insertInto('student_guardians')
      .values(guardians.map((payer_id, i) => ({ business_id: businessId, student_id: id, payer_id, position: i + 1 })))
      .execute();
  }
  return id;
}

/** A payment request naming the student, written directly: what makes a student stay on record. */
export async function insertStudentRequest(db: Kysely<DB>, businessId: string, studentId: string, payerId: string): Promise<string> {
  return insertSourceRequest(db, businessId, {
    payerId,
    payerName: 'Gina Guardian',
    payerEmail: 'gina@guardians.example',
    amountCents: 12500,
    memo: 'Piano, December 2026',
    kind: 'student',
    sourceId: studentId,
    source: { list: { student: { studentId, name: 'Student' }, program: null, period: null }, periodStart: null, copyPayerId: null },
  });
}
