import { formatMoney, type PublicPayPage } from '@tay/contract';

/**
 * The big amount at the top of the pay page, and the line under it. While the page takes money
 * it is what is left to pay; once nothing is, it is what the payer paid (or is paying), never a
 * bare "$0.00" that reads as if nothing happened.
 */
export function payHeadline(data: Pick<PublicPayPage, 'status' | 'amountCents' | 'amountPaidCents' | 'remainingCents' | 'payments'>): {
  title: string;
  caption: string | null;
} {
  const paid = formatMoney(data.amountPaidCents);
  if (data.status === 'payable') {
    return {
      title: formatMoney(data.remainingCents),
      caption: data.amountPaidCents > 0 ? `${paid} of ${formatMoney(data.amountCents)} already paid` : null,
    };
  }
  const inFlight = data.payments.filter((p) => p.state === 'Pending').reduce((sum, p) => sum + p.amountCents, 0);
  if (data.amountPaidCents > 0) {
    const rest = inFlight > 0 ? `${formatMoney(inFlight)} more on its way` : `${formatMoney(data.remainingCents)} not paid`;
    return { title: `${paid} paid`, caption: data.remainingCents > 0 ? `of ${formatMoney(data.amountCents)}; ${rest}` : null };
  }
  if (inFlight > 0) return { title: `${formatMoney(inFlight)} being paid`, caption: null };
  return { title: formatMoney(data.remainingCents), caption: null };
}
