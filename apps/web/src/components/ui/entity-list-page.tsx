import { Group, Select, Stack, Text, TextInput, Title, type ComboboxData } from '@mantine/core';
import type { ReactNode } from 'react';
import type { EndpointAccess } from '../../lib/endpoint-access';
import { listTableProps, type ListQueryResult, type useListParams } from '../../lib/list-params';
import { useBusinessId } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AccessAlert } from './access-alert';
import { DataTable, type Column, type RowAction } from './data-table';
import { BackLink } from './form-page';
import { ClearFiltersButton, exportCsv, noMatches } from './list-filters';

/**
 * One filter of a list, kept in the URL under `name` (the list query's field of the same name):
 * a choice, a day, or one set only by a link (a receiver's payouts), which has no control but is
 * cleared with the others.
 */
export type ListFilter =
  | { name: string; type?: 'select'; label: string; placeholder: string; data: ComboboxData; width: number; searchable?: boolean }
  | { name: string; type: 'date'; label: string; width: number }
  | { name: string; type: 'link' };

/** What a list page's query holds that the scaffold reads: the sort, the search and each filter's value. */
export type ListQueryFields = { sortBy?: string | undefined; sortDirection?: 'asc' | 'desc' | undefined; search?: string | undefined };

export interface EntityListPageProps<T, Q extends ListQueryFields> {
  /** The heading (the page's menu label). */
  title: string;
  /** The browser tab's title, when it is not the heading. */
  documentTitle?: string;
  /** The way back to the list this one belongs to ("← Programs"), above the heading. */
  back?: { to: string; label: string };
  /** Beside the heading: the record's status. */
  titleAside?: ReactNode;
  /** One line under the heading. */
  description?: ReactNode;
  /** Beside the heading: add, import, other pages. */
  actions?: ReactNode;
  /** Why the page's changes are off, when they are (`useEndpointAccess`). */
  access?: EndpointAccess;
  /** The URL's list parameters (`useListParams`) and the query read from them. */
  params: Pick<ReturnType<typeof useListParams>, 'update' | 'page' | 'pageSize'>;
  query: Q;
  /** The order with no sort in the URL: the newest first unless said. */
  defaultSort?: { sortBy: string; sortDirection: 'asc' | 'desc' };
  list: ListQueryResult<T>;
  filters?: ListFilter[];
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  searchPlaceholder: string;
  rowActions?: (row: T) => RowAction<T>[];
  onRowClick?: (row: T) => void;
  /** Downloads the CSV of the same query (its own download function with the business's id); a failure is a toast. */
  download?: (businessId: string) => Promise<unknown>;
  /** The empty state of a business with none yet. */
  empty: { title: string; description: string; action?: ReactNode };
  /** The empty state when the search and filters match nothing; with the way back to the whole list unless `clear` is false. */
  noMatches: { title: string; description: string; clear?: boolean };
  /** Under the list: its drawers and modals. */
  children?: ReactNode;
}

const NEWEST_FIRST = { sortBy: 'createdAt', sortDirection: 'desc' } as const;

/**
 * The one scaffold of a list page: the heading with its line and actions, why changes are off,
 * and the list (`DataTable`) wired to the URL — search, filters (with Clear filters once one is
 * set), sort, pages, CSV export of the same query, row actions — with its empty states: none yet,
 * or nothing matches.
 */
export function EntityListPage<T, Q extends ListQueryFields>(props: EntityListPageProps<T, Q>) {
  const { params, query, filters = [] } = props;
  useDocumentTitle(props.documentTitle ?? props.title);
  const businessId = useBusinessId();
  const valueOf = (name: string): string | undefined => {
    const value = (query as Record<string, unknown>)[name];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const filtered = Boolean(query.search) || filters.some((f) => valueOf(f.name) !== undefined);
  const clearFilters = () => params.update(Object.fromEntries([['search', undefined], ...filters.map((f) => [f.name, undefined])]));
  const clear = props.noMatches.clear ?? true;
  const { download } = props;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          {props.back && <BackLink {...props.back} />}
          {props.titleAside ? (
            <Group gap="xs">
              <Title order={1}>{props.title}</Title>
              {props.titleAside}
            </Group>
          ) : (
            <Title order={1}>{props.title}</Title>
          )}
          {props.description && (
            <Text c="dimmed" size="sm">
              {props.description}
            </Text>
          )}
        </div>
        {props.actions && <Group gap="sm">{props.actions}</Group>}
      </Group>
      {props.access && <AccessAlert access={props.access} />}
      <DataTable
        caption={props.caption}
        columns={props.columns}
        {...listTableProps(props.list, query, params, props.defaultSort ?? NEWEST_FIRST)}
        rowKey={props.rowKey}
        searchPlaceholder={props.searchPlaceholder}
        {...(filters.some((f) => f.type !== 'link')
          ? {
              filters: (
                <>
                  {filters.map((f) => (
                    <FilterControl key={f.name} filter={f} value={valueOf(f.name)} onChange={(value) => params.update({ [f.name]: value })} />
                  ))}
                  {filtered && clear && <ClearFiltersButton onClick={clearFilters} />}
                </>
              ),
            }
          : {})}
        {...(download ? { onExport: () => businessId && exportCsv(download(businessId)) } : {})}
        {...(props.rowActions ? { actions: props.rowActions } : {})}
        {...(props.onRowClick ? { onRowClick: props.onRowClick } : {})}
        empty={
          filtered
            ? clear
              ? noMatches(props.noMatches.title, props.noMatches.description, clearFilters)
              : { title: props.noMatches.title, description: props.noMatches.description }
            : props.empty
        }
      />
      {props.children}
    </Stack>
  );
}

function FilterControl({ filter, value, onChange }: { filter: ListFilter; value: string | undefined; onChange: (value: string | null) => void }) {
  switch (filter.type) {
    case 'link':
      return null;
    case 'date':
      return <TextInput type="date" label={filter.label} value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || null)} w={filter.width} />;
    default:
      return (
        <Select
          label={filter.label}
          placeholder={filter.placeholder}
          data={filter.data}
          value={value ?? null}
          onChange={onChange}
          clearable
          {...(filter.searchable ? { searchable: true } : {})}
          w={filter.width}
        />
      );
  }
}
