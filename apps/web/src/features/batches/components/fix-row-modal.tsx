import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Batch, BatchField, BatchRow } from '@tay/contract';

/**
 * Fixes one row in place: a box per field the mapping reads, holding the row's value, with the
 * row's own error under each. Saving checks the row again on the server at once.
 */
export function FixRowModal({
  batch,
  fields,
  row,
  saving,
  error,
  onSave,
  onClose,
}: {
  batch: Batch;
  fields: readonly BatchField[];
  row: BatchRow;
  saving: boolean;
  error: string | null;
  onSave: (fields: Record<string, string>) => void;
  onClose: () => void;
}) {
  const shown = fields.filter((f) => batch.mapping.columns[f.key]);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(shown.map((f) => [f.key, row.fields[f.key] ?? ''])));
  return (
    <Modal opened onClose={onClose} title={`Fix line ${row.row}`} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(values);
        }}
      >
        <Stack gap="sm">
          {row.errors.row && (
            <Alert color="red" role="alert">
              {row.errors.row}
            </Alert>
          )}
          {shown.map((field) => (
            <TextInput
              key={field.key}
              label={field.label}
              description={`Column "${batch.mapping.columns[field.key]}" · ${field.hint}`}
              value={values[field.key] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [field.key]: value }));
              }}
              error={row.errors[field.key]}
              data-autofocus={row.errors[field.key] ? true : undefined}
            />
          ))}
          {error && (
            <Alert color="red" title="The row was not saved" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save and check
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
