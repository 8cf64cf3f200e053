import { useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { parseMoney } from '@tay/contract';

export type ParamChanges = Record<string, string | number | undefined | null>;

/**
 * A plain list's query kept in the URL (filters, search, sort, page): `get` reads a parameter,
 * `update` writes some (empty values remove theirs) and goes back to page 1 unless the page is
 * among them. The history's lists add keyset anchors to this (`features/payment-requests/transactions-query.ts`).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  // What the URL holds once the changes already asked for are in: two changes before the page
  // renders again (a search typed, then a sort clicked) both stand, the second on the first.
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const get = (key: string): string | undefined => params.get(key) ?? undefined;
  const update = (changes: ParamChanges, resetPage = true) => {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === null || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    if (resetPage && !('page' in changes)) next.delete('page');
    latest.current = next;
    setParams(next, { replace: true });
  };
  /** The page and page size of the URL (page 1 and 25 rows unless it says otherwise). */
  const page = Math.max(1, Number(get('page') ?? 1) || 1);
  const pageSize = Number(get('pageSize') ?? 25) || 25;
  return { params, get, update, page, pageSize };
}

/** What a list page's query hook gives: a page of rows and their total, as TanStack Query holds it. */
export interface ListQueryResult<T> {
  data?: { items: T[]; total: number } | undefined;
  isPending: boolean;
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The `DataTable` props every plain list page wires the same way from its URL and its query:
 * rows and total, the page and its size, sort, search, and the loading and error states with a
 * retry. A page spreads them and adds its columns, filters, export, actions and empty state.
 */
export function listTableProps<T>(
  list: ListQueryResult<T>,
  query: { sortBy?: string | undefined; sortDirection?: 'asc' | 'desc' | undefined; search?: string | undefined },
  params: Pick<ReturnType<typeof useListParams>, 'update' | 'page' | 'pageSize'>,
  defaults: { sortBy: string; sortDirection: 'asc' | 'desc' },
) {
  const { update } = params;
  return {
    rows: list.data?.items,
    total: list.data?.total ?? 0,
    page: params.page,
    pageSize: params.pageSize,
    onPageChange: (next: number) => update({ page: next }, false),
    onPageSizeChange: (size: number) => update({ pageSize: size }),
    sortBy: query.sortBy ?? defaults.sortBy,
    sortDirection: query.sortDirection ?? defaults.sortDirection,
    onSortChange: (by: string, direction: 'asc' | 'desc') => update({ sortBy: by, sortDirection: direction }),
    search: query.search ?? '',
    onSearchChange: (search: string) => update({ search }),
    loading: list.isPending || list.isPlaceholderData,
    error: list.error,
    onRetry: () => void list.refetch(),
  };
}

type ParamReader = Pick<ReturnType<typeof useListParams>, 'get' | 'page' | 'pageSize'>;

/**
 * What every plain list reads from its URL the same way: the page and its size, the sort (one of
 * the list's `sorts`, else `defaultSort`), its direction (descending unless `asc`) and the search.
 * A page spreads it and adds its filters (`oneOf`, `textParam`).
 */
export function baseListQuery<S extends string>(params: ParamReader, sorts: readonly S[], defaultSort: S) {
  const sortBy = params.get('sortBy');
  const search = params.get('search');
  return {
    page: params.page,
    pageSize: params.pageSize,
    sortBy: (sorts as readonly string[]).includes(sortBy ?? '') ? (sortBy as S) : defaultSort,
    sortDirection: params.get('sortDirection') === 'asc' ? ('asc' as const) : ('desc' as const),
    ...(search ? { search } : {}),
  };
}

/** A filter from the URL, kept only when it is one of `options` (a status, a frequency): `{ [key]: value }` or nothing. */
export function oneOf<K extends string, V extends string>(params: ParamReader, key: K, options: readonly V[]): Partial<Record<K, V>> {
  const value = params.get(key);
  return value !== undefined && (options as readonly string[]).includes(value) ? ({ [key]: value } as Partial<Record<K, V>>) : {};
}

/** A free filter from the URL (an id, a grade): `{ [key]: value }`, or nothing when it is empty. */
export function textParam<K extends string>(params: ParamReader, key: K): Partial<Record<K, string>> {
  const value = params.get(key);
  return value ? ({ [key]: value } as Partial<Record<K, string>>) : {};
}

/** The page and its size from the URL: page 1 of 25 rows unless it names a valid one. */
export function pageOf(params: URLSearchParams): { page: number; pageSize: number } {
  const page = Number(params.get('page') || 1);
  const pageSize = Number(params.get('pageSize') || 25);
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, pageSize: [10, 25, 50, 100].includes(pageSize) ? pageSize : 25 };
}

/** The amount bounds from the URL, dollars there (`min`, `max`) and cents in the query; an amount that does not read as money is left out. */
export function amountRange(params: URLSearchParams): { minAmountCents?: number; maxAmountCents?: number } {
  const cents = (key: string) => {
    const text = params.get(key) || undefined;
    return text === undefined ? null : parseMoney(text);
  };
  const min = cents('min');
  const max = cents('max');
  return { ...(min !== null ? { minAmountCents: min } : {}), ...(max !== null ? { maxAmountCents: max } : {}) };
}
