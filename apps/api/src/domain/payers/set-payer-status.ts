import type { Kysely } from 'kysely';
import { ErrorCode, type Payer, type PayerStatus } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from '../businesses/audit';
import { loadPayer, lockPayerRow } from './payer-record';
import { updateOwned } from '../../db/owned-rows';

/**
 * POST …/payers/:payerId/activate | deactivate: `active ⇄ Disabled`. A disabled payer keeps its
 * history but is left out of the request form's typeahead. Asking for the state it already has
 * is refused (409), like every other move the row actions would not offer.
 */
export async function setPayerStatus({
  db,
  businessId,
  payerId,
  to,
  actor,
}: {
  db: Kysely<DB>;
  businessId: string;
  payerId: string;
  to: PayerStatus;
  actor: Actor & { userId: string };
}): Promise<Payer> {
  return db.transaction().execute(async (trx) => {
    const row = await lockPayerRow(trx, businessId, payerId);
    if (row.status === to) {
      throw new AppError(ErrorCode.Conflict, to === 'active' ? 'This payer is already active.' : 'This payer is already deactivated.');
    }
    await updateOwned(trx, 'payers', businessId, payerId, { status: to });
    await recordEvent(trx, {
      businessId,
      actor,
      action: to === 'active' ? 'payer.activated' : 'payer.deactivated',
      details: { payerId, from: row.status, to },
    });
    return loadPayer(trx, businessId, payerId);
  });
}
