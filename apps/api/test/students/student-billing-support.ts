import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { insertPayer } from '../support/approved-business';
import { insertNew } from '../../src/db/owned-rows';

/**
 * Programs, students with their guardians and enrollments for the student-billing and Program
 * Billing tests, written directly: their own endpoints have their own tests.
 */

let seq = 0;

export async function insertProgram(
  db: Kysely<DB>,
  businessId: string,
  over: Partial<{
    name: string;
    feeCents: number;
    prorate: boolean;
    status: 'active' | 'Disabled';
    frequency: 'one_time' | 'monthly' | 'term';
    startDate: string;
    endDate: string | null;
  }> = {},
): Promise<{ id: string; name: string }> {
  const id = newId('prg');
  const name = over.name ?? `Program ${++seq}-${id.slice(-6)}`;
  await db
    .insertInto('programs')
    .values({
      business_id: businessId,
      id,
      name,
      fee_cents: over.feeCents ?? 10_000,
      frequency: over.frequency ?? 'monthly',
      start_date: over.startDate ?? '2020-01-01',
      end_date: over.endDate ?? null,
      capacity: null,
      prorate: over.prorate ?? false,
      status: over.status ?? 'active',
      created_by: null,
    })
    .execute();
  return { id, name };
}

export interface TestStudent {
  id: string;
  number: string;
  name: string;
  guardians: { id: string; email: string }[];
}

/** A student with one guardian (two with `guardians: 2`, none with 0), each a new payer. */
export async function insertStudent(
  db: Kysely<DB>,
  businessId: string,
  over: Partial<{ firstName: string; lastName: string; grade: string; status: 'active' | 'Disabled'; guardians: 0 | 1 | 2 }> = {},
): Promise<TestStudent> {
  seq++;
  const id = newId('stu');
  const number = `SB-${seq}-${id.slice(-5)}`;
  const firstName = over.firstName ?? 'Mia';
  const lastName = over.lastName ?? `Lopez${seq}`;
  await db
    .insertInto('students')
    .values({
      business_id: businessId,
      id,
      student_number: number,
      first_name: firstName,
      last_name: lastName,
      grade: over.grade ?? '',
      status: over.status ?? 'active',
      date_of_birth: null,
      created_by: null,
    })
    .execute();
  const guardians: TestStudent['guardians'] = [];
  for (let position = 1; position <= (over.guardians ?? 1); position++) {
    const email = `g${position}.${id.toLowerCase()}@families.example`;
    const payerId = await insertPayer(db, businessId, { email, displayName: `Guardian ${position} of ${firstName}` });
    await db.insertInto('student_guardians').values({ business_id: businessId, student_id: id, payer_id: payerId, position }).execute();
    guardians.push({ id: payerId, email });
  }
  return { id, number, name: `${firstName} ${lastName}`, guardians };
}

export async function enroll(
  db: Kysely<DB>,
  businessId: string,
  studentId: string,
  programId: string,
  startDate: string,
  over: Partial<{ endDate: string | null; status: 'active' | 'Withdrawn' }> = {},
): Promise<string> {
  const id = await insertNew(db, 'enrollments', 'enr', () => ({
    business_id: businessId,
    student_id: studentId,
    program_id: programId,
    start_date: startDate,
    end_date: over.endDate ?? null,
    status: over.status ?? 'active',
    created_by: null,
    withdrawn_at: null,
    withdrawn_by: null,
  }));
  return id;
}
