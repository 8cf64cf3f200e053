import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { canTransition, ErrorCode, type Business, type BusinessState } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow, nameOf, type BusinessRow } from './business-record';
import { missingFields, missingItems } from './completeness';
import { emailApproval, type ReviewMail } from './review-emails';

/** Moves a locked, Pending, complete business to Approved, records who did it, and tells its owners. */
export async function markApproved(trx: Transaction<DB>, row: BusinessRow, actor: Actor, mail: ReviewMail): Promise<void> {
  await trx
    .updateTable('businesses')
    .set({ state: 'Approved', approved_at: sql<Date>`now()`, state_reason: null, updated_at: sql<Date>`now()` })
    .where('id', '=', row.id)
    .execute();
  await recordEvent(trx, { businessId: row.id, actor, action: 'business.approved', details: { from: row.state, to: 'Approved' } });
  await emailApproval(trx, row, mail);
}

function notApprovable(name: string, state: BusinessState): string {
  if (state === 'Incomplete') {
    return `${name} has not been submitted yet; only a Pending business can be approved. The owner submits it from the portal first.`;
  }
  if (state === 'Disabled') return `${name} is disabled; enable it again instead of approving it.`;
  return `${name} is already approved.`;
}

/**
 * Operations approve a submitted business (`Pending → Approved`). Only a Pending business is
 * approved this way: an Incomplete one has not been submitted, and a Disabled one is re-enabled
 * with `setBusinessState` instead.
 */
export async function approveBusiness({
  db,
  businessId,
  actor,
  mail,
}: {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor;
  mail: ReviewMail;
}): Promise<{ business: Business; from: BusinessState }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    if (row.state !== 'Pending' || !canTransition(row.state, 'Approved')) {
      throw new AppError(ErrorCode.Conflict, notApprovable(nameOf(row), row.state));
    }
    const missing = missingItems(await loadBusiness(trx, businessId));
    if (missing.length > 0) {
      throw new AppError(
        ErrorCode.UnprocessableEntity,
        `${nameOf(row)} is missing required details and cannot be approved: ${missing.map((m) => m.message).join(' ')}`,
        missingFields(missing),
      );
    }
    await markApproved(trx, row, actor, mail);
    return { business: await loadBusiness(trx, businessId), from: row.state };
  });
}
