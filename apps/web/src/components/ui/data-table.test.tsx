import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableProps } from './data-table';

interface Row {
  id: string;
  name: string;
}

const rows = (n: number, from = 1): Row[] => Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, name: `Row ${from + i}` }));

function table(props: Partial<DataTableProps<Row>> = {}) {
  return (
    // env="test": no transitions or portals, so an open menu stays open while the test reads it.
    <MantineProvider env="test">
      <DataTable<Row>
        caption="Things"
        columns={[{ key: 'name', header: 'Name', render: (r) => r.name }]}
        rows={rows(10)}
        rowKey={(r) => r.id}
        total={10}
        page={1}
        pageSize={10}
        onPageChange={() => {}}
        empty={{ title: 'Nothing here', description: 'Add something.' }}
        {...props}
      />
    </MantineProvider>
  );
}

/** The page list: numbered pages between previous and next. */
const pageList = () => screen.queryByRole('button', { name: 'next page' });

describe('DataTable pagination (docs/product.md §9)', () => {
  it("reads 'Showing X to Y of Z Results' for the first, a middle and the last page", () => {
    const { rerender } = render(table({ rows: rows(25), total: 62, pageSize: 25, page: 1 }));
    expect(screen.getByText('Showing 1 to 25 of 62 Results')).toBeInTheDocument();
    rerender(table({ rows: rows(25, 26), total: 62, pageSize: 25, page: 2 }));
    expect(screen.getByText('Showing 26 to 50 of 62 Results')).toBeInTheDocument();
    rerender(table({ rows: rows(12, 51), total: 62, pageSize: 25, page: 3 }));
    expect(screen.getByText('Showing 51 to 62 of 62 Results')).toBeInTheDocument();
  });

  it('hides the page list when everything fits on exactly one page', () => {
    render(table({ rows: rows(10), total: 10, pageSize: 10 }));
    expect(screen.getByText('Showing 1 to 10 of 10 Results')).toBeInTheDocument();
    expect(pageList()).toBeNull();
    expect(screen.queryByRole('button', { name: '1' })).toBeNull();
  });

  it('shows the page list with more than one page, and a click asks for that page', async () => {
    const onPageChange = vi.fn();
    render(table({ rows: rows(10), total: 11, pageSize: 10, onPageChange }));
    expect(pageList()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('an empty list shows its one empty state: no "No results", no summary, no page list, and Export off', () => {
    const onExport = vi.fn();
    render(table({ rows: [], total: 0, onExport }));
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByText('No results')).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Rows per page' })).toBeNull();
    expect(pageList()).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('a page past the last one (its rows deleted) moves to the last page, without a dead-end empty state', () => {
    const onPageChange = vi.fn();
    render(table({ rows: [], total: 25, pageSize: 10, page: 4, onPageChange }));
    expect(onPageChange).toHaveBeenCalledTimes(1);
    expect(onPageChange).toHaveBeenCalledWith(3);
    expect(screen.queryByText('Nothing here')).toBeNull();
    expect(screen.getByText('Showing 0 to 0 of 25 Results')).toBeInTheDocument();
  });

  it('does not move while the rows on screen are a previous query’s, nor on an empty list', () => {
    const onPageChange = vi.fn();
    const { rerender } = render(table({ rows: rows(10), total: 10, pageSize: 10, page: 3, loading: true, onPageChange }));
    rerender(table({ rows: [], total: 0, pageSize: 10, page: 3, onPageChange }));
    expect(onPageChange).not.toHaveBeenCalled();
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
  });

  it('offers each row’s actions in its menu', async () => {
    const onClick = vi.fn();
    render(table({ rows: rows(1), total: 1, actions: () => [{ label: 'Copy', onClick }] }));
    const row = screen.getAllByRole('row')[1]!;
    await userEvent.click(within(row).getByRole('button', { name: 'Row actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    expect(onClick).toHaveBeenCalledWith({ id: 'r1', name: 'Row 1' });
  });
});

describe('DataTable search box', () => {
  it('hands what is typed to the page, and shows a search changed from outside (filters cleared)', async () => {
    const onSearchChange = vi.fn();
    const { rerender } = render(table({ search: '', onSearchChange }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'nora');
    await vi.waitFor(() => expect(onSearchChange).toHaveBeenLastCalledWith('nora'));
    rerender(table({ search: 'nora', onSearchChange }));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('nora');
    rerender(table({ search: '', onSearchChange }));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
  });
});

describe('DataTable row click', () => {
  it('is a mouse shortcut that a link in the row does not fire a second time', async () => {
    const onRowClick = vi.fn();
    const onLink = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      table({
        rows: rows(1),
        total: 1,
        onRowClick,
        columns: [
          { key: 'name', header: 'Name', render: (r) => r.name },
          { key: 'open', header: 'Open', render: (r) => <a href={`#${r.id}`} onClick={onLink}>{`View ${r.name}`}</a> },
        ],
      }),
    );
    await userEvent.click(screen.getByText('Row 1'));
    expect(onRowClick).toHaveBeenCalledWith({ id: 'r1', name: 'Row 1' });
    await userEvent.click(screen.getByRole('link', { name: 'View Row 1' }));
    expect(onLink).toHaveBeenCalledTimes(1);
    expect(onRowClick).toHaveBeenCalledTimes(1);
  });
});

describe('DataTable on a phone', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  function onPhone() {
    const real = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ ...real(query), matches: query === '(max-width: 47.99em)' }));
  }
  const columns = [
    { key: 'name', header: 'Name', render: (r: Row) => r.name, sortKey: 'name' },
    { key: 'amount', header: 'Amount', render: () => '$25.00', sortKey: 'amount' },
    { key: 'status', header: 'Status', render: () => 'Paid' },
  ];

  it('shows each row as a card with every column labelled and the row’s actions, and no table', async () => {
    onPhone();
    const onClick = vi.fn();
    render(table({ rows: rows(2), total: 2, columns, actions: () => [{ label: 'Copy', onClick }] }));
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(
      within(first)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Name', 'Amount', 'Status']);
    expect(
      within(first)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['Row 1', '$25.00', 'Paid']);
    await userEvent.click(within(first).getByRole('button', { name: 'Row actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    expect(onClick).toHaveBeenCalledWith({ id: 'r1', name: 'Row 1' });
  });

  it('sorts from a list, as there are no column headers to click', async () => {
    onPhone();
    const onSortChange = vi.fn();
    render(table({ columns, sortBy: 'name', sortDirection: 'desc', onSortChange }));
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('Name, descending');
    await userEvent.click(sort);
    await userEvent.click(await screen.findByRole('option', { name: 'Amount, ascending', hidden: true }));
    expect(onSortChange).toHaveBeenCalledWith('amount', 'asc');
  });
});
