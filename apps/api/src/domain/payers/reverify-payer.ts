import { ErrorCode, type Payer } from '@tay/contract';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../businesses/audit';
import { loadPayer, lockPayerRow } from './payer-record';
import type { VerificationActionOptions } from './resend-verification';
import { sendVerificationLink } from './verification';
import { updateOwned } from '../../db/owned-rows';

/**
 * POST …/payers/:payerId/reverify: asks a verified payer to confirm their address again. The payer
 * is unverified from this moment until they open the new link (ADR 005): a merchant re-verifies
 * because they doubt the address, so it should not keep counting as confirmed meanwhile.
 */
export async function reverifyPayer({ db, mailer, publicUrl, businessId, businessName, payerId, actor }: VerificationActionOptions): Promise<Payer> {
  return db.transaction().execute(async (trx) => {
    const row = await lockPayerRow(trx, businessId, payerId);
    if (row.verification !== 'verified') {
      throw new AppError(ErrorCode.Conflict, 'This payer has not confirmed their e-mail address yet. Use Resend verification to send them a new link.');
    }
    await updateOwned(trx, 'payers', businessId, payerId, { verification: 'unverified', verified_at: null });
    await sendVerificationLink(trx, { mailer, publicUrl, businessId, businessName, payer: { id: row.id, email: row.email, displayName: row.display_name } });
    await recordEvent(trx, { businessId, actor, action: 'payer.reverification_requested', details: { payerId } });
    return loadPayer(trx, businessId, payerId);
  });
}
