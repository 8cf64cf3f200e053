import { describe, expect, it, vi } from 'vitest';
import { baseListQuery, listTableProps, oneOf, textParam } from './list-params';

const list = (over: Partial<Parameters<typeof listTableProps>[0]> = {}) => ({
  data: { items: [{ id: 'a' }, { id: 'b' }], total: 42 },
  isPending: false,
  isPlaceholderData: false,
  error: null,
  refetch: vi.fn(),
  ...over,
});

describe('listTableProps', () => {
  it('gives the rows, the total, the page and the defaults when the URL names no sort', () => {
    const update = vi.fn();
    const props = listTableProps(list(), {}, { update, page: 2, pageSize: 25 }, { sortBy: 'createdAt', sortDirection: 'desc' });
    expect(props.rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(props.total).toBe(42);
    expect([props.page, props.pageSize, props.sortBy, props.sortDirection, props.search]).toEqual([2, 25, 'createdAt', 'desc', '']);
    expect(props.loading).toBe(false);
  });

  it('keeps the query’s own sort and search, and turns pages without going back to page 1', () => {
    const update = vi.fn();
    const props = listTableProps(
      list(),
      { sortBy: 'name', sortDirection: 'asc', search: 'mia' },
      { update, page: 1, pageSize: 50 },
      { sortBy: 'createdAt', sortDirection: 'desc' },
    );
    expect([props.sortBy, props.sortDirection, props.search]).toEqual(['name', 'asc', 'mia']);
    props.onPageChange(3);
    expect(update).toHaveBeenLastCalledWith({ page: 3 }, false);
    props.onSortChange('fee', 'desc');
    expect(update).toHaveBeenLastCalledWith({ sortBy: 'fee', sortDirection: 'desc' });
    props.onSearchChange('lopez');
    expect(update).toHaveBeenLastCalledWith({ search: 'lopez' });
    props.onPageSizeChange(100);
    expect(update).toHaveBeenLastCalledWith({ pageSize: 100 });
  });

  it('is loading while the rows shown are the previous query’s, and retries by refetching', () => {
    const refetch = vi.fn();
    const props = listTableProps(
      list({ isPlaceholderData: true, refetch, error: new Error('down') }),
      {},
      { update: vi.fn(), page: 1, pageSize: 25 },
      { sortBy: 'name', sortDirection: 'asc' },
    );
    expect(props.loading).toBe(true);
    expect(props.error).toEqual(new Error('down'));
    props.onRetry();
    expect(refetch).toHaveBeenCalledOnce();
  });
});

describe('the list query read from the URL', () => {
  const reader = (query: string, page = 1, pageSize = 25) => {
    const url = new URLSearchParams(query);
    return { get: (key: string) => url.get(key) ?? undefined, page, pageSize };
  };
  const SORTS = ['createdAt', 'name'] as const;

  it('keeps a known sort, the direction and the search, and falls back to the defaults', () => {
    expect(baseListQuery(reader('sortBy=name&sortDirection=asc&search=ada', 3, 50), SORTS, 'createdAt')).toEqual({
      page: 3,
      pageSize: 50,
      sortBy: 'name',
      sortDirection: 'asc',
      search: 'ada',
    });
    expect(baseListQuery(reader('sortBy=password&sortDirection=sideways&search='), SORTS, 'createdAt')).toEqual({
      page: 1,
      pageSize: 25,
      sortBy: 'createdAt',
      sortDirection: 'desc',
    });
  });

  it('keeps a filter only when it is one of its options, and a free filter only when it is set', () => {
    expect(oneOf(reader('status=active'), 'status', ['active', 'inactive'] as const)).toEqual({ status: 'active' });
    expect(oneOf(reader('status=deleted'), 'status', ['active', 'inactive'] as const)).toEqual({});
    expect(oneOf(reader(''), 'status', ['active'] as const)).toEqual({});
    expect(textParam(reader('programId=prg_1'), 'programId')).toEqual({ programId: 'prg_1' });
    expect(textParam(reader('programId='), 'programId')).toEqual({});
  });
});
