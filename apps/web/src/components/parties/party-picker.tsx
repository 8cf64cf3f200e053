import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { PartyTemplate } from '@tay/contract';

/** What a party picker asks the party list for: twenty by name, active ones only unless told, holding what is typed. */
export interface PartyOptionsQuery {
  status?: 'active';
  sortBy: 'name';
  sortDirection: 'asc';
  pageSize: number;
  search?: string;
}

/**
 * A template's party typeahead (ADR 048): the business's parties whose name or own id holds what
 * is typed (the party list's own search), twenty at a time — active ones only for a new request;
 * every one as a list filter (`compact`, `includeInactive`). Its words are the template's;
 * `useOptions` is the party list's query, `idOf` and `labelOf` how a party is told apart and shown.
 */
export function PartyPicker<P>({
  template,
  value,
  onChange,
  error,
  compact = false,
  includeInactive = false,
  idOf,
  labelOf,
  useOptions,
}: {
  template: PartyTemplate;
  value: P | null;
  onChange: (party: P | null) => void;
  error?: string | undefined;
  compact?: boolean;
  includeInactive?: boolean;
  idOf: (party: P) => string;
  labelOf: (party: P) => string;
  useOptions: (query: PartyOptionsQuery) => { items: P[]; isFetching: boolean };
}) {
  const { one, many, title } = template.party;
  const [search, setSearch] = useState(value ? labelOf(value) : '');
  const [debounced] = useDebouncedValue(search, 200);
  const typed = value && search === labelOf(value) ? '' : debounced.trim();
  const list = useOptions({
    ...(includeInactive ? {} : { status: 'active' as const }),
    sortBy: 'name',
    sortDirection: 'asc',
    pageSize: 20,
    ...(typed ? { search: typed } : {}),
  });
  const options = value && !list.items.some((p) => idOf(p) === idOf(value)) ? [value, ...list.items] : list.items;
  return (
    <Select
      label={title}
      {...(compact
        ? { placeholder: `Any ${one}` }
        : { description: `Type the first letters of the ${one}’s name or ${template.idWords}`, placeholder: `Search ${many}` })}
      leftSection={<IconSearch size={16} />}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already searched: every option it found is shown.
      filter={({ options: all }) => all}
      nothingFoundMessage={list.isFetching ? 'Searching…' : includeInactive ? `No ${one} matches` : `No active ${one} matches`}
      data={options.map((p) => ({ value: idOf(p), label: labelOf(p) }))}
      value={value ? idOf(value) : null}
      onChange={(id) => onChange(options.find((p) => idOf(p) === id) ?? null)}
      error={error}
    />
  );
}
