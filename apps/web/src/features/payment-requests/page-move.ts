import type { PaymentRequest } from '@tay/contract';

/** The list page on screen, as the server answered it. */
export interface ShownPage {
  items: PaymentRequest[];
  total: number;
  pageSize: number;
}

/**
 * The next or previous page is asked for from the row next to it (keyset paging: as fast at
 * page 20,000 as at page 2); a jump to any other page goes by its number. So does any move from
 * a page past the last one: its rows, if any, are not the page its number says, so they anchor
 * nothing.
 */
export function pageMove(current: number, page: number, shown: ShownPage | undefined): Record<string, string | number | undefined> {
  const inRange = shown !== undefined && current <= Math.ceil(shown.total / shown.pageSize);
  const rows = inRange ? shown.items : [];
  const first = rows[0]?.transactionId;
  const last = rows.at(-1)?.transactionId;
  if (page === current + 1 && last) return { page, after: last, before: undefined };
  if (page === current - 1 && page > 1 && first) return { page, before: first, after: undefined };
  return { page, after: undefined, before: undefined };
}
