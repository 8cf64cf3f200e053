import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconDots, IconDownload, IconInbox, IconSearch } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useState, type MouseEvent, type ReactNode } from 'react';
import { showingSummary } from '@tay/contract';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The server's sort key when this column can sort. */
  sortKey?: string;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
}

export interface RowAction<T> {
  label: string;
  onClick: (row: T) => void;
  color?: string;
}

/** A row's menu from the actions it may use, each run by `run`; Delete is in red. */
export function rowActionsOf<A extends string, T>(actions: readonly A[], run: (action: A, row: T) => void): RowAction<T>[] {
  return actions.map((action) => ({ label: action, onClick: (row: T) => run(action, row), ...(action === 'Delete' ? { color: 'red' } : {}) }));
}

export interface DataTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  total: number;
  page: number;
  pageSize: number;
  /** A page chosen in the page list, or the last page when the rows under this one are gone. */
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  sortBy?: string;
  sortDirection?: 'asc' | 'desc';
  onSortChange?: (sortBy: string, direction: 'asc' | 'desc') => void;
  search?: string;
  onSearchChange?: (search: string) => void;
  searchPlaceholder?: string;
  /** Filter controls shown beside the search box. */
  filters?: ReactNode;
  /** CSV export of the same query. */
  exportHref?: string;
  onExport?: () => void;
  actions?: (row: T) => RowAction<T>[];
  /** This query's rows are not here yet: none, or the previous query's kept on screen meanwhile. */
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty: { title: string; description: string; action?: ReactNode };
  /**
   * A click anywhere on the row, for mouse users. A row is no button: what it opens must also be
   * a link or button in one of its cells, for keyboards and screen readers.
   */
  onRowClick?: (row: T) => void;
}

/** Below the small breakpoint (a phone) rows are cards: a table that wide would hide its last columns. */
const PHONE = '(max-width: 47.99em)';

