import { sql, type Kysely } from 'kysely';
import { ErrorCode, type PayerVerification } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import { hashVerificationToken } from './verification';

export const UNKNOWN_LINK =
  'This confirmation link is not valid, or a newer link has replaced it. Open the link in the latest e-mail, or ask the business to send you a new one.';

/**
 * POST /api/public/payers/verify/:token (the payer, not signed in): confirms the payer's e-mail.
 * Opening the same link again changes nothing and says so; a link replaced by a newer one (resend,
 * re-verify, new address) is unknown.
 */
export async function verifyPayer({ db, token }: { db: Kysely<DB>; token: string }): Promise<PayerVerification> {
  const hash = hashVerificationToken(token);
  return db.transaction().execute(async (trx) => {
    const payer = await trx
      .selectFrom('payers')
      .innerJoin('businesses', 'businesses.id', 'payers.business_id')
      .select(['payers.business_id', 'payers.id', 'payers.display_name', 'payers.verification', 'payers.verified_at', 'businesses.business_name'])
      .where('payers.verification_token_hash', '=', hash)
      .forUpdate('payers')
      .executeTakeFirst();
    if (!payer) throw new AppError(ErrorCode.NotFound, UNKNOWN_LINK);
    if (payer.verification === 'verified' && payer.verified_at) {
      return { payerName: payer.display_name, businessName: payer.business_name, verifiedAt: payer.verified_at.toISOString(), alreadyVerified: true };
    }
    const updated = await trx
      .updateTable('payers')
      .set({ verification: 'verified', verified_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('business_id', '=', payer.business_id)
      .where('id', '=', payer.id)
      .returning('verified_at')
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      businessId: payer.business_id,
      actor: { userId: null, label: 'payer' },
      action: 'payer.verified',
      details: { payerId: payer.id },
    });
    return { payerName: payer.display_name, businessName: payer.business_name, verifiedAt: updated.verified_at!.toISOString(), alreadyVerified: false };
  });
}
