import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { patientEndpoints, type PatientGuarantor } from '@tay/contract';
import { endpointQuery } from '../../lib/endpoint-client';
import { useBusinessId } from '../../lib/session';

/** A patient as a picker gives them: who they are, and the guarantor their statements are billed to. */
export interface PickedPatient {
  clientId: string;
  name: string;
  mrn: string;
  /** Unknown for a patient named by a link only (a filter). */
  guarantor: PatientGuarantor | null;
}

/** "Ana Lopez (MRN-1001)", or the name alone when the MRN is not known here. */
export const patientLabel = (p: Pick<PickedPatient, 'name' | 'mrn'>) => (p.mrn ? `${p.name} (${p.mrn})` : p.name);

/**
 * Patient typeahead (the healthcare template, ADR 037): the business's patients whose name or MRN
 * holds what is typed (the patients list's own search, which shows no date of birth), twenty at a
 * time — active ones only for a new statement; every one as a list filter (`compact`,
 * `includeInactive`). Picking one from the list is not a view of their record.
 */
export function PatientPicker({
  value,
  onChange,
  error,
  compact = false,
  includeInactive = false,
}: {
  value: PickedPatient | null;
  onChange: (patient: PickedPatient | null) => void;
  error?: string | undefined;
  compact?: boolean;
  includeInactive?: boolean;
}) {
  const businessId = useBusinessId();
  const [search, setSearch] = useState(value ? patientLabel(value) : '');
  const [debounced] = useDebouncedValue(search, 200);
  const typed = value && search === patientLabel(value) ? '' : debounced.trim();
  const list = useQuery({
    ...endpointQuery(patientEndpoints.list, {
      params: { id: businessId ?? '' },
      query: {
        ...(includeInactive ? {} : { status: 'active' as const }),
        sortBy: 'name',
        sortDirection: 'asc',
        pageSize: 20,
        ...(typed ? { search: typed } : {}),
      },
    }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
  const found: PickedPatient[] = (list.data?.items ?? []).map((p) => ({ clientId: p.clientId, name: p.name, mrn: p.mrn, guarantor: p.guarantor }));
  const options = value && !found.some((p) => p.clientId === value.clientId) ? [value, ...found] : found;
  return (
    <Select
      label="Patient"
      {...(compact ? { placeholder: 'Any patient' } : { description: 'Type the first letters of the patient’s name or MRN', placeholder: 'Search patients' })}
      leftSection={<IconSearch size={16} />}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already searched: every option it found is shown.
      filter={({ options: all }) => all}
      nothingFoundMessage={list.isFetching ? 'Searching…' : includeInactive ? 'No patient matches' : 'No active patient matches'}
      data={options.map((p) => ({ value: p.clientId, label: patientLabel(p) }))}
      value={value?.clientId ?? null}
      onChange={(id) => onChange(options.find((p) => p.clientId === id) ?? null)}
      error={error}
    />
  );
}
