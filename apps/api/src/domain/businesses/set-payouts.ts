import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ErrorCode, type Business } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow, nameOf } from './business-record';

/**
 * Operations turn payouts on or off (`payoutEnabled`, docs/product.md §3). Payouts go on only for an
 * approved business; they can always be turned off. Asking for the current setting changes
 * nothing and records nothing.
 */
export async function setPayouts({
  db,
  businessId,
  enabled,
  actor,
}: {
  db: Kysely<DB>;
  businessId: string;
  enabled: boolean;
  actor: Actor;
}): Promise<{ business: Business; changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    const value = enabled ? 1 : 0;
    if (row.payout_enabled === value) return { business: await loadBusiness(trx, businessId), changed: false };
    if (enabled && row.state !== 'Approved') {
      throw new AppError(ErrorCode.Conflict, `${nameOf(row)} is ${row.state}: payouts can be turned on only for an approved business.`);
    }
    await trx
      .updateTable('businesses')
      .set({ payout_enabled: value, updated_at: sql<Date>`now()` })
      .where('id', '=', businessId)
      .execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: enabled ? 'payouts.enabled' : 'payouts.disabled',
      details: { payoutEnabled: value },
    });
    return { business: await loadBusiness(trx, businessId), changed: true };
  });
}
