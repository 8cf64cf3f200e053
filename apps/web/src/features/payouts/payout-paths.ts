import { paths } from '@tay/contract';

/** The form: a new payout, a Draft to edit, or (with `copy`) a new Draft from another payout. */
export function payoutFormHref(payoutId?: string): string {
  return payoutId ? `${paths.payouts.request}?payoutId=${encodeURIComponent(payoutId)}` : paths.payouts.request;
}

/** Every payout, optionally for one receiver or one batch, or open at one payout. */
export function payoutTransactionsHref(filter: { receiverId?: string; batchId?: string; payoutId?: string } = {}): string {
  const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => Boolean(v)) as [string, string][]).toString();
  return query ? `${paths.payouts.transactions}?${query}` : paths.payouts.transactions;
}
