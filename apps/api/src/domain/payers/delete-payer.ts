import type { Kysely } from 'kysely';
import { ErrorCode } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from '../businesses/audit';
import { lockPayerRow } from './payer-record';

function hasTransactions(count: number): AppError {
  return new AppError(
    ErrorCode.Conflict,
    `This payer has ${count === 1 ? 'a request to pay' : `${count} requests to pay`}, so it cannot be deleted; its history must stay. Deactivate the payer instead.`,
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Besides its requests, what keeps a payer from being deleted: being the guarantor of patients
 * (ADR 037) or a guardian of students (ADR 036), who must have another payer first, or being
 * billed by an invoice (a draft has no request yet). Null when nothing else names the payer.
 */
async function namedBy(db: Executor, businessId: string, payerId: string): Promise<AppError | null> {
  const patients = await db
    .selectFrom('patients')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('guarantor_payer_id', '=', payerId)
    .executeTakeFirstOrThrow();
  const guarantorOf = Number(patients.n);
  if (guarantorOf > 0) {
    return new AppError(ErrorCode.Conflict, `This payer is the guarantor of ${plural(guarantorOf, 'patient')}; choose another guarantor for them first.`);
  }
  const students = await db
    .selectFrom('student_guardians')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('payer_id', '=', payerId)
    .executeTakeFirstOrThrow();
  const guardianOf = Number(students.n);
  if (guardianOf > 0) {
    return new AppError(ErrorCode.Conflict, `This payer is a guardian of ${plural(guardianOf, 'student')}; choose another guardian for them first.`);
  }
  const invoices = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('payer_id', '=', payerId)
    .executeTakeFirstOrThrow();
  const invoiceCount = Number(invoices.n);
  if (invoiceCount > 0) {
    return new AppError(
      ErrorCode.Conflict,
      `This payer is billed by ${plural(invoiceCount, 'invoice')}, so it cannot be deleted; delete the draft invoices or deactivate the payer instead.`,
    );
  }
  return null;
}

/**
 * DELETE /api/businesses/:id/payers/:payerId: only a payer no request to pay names (docs/product.md
 * §4), who is no patient's guarantor and no student's guardian.
 */
export async function deletePayer({
  db,
  businessId,
  payerId,
  actor,
}: {
  db: Kysely<DB>;
  businessId: string;
  payerId: string;
  actor: Actor & { userId: string };
}): Promise<{ payerId: string }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await lockPayerRow(trx, businessId, payerId);
      if ((row.transaction_count ?? 0) > 0) throw hasTransactions(row.transaction_count ?? 0);
      const named = await namedBy(trx, businessId, payerId);
      if (named) throw named;
      await trx.deleteFrom('payers').where('business_id', '=', businessId).where('id', '=', payerId).execute();
      await recordEvent(trx, { businessId, actor, action: 'payer.deleted', details: { payerId } });
      return { payerId };
    });
  } catch (error) {
    // A request, a patient or a student naming the payer at the same moment: the foreign key keeps it.
    if ((error as { code?: string }).code === '23503') throw (await namedBy(db, businessId, payerId)) ?? hasTransactions(1);
    throw error;
  }
}
