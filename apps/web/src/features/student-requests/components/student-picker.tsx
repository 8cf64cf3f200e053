import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useStudentOptions } from '../api/student-requests-api';

export interface PickedStudent {
  studentId: string;
  name: string;
  studentNumber: string;
}

/** "Mia Lopez (S-1001)": a student as the picker lists them. */
export const studentLabel = (s: PickedStudent) => `${s.name} (${s.studentNumber})`;

/** "Mia Lopez (S-1001)", or the name alone when the student id is not known here. */
const labelOf = (s: PickedStudent) => (s.studentNumber ? studentLabel(s) : s.name);

/**
 * Student typeahead: the business's students whose name or student id holds what is typed (the
 * students list's own search), twenty at a time — active ones only for a new request; every one
 * as a list filter (`compact`, `includeInactive`).
 */
export function StudentPicker({
  value,
  onChange,
  error,
  compact = false,
  includeInactive = false,
}: {
  value: PickedStudent | null;
  onChange: (student: PickedStudent | null) => void;
  error?: string | undefined;
  compact?: boolean;
  includeInactive?: boolean;
}) {
  const [search, setSearch] = useState(value ? labelOf(value) : '');
  const [debounced] = useDebouncedValue(search, 200);
  const typed = value && search === labelOf(value) ? '' : debounced.trim();
  const list = useStudentOptions({
    ...(includeInactive ? {} : { status: 'active' as const }),
    sortBy: 'name',
    sortDirection: 'asc',
    pageSize: 20,
    ...(typed ? { search: typed } : {}),
  });
  const found = (list.data?.items ?? []).map((s) => ({ studentId: s.studentId, name: s.name, studentNumber: s.studentNumber }));
  const options = value && !found.some((s) => s.studentId === value.studentId) ? [value, ...found] : found;
  return (
    <Select
      label="Student"
      {...(compact
        ? { placeholder: 'Any student' }
        : { description: 'Type the first letters of the student’s name or student id', placeholder: 'Search students' })}
      leftSection={<IconSearch size={16} />}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already searched: every option it found is shown.
      filter={({ options: all }) => all}
      nothingFoundMessage={list.isFetching ? 'Searching…' : includeInactive ? 'No student matches' : 'No active student matches'}
      data={options.map((s) => ({ value: s.studentId, label: labelOf(s) }))}
      value={value?.studentId ?? null}
      onChange={(id) => onChange(options.find((s) => s.studentId === id) ?? null)}
      error={error}
    />
  );
}
