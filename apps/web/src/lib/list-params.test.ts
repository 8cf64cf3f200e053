import { describe, expect, it, vi } from 'vitest';
import { listTableProps } from './list-params';

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
