import type { PaymentMethod } from '@tay/contract';
import type { FeeSchedule } from '../../config';

/** `amount × bps / 10 000` in integer arithmetic, halves rounded up (amounts are ≤ $10M, so it stays exact). */
export function basisPoints(amountCents: number, bps: number): number {
  return Math.floor((amountCents * bps + 5_000) / 10_000);
}

/**
 * The business's fee for one payment, in cents: cards a percentage plus a fixed part, bank debits
 * a percentage with a cap. Never as much as the amount itself (a tiny payment costs what is left
 * of it minus one cent, at most), so every payment leaves the business something.
 */
export function computeFee(method: PaymentMethod, amountCents: number, schedule: FeeSchedule): number {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError(`Not a positive amount of cents: ${amountCents}`);
  const fee =
    method === 'card'
      ? basisPoints(amountCents, schedule.card.bps) + schedule.card.fixedCents
      : Math.min(basisPoints(amountCents, schedule.bankAccount.bps), schedule.bankAccount.capCents);
  return Math.min(fee, amountCents - 1);
}
