import { z } from 'zod';

/**
 * A business's money as the ledger derives it (ARCHITECTURE.md §5). Pending: captured, not yet
 * settled; available: settled, minus returns (it can go below zero after a return, and is shown
 * so). Collected and fees are totals over all payments, net of returns.
 */
export const Balances = z.object({
  pendingCents: z.number().int(),
  availableCents: z.number().int(),
  collectedCents: z.number().int(),
  feesCents: z.number().int(),
  /** Approved payouts not yet paid out: amount and fee, reserved from available (ADR 035). */
  payoutsInFlightCents: z.number().int(),
});
export type Balances = z.infer<typeof Balances>;
export const BalancesResponse = z.object({ status: z.literal('Success'), data: Balances });
