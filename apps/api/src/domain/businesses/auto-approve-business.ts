import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { markApproved } from './approve-business';
import { AUTO_APPROVAL_ACTOR } from './audit';
import { findAndLockBusinessRow, loadBusiness } from './business-record';
import { missingItems } from './completeness';
import type { ReviewMail } from './review-emails';

export type AutoApproveOutcome = 'approved' | 'not-found' | 'not-pending' | 'incomplete';

/**
 * The `business.auto-approve` job (SANDBOX_AUTO_APPROVE): approves a business that is still
 * Pending and still complete. Idempotent: a business already approved, disabled or otherwise
 * moved on is left as it is, so a retried or duplicate job changes nothing.
 */
export async function autoApproveBusiness({ db, businessId, mail }: { db: Kysely<DB>; businessId: string; mail: ReviewMail }): Promise<AutoApproveOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await findAndLockBusinessRow(trx, businessId);
    if (!row) return 'not-found';
    if (row.state !== 'Pending') return 'not-pending';
    if (missingItems(await loadBusiness(trx, businessId)).length > 0) return 'incomplete';
    await markApproved(trx, row, AUTO_APPROVAL_ACTOR, mail);
    return 'approved';
  });
}
