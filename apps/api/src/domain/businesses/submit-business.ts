import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { canTransition, ErrorCode, type Business } from '@tay/contract';
import { jobDb } from '../../db/executor';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow } from './business-record';
import { missingFields, missingItems } from './completeness';

/** How long the sandbox "review" takes before the auto-approval job runs. */
export const AUTO_APPROVE_DELAY_SECONDS = 5;

export interface SubmitBusinessOptions {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor & { userId: string };
  /** SANDBOX_AUTO_APPROVE: queue the job that approves the business a few seconds later. */
  autoApprove: boolean;
  jobs: Pick<Jobs, 'send'>;
}

const NOT_SUBMITTABLE: Record<string, string> = {
  Pending: 'This business has already been submitted and is waiting for review.',
  Approved: 'This business is already approved; there is nothing to submit.',
  Disabled: 'This business is disabled and cannot be submitted. Contact Tay support.',
};

/**
 * `Incomplete → Pending`: the business goes to review once nothing is missing. Refused with
 * 422 and every missing item keyed `section.field` otherwise. The auto-approval job is queued
 * in the same transaction, so it exists exactly when the submission does (ADR 002, 003).
 */
export async function submitBusiness({ db, businessId, actor, autoApprove, jobs }: SubmitBusinessOptions): Promise<Business> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    if (!canTransition(row.state, 'Pending')) {
      throw new AppError(ErrorCode.Conflict, NOT_SUBMITTABLE[row.state] ?? `A ${row.state} business cannot be submitted.`);
    }
    const missing = missingItems(await loadBusiness(trx, businessId));
    if (missing.length > 0) {
      throw new AppError(
        ErrorCode.UnprocessableEntity,
        `The business cannot be submitted yet: ${missing.length === 1 ? '1 detail is' : `${missing.length} details are`} missing.`,
        missingFields(missing),
      );
    }
    await trx
      .updateTable('businesses')
      .set({ state: 'Pending', submitted_at: sql<Date>`now()`, state_reason: null, updated_at: sql<Date>`now()` })
      .where('id', '=', businessId)
      .execute();
    await recordEvent(trx, { businessId, actor, action: 'business.submitted', details: { from: row.state, to: 'Pending' } });
    if (autoApprove) {
      await jobs.send('business.auto-approve', { businessId }, { db: jobDb(trx), startAfter: AUTO_APPROVE_DELAY_SECONDS });
    }
    return loadBusiness(trx, businessId);
  });
}
