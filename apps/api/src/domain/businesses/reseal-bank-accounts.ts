import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { accountNumberContext } from './add-bank-account';

type Key = { business_id: string; id: string };

export interface ResealOutcome {
  /** Opened under an earlier secret and sealed again under the current one. */
  resealed: number;
  /** Already under the current secret. */
  current: number;
  /** Opened by none of the configured secrets, left as they are: `<business id>:<bank account id>`. */
  unreadable: string[];
}

/**
 * After AUTH_SECRET changed (ADR 018): seals every stored bank account number again under the
 * current secret, so the secrets it replaced can be dropped from AUTH_SECRET_PREVIOUS. Walks the
 * accounts in key order, a batch at a time; a row is written only if it still holds the
 * ciphertext that was read, so an account changed meanwhile is not overwritten. Running it again
 * changes nothing.
 */
export async function resealBankAccounts({
  db,
  secretBox,
  batchSize = 500,
}: {
  db: Kysely<DB>;
  secretBox: SecretBox;
  batchSize?: number;
}): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: 0, current: 0, unreadable: [] };
  let after: Key | null = null;
  for (;;) {
    const from: Key | null = after;
    const rows: (Key & { account_number_encrypted: string })[] = await db
      .selectFrom('bank_accounts')
      .select(['business_id', 'id', 'account_number_encrypted'])
      .$if(from !== null, (q) => q.where((eb) => eb(eb.refTuple('business_id', 'id'), '>', eb.tuple(from!.business_id, from!.id))))
      .orderBy('business_id')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const context = accountNumberContext(row.business_id, row.id);
      if (secretBox.isCurrent(row.account_number_encrypted, context)) {
        outcome.current++;
        continue;
      }
      let plaintext: string;
      try {
        plaintext = secretBox.open(row.account_number_encrypted, context);
      } catch {
        outcome.unreadable.push(context);
        continue;
      }
      const updated = await db
        .updateTable('bank_accounts')
        .set({ account_number_encrypted: secretBox.seal(plaintext, context) })
        .where('business_id', '=', row.business_id)
        .where('id', '=', row.id)
        .where('account_number_encrypted', '=', row.account_number_encrypted)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) outcome.resealed++;
      else outcome.current++; // Changed meanwhile, by a write that sealed it under the current secret.
    }
    if (rows.length < batchSize) return outcome;
    after = rows[rows.length - 1]!;
  }
}
