import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { insertPayer } from './approved-business';

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
  const id = newId('req');
  const last = await db
    .selectFrom('payment_requests')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  await db
    .insertInto('payment_requests')
    .values({
      business_id: businessId,
      id,
      number: Number(last?.n ?? 10000) + 1,
      payer_id: payerId,
      payer_display_name: 'Gina Guardian',
      payer_email: 'gina@guardians.example',
      amount_cents: 12500,
      memo: 'Piano, December 2026',
      reference: '',
      due_date: '2099-12-31',
      expires_on: '2099-12-31',
      allow_partial: false,
      channel: 'email',
      state: 'Draft',
      send_at: null,
      sent_at: null,
      paid_at: null,
      pay_token_hash: null,
      last_reminder_offset: null,
      created_by: null,
      source_kind: 'student',
      source_id: studentId,
      source: JSON.stringify({ list: { student: { studentId, name: 'Student' }, program: null, period: null }, periodStart: null, copyPayerId: null }),
    })
    .execute();
  return id;
}
