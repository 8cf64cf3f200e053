import { REFUND_FILTERS, type RequestListQuery } from '@tay/contract';
import { amountRange, pageOf } from '../../lib/list-params';

const SORTS = ['createdAt', 'dueDate', 'amount', 'payer', 'state', 'reference'] as const;

/** URL parameters that narrow the list (the payer's name only labels the payer filter). */
export const FILTER_PARAMS = [
  'search',
  'status',
  'payerId',
  'payerName',
  'batchId',
  // Refunded in full, in part, or at all (ADR 051).
  'refunded',
  'from',
  'to',
  // The days of a billing report's figure (ADR 039), set by its links: shown as chips.
  'sentFrom',
  'sentTo',
  'paidFrom',
  'paidTo',
  'returnedFrom',
  'returnedTo',
  'min',
  'max',
  'studentId',
  'studentName',
  'programId',
  'period',
  'clientId',
  'clientName',
] as const;

/** Parameters that open something over the list without changing it. */
const OVERLAY_PARAMS = new Set(['transid', 'receipt', 'refund']);

/** Whether the person narrowed the list; `fixed` names filters the page sets itself (a payer's own page). */
export function hasFilters(params: URLSearchParams, fixed: readonly string[] = []): boolean {
  return FILTER_PARAMS.some((key) => !fixed.includes(key) && Boolean(params.get(key)));
}

/**
 * The list's query, read from the page's URL: the URL is the one source of truth, so the list,
 * the CSV export, the filter inputs, and back/forward all agree. Amounts are dollars in the URL
 * (`min`, `max`) and cents in the query; an amount that does not read as money is left out.
 */
export type UrlListQuery = RequestListQuery & { page: number; pageSize: number };

export function requestQueryFromParams(params: URLSearchParams, view: 'history' | 'draft'): UrlListQuery {
  const get = (key: string) => params.get(key) || undefined;
  const sortBy = get('sortBy');
  return {
    view,
    ...pageOf(params),
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as RequestListQuery['sortBy']) : 'createdAt',
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(view === 'history' && get('status') ? { status: get('status') } : {}),
    ...(get('payerId') ? { payerId: get('payerId') } : {}),
    ...(get('batchId') ? { batchId: get('batchId') } : {}),
    ...(view === 'history' && (REFUND_FILTERS as readonly string[]).includes(get('refunded') ?? '')
      ? { refunded: get('refunded') as RequestListQuery['refunded'] }
      : {}),
    // The student template's billing history (ADR 036).
    ...(get('studentId') ? { studentId: get('studentId') } : {}),
    ...(get('programId') ? { programId: get('programId') } : {}),
    ...(get('period') ? { period: get('period') } : {}),
    // The healthcare template's statements of one patient (ADR 037).
    ...(get('clientId') ? { clientId: get('clientId') } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
    ...(get('sentFrom') ? { sentFrom: get('sentFrom') } : {}),
    ...(get('sentTo') ? { sentTo: get('sentTo') } : {}),
    ...(get('paidFrom') ? { paidFrom: get('paidFrom') } : {}),
    ...(get('paidTo') ? { paidTo: get('paidTo') } : {}),
    ...(get('returnedFrom') ? { returnedFrom: get('returnedFrom') } : {}),
    ...(get('returnedTo') ? { returnedTo: get('returnedTo') } : {}),
    ...amountRange(params),
    ...(get('after') ? { after: get('after') } : get('before') ? { before: get('before') } : {}),
  };
}

/**
 * The URL after a change. A new filter, search or sort goes back to page 1 unless the change
 * names a page; anything that changes the list drops the keyset anchors (they belong to the old
 * list); opening or closing the details or the receipt changes nothing else.
 */
export function nextParams(params: URLSearchParams, changes: Record<string, string | number | undefined>, resetPage = true): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  const changesList = Object.keys(changes).some((key) => !OVERLAY_PARAMS.has(key));
  if (changesList && resetPage && !('page' in changes)) next.delete('page');
  if (changesList && !('after' in changes) && !('before' in changes)) {
    next.delete('after');
    next.delete('before');
  }
  return next;
}

/** The URL with every filter and the search removed (sort and page size stay, and the `fixed` filters). */
export function withoutFilters(params: URLSearchParams, fixed: readonly string[] = []): URLSearchParams {
  return nextParams(params, Object.fromEntries(FILTER_PARAMS.filter((key) => !fixed.includes(key)).map((key) => [key, undefined])));
}
