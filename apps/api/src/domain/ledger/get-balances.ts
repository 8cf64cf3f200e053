import { sql } from 'kysely';
import type { Balances } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { LedgerAccountKind } from '../../db/schema/payments';

/**
 * A business's balances, derived from its journal entries (nothing is stored). Pending and
 * available are credit balances (money owed to the business), shown positive; collected is what
 * the processor took in for it, fees what the platform kept — both net of returns.
 */
export async function getBalances(db: Executor, businessId: string): Promise<Balances> {
  const { rows } = await sql<{ kind: LedgerAccountKind; total: number }>`
    SELECT a.kind, sum(e.amount_cents)::bigint AS total
    FROM journal_transactions t
    JOIN journal_entries e ON e.transaction_id = t.id
    JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.business_id = ${businessId}
    GROUP BY a.kind`.execute(db);
  const sum = (kind: LedgerAccountKind) => Number(rows.find((r) => r.kind === kind)?.total ?? 0);
  // `|| 0` turns an empty -0 into 0.
  return {
    pendingCents: -sum('business_pending') || 0,
    availableCents: -sum('business_available') || 0,
    collectedCents: sum('processor_clearing'),
    feesCents: -sum('platform_fees') || 0,
  };
}
