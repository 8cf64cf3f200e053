import { formatMoney, qrBoundsText, type QrCode } from '@tay/contract';

/**
 * What a code charges, in words: "$12.00" for a fixed amount; "Payer enters" for an open one,
 * with its bounds when it has them ("Payer enters, $5.00 to $100.00", "…, at least $5.00").
 */
export function qrAmountText(code: Pick<QrCode, 'amountMode' | 'amountCents' | 'minAmountCents' | 'maxAmountCents'>): string {
  if (code.amountMode === 'fixed') return code.amountCents === null ? '—' : formatMoney(code.amountCents);
  const bounds = qrBoundsText(code);
  return bounds ? `Payer enters, ${bounds}` : 'Payer enters';
}
