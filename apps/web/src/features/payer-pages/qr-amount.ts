import { parseMoney, qrAmountProblem, qrBoundsText, type PublicQrPage } from '@tay/contract';

type Bounds = Pick<PublicQrPage, 'minAmountCents' | 'maxAmountCents'>;

/** The help under the amount a payer enters on a code's page: its bounds, when it has them ("$5.00 to $100.00"). */
export function qrAmountHelp(bounds: Bounds): string | null {
  const text = qrBoundsText(bounds);
  return text ? `Enter ${text}` : null;
}

/** What a payer's page says of an amount it cannot read as dollars and cents ("twelve", "12.345"). */
const UNREADABLE_AMOUNT = 'Enter an amount in dollars and cents, such as 12.40.';

/**
 * An amount a payer typed (on a code's page, or a part payment on a request's), read as cents; or
 * why it cannot be read. Whether the amount is too small or too large is each page's own rule.
 */
export function readTypedAmount(text: string): { cents: number } | { error: string } {
  if (!text.trim()) return { error: 'Enter the amount to pay.' };
  const cents = parseMoney(text);
  return cents === null ? { error: UNREADABLE_AMOUNT } : { cents };
}

/** The amount typed on an open code's page, checked by the API's own rule (`qrAmountProblem`): in cents, or why not. */
export function checkQrAmount(text: string, bounds: Bounds): { cents: number } | { error: string } {
  const typed = readTypedAmount(text);
  if ('error' in typed) return typed;
  const { cents } = typed;
  const problem = qrAmountProblem(cents, { amountMode: 'open', amountCents: null, ...bounds });
  return problem ? { error: problem } : { cents };
}
