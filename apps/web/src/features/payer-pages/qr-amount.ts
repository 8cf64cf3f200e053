import { parseMoney, qrAmountProblem, qrBoundsText, type PublicQrPage } from '@tay/contract';

type Bounds = Pick<PublicQrPage, 'minAmountCents' | 'maxAmountCents'>;

/** The help under the amount a payer enters on a code's page: its bounds, when it has them ("$5.00 to $100.00"). */
export function qrAmountHelp(bounds: Bounds): string | null {
  const text = qrBoundsText(bounds);
  return text ? `Enter ${text}` : null;
}

/** The amount typed on an open code's page, checked by the API's own rule (`qrAmountProblem`): in cents, or why not. */
export function checkQrAmount(text: string, bounds: Bounds): { cents: number } | { error: string } {
  if (!text.trim()) return { error: 'Enter the amount to pay.' };
  const cents = parseMoney(text);
  if (cents === null) return { error: 'Enter an amount in dollars and cents, such as 12.40.' };
  const problem = qrAmountProblem(cents, { amountMode: 'open', amountCents: null, ...bounds });
  return problem ? { error: problem } : { cents };
}
