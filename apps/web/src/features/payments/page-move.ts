import type { PaymentRequest } from '@tay/contract';

/**
 * The next or previous page is asked for from the row next to it (keyset paging: as fast at
 * page 20,000 as at page 2); a jump to any other page goes by its number.
 */
export function pageMove(current: number, page: number, rows: PaymentRequest[] | undefined): Record<string, string | number | undefined> {
  const first = rows?.[0]?.transactionId;
  const last = rows?.at(-1)?.transactionId;
  if (page === current + 1 && last) return { page, after: last, before: undefined };
  if (page === current - 1 && page > 1 && first) return { page, before: first, after: undefined };
  return { page, after: undefined, before: undefined };
}
