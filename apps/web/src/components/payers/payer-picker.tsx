import { Badge, CloseButton, Combobox, Group, InputBase, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import type { PayerSuggestion } from '@tay/contract';
import { usePayerSuggestions } from './payer-suggestions';

export interface PickedPayer {
  payerId: string;
  displayName: string;
  email: string;
  /** The payer's mobile number (E.164); null when they have none; absent when it is not known here. */
  mobileNumber?: string | null;
}

interface Props {
  value: PickedPayer | null;
  onChange: (payer: PickedPayer | null) => void;
  error?: string | undefined;
  /** As a list filter: no description, clearable. */
  compact?: boolean;
  /** Find deactivated payers too: a filter over history needs them; a new request never does. */
  includeDeactivated?: boolean;
  /** The field's label; "Payer" unless said (a form with two pickers names each). */
  label?: string;
}

/**
 * Payer typeahead: a "begins with" directory search over the business's payers. Shared by the
 * request form, the invoice form and the lists' payer filters.
 */
export function PayerPicker({ value, onChange, error, compact = false, includeDeactivated = false, label = 'Payer' }: Props) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState(value ? value.displayName : '');
  const [debounced] = useDebouncedValue(search, 200);
  const suggestions = usePayerSuggestions(value && search === value.displayName ? '' : debounced, includeDeactivated);
  const options = suggestions.data ?? [];

  const choose = (payer: PayerSuggestion) => {
    onChange({ payerId: payer.payerId, displayName: payer.displayName, email: payer.email, mobileNumber: payer.mobileNumber });
    setSearch(payer.displayName);
    combobox.closeDropdown();
  };

  return (
    <Combobox
      store={combobox}
      {...(compact ? { width: 340, position: 'bottom-start' as const } : {})}
      onOptionSubmit={(id) => {
        const p = options.find((o) => o.payerId === id);
        if (p) choose(p);
      }}
    >
      <Combobox.Target>
        <InputBase
          {...(compact
            ? { label: 'Payer', placeholder: 'Any payer' }
            : {
                label,
                description: value ? value.email : 'Type the first letters of a name, e-mail or reference',
                placeholder: 'Search payers',
              })}
          leftSection={<IconSearch size={16} />}
          rightSection={
            suggestions.isFetching ? (
              <Loader size={14} />
            ) : compact && value ? (
              <CloseButton
                size="sm"
                aria-label="Clear the payer filter"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setSearch('');
                  onChange(null);
                }}
              />
            ) : null
          }
          value={search}
          error={error}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            if (value) onChange(null);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!debounced.trim() || (value !== null && search === value.displayName)}>
        <Combobox.Options>
          {options.length === 0 && !suggestions.isFetching ? (
            <Combobox.Empty>{includeDeactivated ? `No payer begins with “${debounced}”.` : `No active payer begins with “${debounced}”.`}</Combobox.Empty>
          ) : (
            options.map((payer) => (
              <Combobox.Option value={payer.payerId} key={payer.payerId}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <div>
                    <Text size="sm">{payer.displayName}</Text>
                    <Text size="xs" c="dimmed">
                      {payer.email}
                    </Text>
                  </div>
                  {payer.status === 'Disabled' && (
                    <Badge size="xs" color="gray" variant="light" style={{ flexShrink: 0 }}>
                      Disabled
                    </Badge>
                  )}
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
