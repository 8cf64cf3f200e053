import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';
import { insertPayer } from '../support/approved-business';
import { insertNew } from '../../src/db/owned-rows';

/**
 * Programs, students with guardians and enrollments for the billing-cycle tests, written
 * directly: their own endpoints have their own tests.
 */

export async function insertProgram(
  db: Kysely<DB>,
  businessId: string,
  over: Partial<{
    name: string;
    feeCents: number;
    frequency: 'one_time' | 'monthly' | 'term';
    prorate: boolean;
    status: 'active' | 'Disabled';
    startDate: string;
    endDate: string | null;
  }> = {},
): Promise<string> {
  const id = await insertNew(db, 'programs', 'prg', (id) => ({
    business_id: businessId,
    name: over.name ?? `Program ${id.slice(-6)}`,
    fee_cents: over.feeCents ?? 10_000,
    frequency: over.frequency ?? 'monthly',
    start_date: over.startDate ?? '2020-01-01',
    end_date: over.endDate ?? null,
    capacity: null,
    prorate: over.prorate ?? false,
    status: over.status ?? 'active',
    created_by: null,
  }));
  return id;
}

let seq = 0;

/** A student with one guardian (two with `guardians: 2`), each a new payer. */
export async function insertStudent(
  db: Kysely<DB>,
  businessId: string,
  over: Partial<{ firstName: string; lastName: string; status: 'active' | 'Disabled'; guardians: 0 | 1 | 2 }> = {},
): Promise<string> {
  seq++;
  const id = await insertNew(db, 'students', 'stu', (id) => ({
    business_id: businessId,
    student_number: `S${seq}-${id.slice(-6)}`,
    first_name: over.firstName ?? 'Mia',
    last_name: over.lastName ?? `Lopez${seq}`,
    status: over.status ?? 'active',
    date_of_birth: null,
    created_by: null,
  }));
  const guardians = over.guardians ?? 1;
  for (let position = 1; position <= guardians; position++) {
    const payerId = await insertPayer(db, businessId, { email: `guardian${position}.${id.toLowerCase()}@families.example` });
    await db.insertInto('student_guardians').values({ business_id: businessId, student_id: id, payer_id: payerId, position }).execute();
  }
  return id;
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
    withdrawn_at: over.status === 'Withdrawn' ? new Date() : null,
    withdrawn_by: null,
  }));
  return id;
}

/** Sets the business's time zone (its midnight is when its cycles run). */
export async function setTimeZone(db: Kysely<DB>, businessId: string, timeZone: string): Promise<void> {
  await db.updateTable('businesses').set({ time_zone: timeZone }).where('id', '=', businessId).execute();
}
