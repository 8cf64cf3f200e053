import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isValidRoutingNumber, MANUAL_BANK_DIRECTORY_ID, maskNumber, type AddBankAccountBody, type Business } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { createSecretBox, type SecretBox } from '../../lib/secret-box';
import { sandboxBankById, sandboxBankByRoutingNumber } from '../directory/sandbox-banks';
import { assertEditable } from './access';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow } from './business-record';
import { requireMoneyRule } from './money-rules';
import { insertNew } from '../../db/owned-rows';

export const INVALID_ROUTING_NUMBER = 'This routing number is not valid; check the 9 digits on your cheque.';
/** Name shown for a typed routing number that is not in the bank directory. */
export const OTHER_BANK_NAME = 'Other bank';

/** The box bank account numbers are sealed in: `secrets` is AUTH_SECRET, then those it replaced. */
export function bankAccountNumberBox(secrets: readonly string[]): SecretBox {
  return createSecretBox(secrets, 'bank-account-number');
}

/** The AES-GCM associated data of an account number: the ciphertext opens only on its own row. */
export function accountNumberContext(businessId: string, bankAccountId: string): string {
  return `${businessId}:${bankAccountId}`;
}

/**
 * Sets the settlement account (add-bank-account with typed numbers, link-account with a bank
 * from the directory). A previous settlement account is kept, marked replaced, for the audit
 * trail. The full account number is stored only encrypted; the last 4 digits are kept for display.
 */
export async function addBankAccount({
  db,
  businessId,
  actor,
  body,
  secretBox,
}: {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor & { userId: string };
  body: AddBankAccountBody;
  secretBox: SecretBox;
}): Promise<Business> {
  let directoryId: string;
  let bankName: string;
  let routingNumber: string;
  if (body.directoryId) {
    const bank = sandboxBankById(body.directoryId);
    if (!bank) throw AppError.validation('Choose a bank from the directory.', { directoryId: 'Choose a bank from the directory.' });
    ({ directoryId, bankName, routingNumber } = bank);
  } else {
    routingNumber = body.routingNumber ?? '';
    if (!isValidRoutingNumber(routingNumber)) throw AppError.validation(INVALID_ROUTING_NUMBER, { routingNumber: INVALID_ROUTING_NUMBER });
    const bank = sandboxBankByRoutingNumber(routingNumber);
    directoryId = bank?.directoryId ?? MANUAL_BANK_DIRECTORY_ID;
    bankName = bank?.bankName ?? OTHER_BANK_NAME;
  }

  return db.transaction().execute(async (trx) => {
    // Where the business is paid is an owner's to change (MONEY_RULES), asked with the role this transaction reads.
    await requireMoneyRule(trx, businessId, actor.userId, 'settlementAccount');
    const row = await lockBusinessRow(trx, businessId);
    assertEditable(row);
    const previous = await trx
      .updateTable('bank_accounts')
      .set({ is_settlement: false, replaced_at: sql<Date>`now()` })
      .where('business_id', '=', businessId)
      .where('is_settlement', '=', true)
      .returning('id')
      .executeTakeFirst();
    const id = await insertNew(trx, 'bank_accounts', 'ba', (id) => ({
      business_id: businessId,
      directory_id: directoryId,
      bank_name: bankName,
      routing_number: routingNumber,
      account_number_last4: body.accountNumber.slice(-4),
      account_number_encrypted: secretBox.seal(body.accountNumber, accountNumberContext(businessId, id)),
      account_type: body.accountType,
      account_holder_name: body.accountHolderName,
      is_settlement: true,
    }));
    await trx
      .updateTable('businesses')
      .set({ updated_at: sql<Date>`now()` })
      .where('id', '=', businessId)
      .execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: previous ? 'bank_account.replaced' : 'bank_account.added',
      details: {
        bankAccountId: id,
        ...(previous ? { replacedBankAccountId: previous.id } : {}),
        directoryId,
        bankName,
        routingNumber: maskNumber(routingNumber),
        accountNumber: maskNumber(body.accountNumber),
        accountType: body.accountType,
      },
    });
    return loadBusiness(trx, businessId);
  });
}
