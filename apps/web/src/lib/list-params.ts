import { useSearchParams } from 'react-router';

export type ParamChanges = Record<string, string | number | undefined | null>;

/**
 * A plain list's query kept in the URL (filters, search, sort, page): `get` reads a parameter,
 * `update` writes some (empty values remove theirs) and goes back to page 1 unless the page is
 * among them. The history's lists add keyset anchors to this (`features/payment-requests/transactions-query.ts`).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const get = (key: string): string | undefined => params.get(key) ?? undefined;
  const update = (changes: ParamChanges, resetPage = true) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === null || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    if (resetPage && !('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  /** The page and page size of the URL (page 1 and 25 rows unless it says otherwise). */
  const page = Math.max(1, Number(get('page') ?? 1) || 1);
  const pageSize = Number(get('pageSize') ?? 25) || 25;
  return { params, get, update, page, pageSize };
}
