import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { canTransition, ErrorCode, type Business, type BusinessState } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow, nameOf } from './business-record';
import { declineEmail, disabledEmail, emailOwners, enabledEmail, type ReviewMail } from './review-emails';

export interface SetBusinessStateOptions {
  db: Kysely<DB>;
  businessId: string;
  /** `Disabled`: disable (an approved business, or decline a Pending one); `Approved`: enable a disabled one. */
  to: 'Disabled' | 'Approved';
  actor: Actor;
  /** Why it is disabled; shown to the business as `stateReason`. */
  reason?: string | undefined;
  /** Tells the owners by e-mail: declined, disabled, or enabled again. */
  mail?: ReviewMail | undefined;
}

/** Operations' `Approved ⇄ Disabled` (and `Pending → Disabled`), checked against the contract's transition table. */
export async function setBusinessState({
  db,
  businessId,
  to,
  actor,
  reason,
  mail,
}: SetBusinessStateOptions): Promise<{ business: Business; from: BusinessState }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    const from = row.state;
    if (to === 'Disabled' && !canTransition(from, 'Disabled')) {
      throw new AppError(
        ErrorCode.Conflict,
        from === 'Disabled' ? `${nameOf(row)} is already disabled.` : `${nameOf(row)} is ${from}: only a Pending or Approved business can be disabled.`,
      );
    }
    // Approval from Pending is a review (approveBusiness); here Approved is reached only by re-enabling.
    if (to === 'Approved' && (from !== 'Disabled' || !canTransition(from, 'Approved'))) {
      throw new AppError(
        ErrorCode.Conflict,
        from === 'Pending'
          ? `${nameOf(row)} is Pending review, not disabled; approve it instead.`
          : `${nameOf(row)} is ${from}, not disabled; only a disabled business can be enabled.`,
      );
    }
    const stateReason = to === 'Disabled' ? reason?.trim() || null : null;
    await trx
      .updateTable('businesses')
      .set({
        state: to,
        state_reason: stateReason,
        ...(to === 'Approved' ? { approved_at: sql<Date>`coalesce(approved_at, now())` } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', businessId)
      .execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: to === 'Disabled' ? 'business.disabled' : 'business.enabled',
      details: { from, to, ...(stateReason ? { reason: stateReason } : {}) },
    });
    if (mail) {
      const input = (owner: string) => ({ to: owner, businessName: row.business_name, publicUrl: mail.publicUrl, reason: stateReason });
      await emailOwners(trx, businessId, mail, (owner) =>
        to === 'Approved' ? enabledEmail(input(owner)) : from === 'Pending' ? declineEmail(input(owner)) : disabledEmail(input(owner)),
      );
    }
    return { business: await loadBusiness(trx, businessId), from };
  });
}
