import type { InvoiceListQuery } from '@tay/contract';
import { amountRange, pageOf } from '../../lib/list-params';

const SORTS = ['number', 'issueDate', 'dueDate', 'total', 'balance', 'payer', 'state'] as const;

/** URL parameters that narrow the list (the payer's name only labels the payer filter). */
export const INVOICE_FILTER_PARAMS = ['search', 'status', 'payerId', 'payerName', 'from', 'to', 'min', 'max'] as const;

export function hasInvoiceFilters(params: URLSearchParams): boolean {
  return INVOICE_FILTER_PARAMS.some((key) => Boolean(params.get(key)));
}

export type UrlInvoiceQuery = InvoiceListQuery & { page: number; pageSize: number };

/**
 * The list's query, read from the page's URL, the one source of truth the list, the CSV export,
 * the filter inputs and back/forward share. Amounts are dollars in the URL (`min`, `max`) and
 * cents in the query; an amount that does not read as money is left out.
 */
export function invoiceQueryFromParams(params: URLSearchParams): UrlInvoiceQuery {
  const get = (key: string) => params.get(key) || undefined;
  const sortBy = get('sortBy');
  return {
    ...pageOf(params),
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as InvoiceListQuery['sortBy']) : 'number',
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(get('status') ? { status: get('status') } : {}),
    ...(get('payerId') ? { payerId: get('payerId') } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
    ...amountRange(params),
  };
}
