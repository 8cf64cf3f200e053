import { parseEnvelope, symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import type { Kysely } from 'kysely';
import { secretConfigOf } from '../../auth/better-auth';
import type { DB } from '../../db/schema';

export interface ResealTwoFactorsOutcome {
  /** Opened under an earlier secret and encrypted again under the current one. */
  resealed: number;
  /** Already under the current secret. */
  current: number;
  /** Opened by none of the configured secrets, left as they are: the people's user ids. */
  unreadable: string[];
}

/**
 * After AUTH_SECRET changed (ADR 018, 052): encrypts every person's authenticator secret and
 * recovery codes again under the current secret, so the earlier one can be dropped from
 * AUTH_SECRET_PREVIOUS without locking them out of their second factor. A row is written only if
 * it still holds what was read (a recovery code used meanwhile is not brought back). Running it
 * again changes nothing.
 */
export async function resealTwoFactors({
  db,
  secrets,
  batchSize = 500,
}: {
  db: Kysely<DB>;
  /** AUTH_SECRET first, then AUTH_SECRET_PREVIOUS. */
  secrets: readonly string[];
  batchSize?: number;
}): Promise<ResealTwoFactorsOutcome> {
  const key = secretConfigOf(secrets);
  const outcome: ResealTwoFactorsOutcome = { resealed: 0, current: 0, unreadable: [] };
  let after: string | null = null;
  for (;;) {
    const from: string | null = after;
    const rows = await db
      .selectFrom('two_factors')
      .select(['id', 'user_id', 'secret', 'backup_codes'])
      .$if(from !== null, (q) => q.where('id', '>', from!))
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      if ([row.secret, row.backup_codes].every((sealed) => parseEnvelope(sealed)?.version === key.currentVersion)) {
        outcome.current++;
        continue;
      }
      let secret: string;
      let backupCodes: string;
      try {
        secret = await symmetricDecrypt({ key, data: row.secret });
        backupCodes = await symmetricDecrypt({ key, data: row.backup_codes });
      } catch {
        outcome.unreadable.push(row.user_id);
        continue;
      }
      const updated = await db
        .updateTable('two_factors')
        .set({ secret: await symmetricEncrypt({ key, data: secret }), backup_codes: await symmetricEncrypt({ key, data: backupCodes }) })
        .where('id', '=', row.id)
        .where('secret', '=', row.secret)
        .where('backup_codes', '=', row.backup_codes)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) outcome.resealed++;
      else outcome.current++; // Changed meanwhile, by a write under the current secret.
    }
    if (rows.length < batchSize) return outcome;
    after = rows[rows.length - 1]!.id;
  }
}
