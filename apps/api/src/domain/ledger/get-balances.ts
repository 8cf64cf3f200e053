import { sql } from 'kysely';
import type { Balances } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { LedgerAccountKind } from '../../db/schema/payments';

/**
 * A business's balances, derived from its journal entries (nothing is stored). Pending and
 * available are credit balances (money owed to the business), shown positive; collected is what
 * the processor took in for it, fees what the platform kept (payout fees included) — both net of
 * returns; payouts in flight what approved payouts hold until the processor pays them (ADR 035).
 */
export async function getBalances(db: Executor, businessId: string): Promise<Balances> {
  const { rows } = await sql<{ kind: LedgerAccountKind; total: number; collected: number }>`
    SELECT a.kind, sum(e.amount_cents)::bigint AS total,
      coalesce(sum(e.amount_cents) FILTER (WHERE left(t.kind, 8) = 'payment_'), 0)::bigint AS collected
    FROM journal_transactions t
    JOIN journal_entries e ON e.transaction_id = t.id
    JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.business_id = ${businessId}
    GROUP BY a.kind`.execute(db);
  const sum = (kind: LedgerAccountKind) => Number(rows.find((r) => r.kind === kind)?.total ?? 0);
  // Payouts also move the processor clearing account; collected counts what payments brought in.
  const collected = Number(rows.find((r) => r.kind === 'processor_clearing')?.collected ?? 0);
  // `|| 0` turns an empty -0 into 0.
  return {
    pendingCents: -sum('business_pending') || 0,
    availableCents: -sum('business_available') || 0,
    collectedCents: collected,
    feesCents: -sum('platform_fees') || 0,
    payoutsInFlightCents: -sum('business_payouts_in_flight') || 0,
  };
}
