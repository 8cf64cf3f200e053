import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { parseMoney } from '@tay/contract';

/**
 * An amount filter whose text follows the URL: what the person types stays until they leave the
 * field or press Enter, then goes into the URL; any other change of the URL (filters cleared,
 * back and forward) shows the URL's value. Shared by the transaction history and the invoices list.
 */
export function AmountFilter({
  label,
  placeholder,
  value,
  onCommit,
}: {
  label: string;
  placeholder: string;
  value: string;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState<{ from: string; text: string } | null>(null);
  const text = draft && draft.from === value ? draft.text : value;
  const invalid = text.trim() !== '' && parseMoney(text) === null;
  const commit = () => {
    if (!invalid && text.trim() !== value) onCommit(text.trim());
  };
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      inputMode="decimal"
      value={text}
      onChange={(e) => setDraft({ from: value, text: e.currentTarget.value })}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      error={invalid ? 'Enter an amount like 25.00' : undefined}
    />
  );
}
