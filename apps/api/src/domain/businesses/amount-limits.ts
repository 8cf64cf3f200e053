import { AMOUNT_CONFIRMATION_REQUIRED, amountInWords, formatMoney } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

export interface AmountLimits {
  confirmAboveCents: number;
  amountCeilingCents: number;
}

/** The business's two amount limits (Setup → Configuration), read in the caller's transaction. */
export async function amountLimitsOf(db: Executor, businessId: string): Promise<AmountLimits> {
  const row = await db.selectFrom('businesses').select(['confirm_above_cents', 'amount_ceiling_cents']).where('id', '=', businessId).executeTakeFirstOrThrow();
  return { confirmAboveCents: Number(row.confirm_above_cents), amountCeilingCents: Number(row.amount_ceiling_cents) };
}

/** Refuses (400, naming `field`) an amount above the business's highest amount. */
export function checkCeiling(limits: AmountLimits, amountCents: number, field: string, what: string): void {
  if (amountCents <= limits.amountCeilingCents) return;
  const message = `${formatMoney(amountCents)} is above this business's highest amount for ${what}, ${formatMoney(limits.amountCeilingCents)}. An owner or admin can change it under Setup → Configuration.`;
  throw AppError.validation(message, { [field]: message });
}

/**
 * A typo moves real money (issue 35): an amount above the business's confirmation limit goes out
 * only when the caller repeats it as `confirmedAmountCents` — the screen asks for it with the
 * amount in words. Otherwise 422 `AMOUNT_CONFIRMATION_REQUIRED`, naming the field.
 */
export function checkConfirmed(limits: AmountLimits, amountCents: number, confirmedAmountCents: number | null | undefined, what: string): void {
  if (amountCents <= limits.confirmAboveCents || confirmedAmountCents === amountCents) return;
  const message = `${formatMoney(amountCents)} (${amountInWords(amountCents)}) is above this business's confirmation limit of ${formatMoney(limits.confirmAboveCents)}: confirm the amount to send ${what}.`;
  // The header names the amount to repeat, for a client that confirms and retries (the web app's prompt).
  throw new AppError(AMOUNT_CONFIRMATION_REQUIRED, message, { confirmedAmountCents: message }, 422).withHeader('confirm-amount-cents', String(amountCents));
}

/** Both: the ceiling always, the confirmation when the money is about to move (`goesOut`). */
export async function checkAmount(
  db: Executor,
  businessId: string,
  {
    amountCents,
    confirmedAmountCents,
    field,
    what,
    goesOut,
  }: { amountCents: number; confirmedAmountCents?: number | null | undefined; field: string; what: string; goesOut: boolean },
): Promise<void> {
  const limits = await amountLimitsOf(db, businessId);
  checkCeiling(limits, amountCents, field, what);
  if (goesOut) checkConfirmed(limits, amountCents, confirmedAmountCents, what);
}