/**
 * The one table of the portal: server-side pagination ('Showing X to Y of Z Results', or 'No
 * results'; page list hidden with one page), sortable headers, search, filters, CSV export, row
 * actions, and loading, empty and error states. Everything is reachable by keyboard. A page left
 * past the last one (its rows deleted or withdrawn under a filter) moves to the last page. On a
 * phone each row is a card with every column labelled, and sorting is a list to choose from.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, total, page, pageSize, actions } = props;
  // What is typed, and the search last handed to the page. A search that changes otherwise
  // (filters cleared, back and forward) replaces what is shown; a pending keystroke never does.
  const search = props.search ?? '';
  const [typed, setTyped] = useState({ text: search, sent: search });
  const external = search !== typed.sent;
  const searchText = external ? search : typed.text;
  const debouncedSearch = useDebouncedCallback((value: string) => {
    setTyped((t) => ({ ...t, sent: value }));
    props.onSearchChange?.(value);
  }, 300);
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // The server answers a page past the end with no rows; with rows elsewhere, that page is a dead
  // end (no rows, no page list), so go to the last page. Never from the rows of a previous query.
  const pastTheEnd = Boolean(rows) && !props.loading && !props.error && total > 0 && page > pages;
  // Loaded, and nothing matches: the empty state is all the list shows.
  const nothing = Boolean(rows) && rows!.length === 0 && total === 0 && !props.error;
  const toLastPage = useEffectEvent(() => props.onPageChange(pages));
  useEffect(() => {
    if (pastTheEnd) toLastPage();
  }, [pastTheEnd, page, pages]);
  const rowClick = (row: T) => (event: MouseEvent) => {
    // A link or button inside the row does its own thing.
    if (event.target instanceof Element && event.target.closest('a, button')) return;
    props.onRowClick?.(row);
  };

  const sortIcon = (column: Column<T>) => {
    if (!column.sortKey) return null;
    if (props.sortBy !== column.sortKey) return <IconArrowsSort size={14} aria-hidden="true" />;
    return props.sortDirection === 'asc' ? <IconArrowUp size={14} aria-hidden="true" /> : <IconArrowDown size={14} aria-hidden="true" />;
  };

  const header = (column: Column<T>) => {
    if (!column.sortKey || !props.onSortChange) return column.header;
    const active = props.sortBy === column.sortKey;
    const next = active && props.sortDirection === 'desc' ? 'asc' : 'desc';
    return (
      <UnstyledButton
        onClick={() => props.onSortChange?.(column.sortKey!, next)}
        aria-label={`Sort by ${column.header}${active ? (props.sortDirection === 'asc' ? ', ascending' : ', descending') : ''}`}
        fw={600}
        fz="sm"
      >
        <Group gap={4} wrap="nowrap">
          {column.header}
          {sortIcon(column)}
        </Group>
      </UnstyledButton>
    );
  };

  return (
    <Stack gap="sm">
      {(props.onSearchChange || props.exportHref || props.onExport || (phone && props.onSortChange)) && (
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          {props.onSearchChange && (
            <TextInput
              aria-label="Search"
              placeholder={props.searchPlaceholder ?? 'Search'}
              leftSection={<IconSearch size={16} />}
              value={searchText}
              onChange={(e) => {
                setTyped({ text: e.currentTarget.value, sent: external ? search : typed.sent });
                debouncedSearch(e.currentTarget.value);
              }}
              w={phone ? '100%' : 260}
            />
          )}
          {phone && props.onSortChange && (
            <SortChoice columns={columns} sortBy={props.sortBy} sortDirection={props.sortDirection} onSortChange={props.onSortChange} />
          )}
          {(props.exportHref || props.onExport) && (
            // Nothing to export: an empty list's Export is off, and says why to a screen reader.
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              disabled={nothing}
              aria-disabled={nothing || undefined}
              title={nothing ? 'Nothing to export' : undefined}
              {...(nothing ? {} : props.exportHref ? { component: 'a' as const, href: props.exportHref, download: true } : { onClick: props.onExport })}
            >
              Export CSV
            </Button>
          )}
        </Group>
      )}
      {props.filters && (
        // One row on a wide screen, wrapping to two or three a row on a narrow one.
        <div className="data-table-filters" role="group" aria-label="Filters">
          {props.filters}
        </div>
      )}

      {props.error ? (
        <Alert color="red" title="This list could not be loaded" role="alert">
          <Text size="sm">{props.error instanceof Error ? props.error.message : 'Something went wrong.'}</Text>
          {props.onRetry && (
            <Button size="xs" variant="white" color="red" mt="sm" onClick={props.onRetry}>
              Try again
            </Button>
          )}
        </Alert>
      ) : (
        <Box pos="relative" style={{ overflowX: 'auto' }}>
          {phone ? (
            <Cards {...props} onCardClick={props.onRowClick ? rowClick : undefined} />
          ) : (
            <Table striped highlightOnHover verticalSpacing="sm" aria-busy={props.loading || undefined}>
              <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }} className="visually-hidden">
                {props.caption}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => (
                    <Table.Th
                      key={column.key}
                      ta={column.align}
                      w={column.width}
                      aria-sort={column.sortKey && props.sortBy === column.sortKey ? (props.sortDirection === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {header(column)}
                    </Table.Th>
                  ))}
                  {actions && (
                    <Table.Th w={60}>
                      <span className="visually-hidden">Actions</span>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows?.map((row) => (
                  <Table.Tr
                    key={props.rowKey(row)}
                    onClick={props.onRowClick ? rowClick(row) : undefined}
                    style={props.onRowClick ? { cursor: 'pointer' } : undefined}
                  >
                    {columns.map((column) => (
                      <Table.Td key={column.key} ta={column.align}>
                        {column.render(row)}
                      </Table.Td>
                    ))}
                    {actions && (
                      <Table.Td onClick={(e) => e.stopPropagation()}>
                        <RowMenu row={row} actions={actions(row)} />
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {props.loading && !rows && (
            <Center py="xl">
              <Loader role="status" aria-label="Loading" />
            </Center>
          )}
          {rows && rows.length === 0 && !pastTheEnd && (
            <Stack align="center" py="xl" gap="xs" ta="center">
              <IconInbox size={36} color="var(--mantine-color-gray-5)" aria-hidden="true" />
              <Text fw={600}>{props.empty.title}</Text>
              <Text size="sm" c="dimmed" maw={420}>
                {props.empty.description}
              </Text>
              {props.empty.action}
            </Stack>
          )}
        </Box>
      )}

      {/* An empty list has one empty state above: no "No results" and no pager beside it. */}
      {!props.error && rows && !nothing && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === 0 ? 'No results' : showingSummary(page, pageSize, total)}
          </Text>
          <Group gap="sm">
            {props.onPageSizeChange && (
              <Select
                aria-label="Rows per page"
                data={['10', '25', '50', '100']}
                value={String(pageSize)}
                onChange={(value) => value && props.onPageSizeChange?.(Number(value))}
                w={90}
                allowDeselect={false}
              />
            )}
            {pages > 1 && (
              <Pagination total={pages} value={page} onChange={props.onPageChange} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
            )}
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/** The rows as cards, for a phone: each column's header above its value, the first across the top, the row's actions beside. */
function Cards<T>({
  caption,
  columns,
  rows,
  rowKey,
  actions,
  loading,
  onCardClick,
}: DataTableProps<T> & { onCardClick?: ((row: T) => (event: MouseEvent) => void) | undefined }) {
  if (!rows || rows.length === 0) return null;
  return (
    <Stack component="ul" aria-label={caption} aria-busy={loading || undefined} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {rows.map((row) => (
        <Paper component="li" key={rowKey(row)} withBorder p="sm" onClick={onCardClick?.(row)} style={onCardClick ? { cursor: 'pointer' } : undefined}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Box component="dl" className="data-table-card" m={0}>
              {columns.map((column, index) => (
                <CardField key={column.key} column={column} row={row} title={index === 0} />
              ))}
            </Box>
            {/* Its clicks stay its own: the card's click skips buttons. */}
            {actions && <RowMenu row={row} actions={actions(row)} />}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

function CardField<T>({ column, row, title }: { column: Column<T>; row: T; title: boolean }) {
  return (
    <div className={title ? 'data-table-card-title' : undefined}>
      <Text component="dt" size="xs" c="dimmed">
        {column.header}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {column.render(row)}
      </Text>
    </div>
  );
}

/** Sorting where there are no column headers to click: each sortable column, either way. */
function SortChoice<T>({
  columns,
  sortBy,
  sortDirection,
  onSortChange,
}: Pick<DataTableProps<T>, 'columns' | 'sortBy' | 'sortDirection'> & { onSortChange: (sortBy: string, direction: 'asc' | 'desc') => void }) {
  const options = columns.flatMap((column) =>
    column.sortKey
      ? [
          { value: `${column.sortKey}:desc`, label: `${column.header}, descending` },
          { value: `${column.sortKey}:asc`, label: `${column.header}, ascending` },
        ]
      : [],
  );
  if (options.length === 0) return null;
  return (
    <Select
      label="Sort by"
      data={options}
      value={sortBy ? `${sortBy}:${sortDirection ?? 'desc'}` : null}
      onChange={(value) => {
        const [key, direction] = (value ?? '').split(':');
        if (key && (direction === 'asc' || direction === 'desc')) onSortChange(key, direction);
      }}
      allowDeselect={false}
      w="100%"
    />
  );
}

function RowMenu<T>({ row, actions }: { row: T; actions: RowAction<T>[] }) {
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label="Row actions">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item key={action.label} color={action.color} onClick={() => action.onClick(row)}>
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
