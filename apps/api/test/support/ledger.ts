import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema';
import { getBalances } from '../../src/domain/ledger/get-balances';

/**
 * The ledger's invariants, checked over the whole database: every journal transaction has at least
 * two entries summing to zero, every (payment, kind) and (refund, kind) is posted at most once, and each business's
 * balances recomputed here from raw entries equal what `getBalances` reports. Returns the
 * recomputed balances per business so a test can assert the amounts too.
 */
export async function assertLedgerInvariants(db: Kysely<DB>): Promise<Map<string, { pending: number; available: number }>> {
  const { rows: unbalanced } = await sql<{ id: string; n: number; total: number }>`
    SELECT t.id, count(e.id)::int AS n, coalesce(sum(e.amount_cents), 0)::bigint AS total
    FROM journal_transactions t LEFT JOIN journal_entries e ON e.transaction_id = t.id
    GROUP BY t.id
    HAVING count(e.id) < 2 OR coalesce(sum(e.amount_cents), 0) <> 0`.execute(db);
  expect(unbalanced, 'every journal transaction balances with ≥ 2 entries').toEqual([]);

  const { rows: twice } = await sql<{ payment_id: string }>`
    SELECT payment_id FROM journal_transactions WHERE refund_id IS NULL GROUP BY payment_id, kind HAVING count(*) > 1`.execute(db);
  expect(twice, 'one journal transaction per payment and kind').toEqual([]);
  const { rows: refundedTwice } = await sql<{ refund_id: string }>`
    SELECT refund_id FROM journal_transactions WHERE refund_id IS NOT NULL GROUP BY refund_id, kind HAVING count(*) > 1`.execute(db);
  expect(refundedTwice, 'one journal transaction per refund and kind').toEqual([]);

  const { rows: total } = await sql<{ total: number }>`SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM journal_entries`.execute(db);
  expect(Number(total[0]!.total), 'the whole ledger sums to zero').toBe(0);

  const entries = await db
    .selectFrom('journal_entries as e')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .select(['a.business_id', 'a.kind', 'e.amount_cents'])
    .where('a.business_id', 'is not', null)
    .execute();
  const recomputed = new Map<string, { pending: number; available: number }>();
  for (const entry of entries) {
    const b = recomputed.get(entry.business_id!) ?? { pending: 0, available: 0 };
    if (entry.kind === 'business_pending') b.pending -= entry.amount_cents;
    if (entry.kind === 'business_available') b.available -= entry.amount_cents;
    recomputed.set(entry.business_id!, b);
  }
  const businesses = await db.selectFrom('businesses').select('id').execute();
  for (const { id } of businesses) {
    const expected = recomputed.get(id) ?? { pending: 0, available: 0 };
    const reported = await getBalances(db, id);
    expect({ pending: reported.pendingCents, available: reported.availableCents }, `balances of ${id}`).toEqual(expected);
  }
  return recomputed;
}
