import { formatMoney, MAX_AMOUNT_CENTS } from '../common/money';
import type { QrCode } from './schemas';

/*
 * A QR code's amount rules, one place, for the API and the payer's page. Apart from the schemas so
 * that the payer's page reads them without building every QR code schema on a phone.
 */

type AmountRule = Pick<QrCode, 'amountMode' | 'amountCents' | 'minAmountCents' | 'maxAmountCents'>;

/** An open code's bounds in words ("$5.00 to $100.00", "at least $5.00", "up to $100.00"), or null. */
export function qrBoundsText({ minAmountCents: min, maxAmountCents: max }: Pick<AmountRule, 'minAmountCents' | 'maxAmountCents'>): string | null {
  if (min !== null && max !== null) return `${formatMoney(min)} to ${formatMoney(max)}`;
  if (min !== null) return `at least ${formatMoney(min)}`;
  if (max !== null) return `up to ${formatMoney(max)}`;
  return null;
}

/**
 * Why a code does not take this amount, in the words the payer's page and the API both use, or
 * null when it does: a fixed code takes its amount, an open one anything within its bounds.
 */
export function qrAmountProblem(cents: number, code: AmountRule): string | null {
  if (cents <= 0) return 'Enter an amount above $0.00.';
  if (cents > MAX_AMOUNT_CENTS) return 'The amount is above the $10,000,000.00 limit.';
  if (code.amountMode === 'fixed') return cents === code.amountCents ? null : `This code takes ${formatMoney(code.amountCents ?? 0)}.`;
  if (code.minAmountCents !== null && cents < code.minAmountCents) return `Enter at least ${formatMoney(code.minAmountCents)}.`;
  if (code.maxAmountCents !== null && cents > code.maxAmountCents) return `Enter at most ${formatMoney(code.maxAmountCents)}.`;
  return null;
}
