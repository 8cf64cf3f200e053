import type { Kysely } from 'kysely';
import { ErrorCode, type Payer } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import { recordEvent, type Actor } from '../businesses/audit';
import { loadPayer, lockPayerRow } from './payer-record';
import { sendVerificationLink } from './verification';

export interface VerificationActionOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
  businessId: string;
  /** The e-mails name the business. */
  businessName: string;
  payerId: string;
  actor: Actor & { userId: string };
}

/**
 * POST …/payers/:payerId/resend-verification: a new link for an unverified payer (also the first
 * one for a payer that came from an import). The previous link stops working.
 */
export async function resendVerification({ db, mailer, publicUrl, businessId, businessName, payerId, actor }: VerificationActionOptions): Promise<Payer> {
  return db.transaction().execute(async (trx) => {
    const row = await lockPayerRow(trx, businessId, payerId);
    if (row.verification === 'verified') {
      throw new AppError(ErrorCode.Conflict, 'This payer has already confirmed their e-mail address. Use Re-verify to ask them to confirm it again.');
    }
    await sendVerificationLink(trx, { mailer, publicUrl, businessId, businessName, payer: { id: row.id, email: row.email, displayName: row.display_name } });
    await recordEvent(trx, { businessId, actor, action: 'payer.verification_sent', details: { payerId, reason: 'resend' } });
    return loadPayer(trx, businessId, payerId);
  });
}
