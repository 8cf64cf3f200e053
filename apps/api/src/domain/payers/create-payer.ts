import type { Kysely } from 'kysely';
import type { Payer, PayerInput } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import { recordEvent, type Actor } from '../businesses/audit';
import { assertNoDuplicate, duplicateFromUniqueViolation, invalidPayer, validatePayerFields } from './payer-input';
import { loadPayer } from './payer-record';
import { sendVerificationLink } from './verification';
import { insertNew } from '../../db/owned-rows';

export interface CreatePayerOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
  businessId: string;
  /** The e-mails name the business. */
  businessName: string;
  actor: Actor & { userId: string };
  body: PayerInput;
}

/** POST /api/businesses/:id/payers: a new, active, unverified payer, e-mailed a verification link. */
export async function createPayer({ db, mailer, publicUrl, businessId, businessName, actor, body }: CreatePayerOptions): Promise<Payer> {
  const checked = validatePayerFields(body);
  if (!checked.ok) throw invalidPayer(checked.fields);
  const fields = checked.value;
  try {
    return await db.transaction().execute(async (trx) => {
      await assertNoDuplicate(trx, { businessId, email: fields.email, reference: fields.reference });
      const id = await insertNew(trx, 'payers', 'pyr', () => ({
        business_id: businessId,
        first_name: fields.firstName,
        last_name: fields.lastName,
        company_name: fields.companyName,
        display_name: fields.displayName,
        email: fields.email,
        mobile_number: fields.mobileNumber,
        reference: fields.reference,
        verification_token_hash: null,
        verification_sent_at: null,
        verified_at: null,
        import_batch_id: null,
      }));
      await sendVerificationLink(trx, { mailer, publicUrl, businessId, businessName, payer: { id, email: fields.email, displayName: fields.displayName } });
      await recordEvent(trx, { businessId, actor, action: 'payer.created', details: { payerId: id } });
      return loadPayer(trx, businessId, id);
    });
  } catch (error) {
    throw duplicateFromUniqueViolation(error) ?? error;
  }
}
