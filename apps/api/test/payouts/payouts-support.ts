import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema';

/** Turns payouts on for a business, as operations' enable-payouts does. */
export async function enablePayouts(db: Kysely<DB>, businessId: string, on = true): Promise<void> {
  await db
    .updateTable('businesses')
    .set({ payout_enabled: on ? 1 : 0 })
    .where('id', '=', businessId)
    .execute();
}

/** The secure link's token in the latest of these mails (the outbox lists the newest first). */
export function linkTokenOf(messages: { text: string }[]): string {
  const last = messages.map((m) => m.text).find((text) => text.includes('/receiver/bank-account/'));
  const match = last?.match(/\/receiver\/bank-account\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error('No bank-account link was e-mailed');
  return match[1]!;
}

/** Every table whose rows (as text) hold `needle`: where a secret would have leaked. */
export async function tablesHolding(db: Kysely<DB>, needle: string): Promise<string[]> {
  const { rows: tables } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table_name)} t WHERE t::text LIKE ${`%${needle}%`}`.execute(db);
    if (Number(rows[0]!.n) > 0) found.push(table_name);
  }
  return found;
}
