import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import type { ResealOutcome } from '../businesses/reseal-bank-accounts';
import { receiverAccountContext } from './account-context';

type Key = { business_id: string; id: string };

/**
 * `reseal-secrets` for receivers' account numbers (ADR 035), as for the settlement accounts: a
 * batch at a time in key order, each row written only if it still holds the ciphertext read.
 */
export async function resealReceiverAccounts({
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
    const rows: (Key & { account_number_encrypted: string | null })[] = await db
      .selectFrom('receivers')
      .select(['business_id', 'id', 'account_number_encrypted'])
      .where('account_number_encrypted', 'is not', null)
      .$if(from !== null, (q) => q.where((eb) => eb(eb.refTuple('business_id', 'id'), '>', eb.tuple(from!.business_id, from!.id))))
      .orderBy('business_id')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const sealed = row.account_number_encrypted!;
      const context = receiverAccountContext(row.business_id, row.id);
      if (secretBox.isCurrent(sealed, context)) {
        outcome.current++;
        continue;
      }
      let plaintext: string;
      try {
        plaintext = secretBox.open(sealed, context);
      } catch {
        outcome.unreadable.push(context);
        continue;
      }
      const updated = await db
        .updateTable('receivers')
        .set({ account_number_encrypted: secretBox.seal(plaintext, context) })
        .where('business_id', '=', row.business_id)
        .where('id', '=', row.id)
        .where('account_number_encrypted', '=', sealed)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) outcome.resealed++;
      else outcome.current++;
    }
    if (rows.length < batchSize) return outcome;
    after = rows[rows.length - 1]!;
  }
}
