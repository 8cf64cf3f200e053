import type { Kysely } from 'kysely';
import { ErrorCode } from '@tay/contract';
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

/** DELETE /api/businesses/:id/payers/:payerId: only a payer no request to pay names (docs/product.md §4). */
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
      await trx.deleteFrom('payers').where('business_id', '=', businessId).where('id', '=', payerId).execute();
      await recordEvent(trx, { businessId, actor, action: 'payer.deleted', details: { payerId } });
      return { payerId };
    });
  } catch (error) {
    // A request made for the payer at the same moment: the foreign key keeps it.
    if ((error as { code?: string }).code === '23503') throw hasTransactions(1);
    throw error;
  }
}
