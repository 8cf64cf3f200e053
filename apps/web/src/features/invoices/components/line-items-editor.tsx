import { ActionIcon, Button, Grid, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { formatMoney, MAX_INVOICE_LINES, type InvoiceLineFigures } from '@tay/contract';
import { lineIsPriced, newLine, type LineDraft, type LineField } from '../invoice-form-model';
import { MoneyInput } from '../../../components/ui/money-input';

interface Props {
  lines: LineDraft[];
  /** Each line's figures, in the lines' order. */
  figures: InvoiceLineFigures[];
  errors: Record<string, Partial<Record<LineField, string>>>;
  /** An error about the lines as a whole ("Add at least one item."). */
  error?: string | undefined;
  onChange: (lines: LineDraft[]) => void;
  /** A field was edited: its error can go. */
  onEdit?: (key: string, field: LineField) => void;
  disabled?: boolean;
}

type Focus = { key: string; control: 'up' | 'down' | 'remove' | 'description' } | { key: null; control: 'add' };

/**
 * The invoice's lines: description, quantity, unit price, tax rate and the line's amount, with
 * buttons to add, remove and move each line. Every control is a labelled field or button
 * ("Quantity, line 2", "Move line 2 up"), so the lines are edited and reordered by keyboard as
 * by mouse; after a move or a removal the focus stays with the line (or goes to its neighbour),
 * and a live region says what happened. On a narrow screen each line's fields stack.
 */
export function LineItemsEditor({ lines, figures, errors, error, onChange, onEdit, disabled = false }: Props) {
  const id = useId();
  const [announcement, setAnnouncement] = useState('');
  const focus = useRef<Focus | null>(null);
  const controlId = (f: Focus) => `${id}-${f.key ?? 'lines'}-${f.control}`;

  useEffect(() => {
    const target = focus.current;
    if (!target) return;
    focus.current = null;
    document.getElementById(controlId(target))?.focus();
  });

  const edit = (key: string, field: LineField, value: string) => {
    onChange(lines.map((line) => (line.key === key ? { ...line, [field]: value } : line)));
    onEdit?.(key, field);
  };

  const move = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= lines.length) return;
    const next = [...lines];
    const [line] = next.splice(index, 1);
    next.splice(to, 0, line!);
    // Focus stays on the button pressed, unless the line reached the end it moved to.
    const control = by === -1 ? (to === 0 ? 'down' : 'up') : to === lines.length - 1 ? 'up' : 'down';
    focus.current = { key: line!.key, control: lines.length > 1 ? control : 'description' };
    setAnnouncement(`Line ${index + 1} moved ${by === -1 ? 'up' : 'down'} to line ${to + 1}.`);
    onChange(next);
  };

  const remove = (index: number) => {
    const next = lines.filter((_, i) => i !== index);
    const neighbour = next[index] ?? next[index - 1];
    focus.current = neighbour ? { key: neighbour.key, control: 'description' } : { key: null, control: 'add' };
    setAnnouncement(`Line ${index + 1} removed. ${next.length} line${next.length === 1 ? '' : 's'} left.`);
    onChange(next);
  };

  const add = () => {
    const line = newLine();
    focus.current = { key: line.key, control: 'description' };
    setAnnouncement(`Line ${lines.length + 1} added.`);
    onChange([...lines, line]);
  };

  return (
    <Stack gap="sm" role="group" aria-labelledby={`${id}-title`}>
      <Text fw={600} id={`${id}-title`}>
        Items
      </Text>
      {lines.map((line, index) => {
        const n = index + 1;
        const lineErrors = errors[line.key] ?? {};
        const amount = figures[index];
        return (
          <Paper key={line.key} withBorder p="sm" radius="md" role="group" aria-label={`Line ${n}`}>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text size="sm" fw={600} c="dimmed">
                Line {n}
              </Text>
              <Group gap={4} wrap="nowrap">
                <ActionIcon
                  id={controlId({ key: line.key, control: 'up' })}
                  variant="subtle"
                  color="gray"
                  aria-label={`Move line ${n} up`}
                  disabled={disabled || index === 0}
                  onClick={() => move(index, -1)}
                >
                  <IconArrowUp size={16} aria-hidden="true" />
                </ActionIcon>
                <ActionIcon
                  id={controlId({ key: line.key, control: 'down' })}
                  variant="subtle"
                  color="gray"
                  aria-label={`Move line ${n} down`}
                  disabled={disabled || index === lines.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <IconArrowDown size={16} aria-hidden="true" />
                </ActionIcon>
                <ActionIcon
                  id={controlId({ key: line.key, control: 'remove' })}
                  variant="subtle"
                  color="red"
                  aria-label={`Remove line ${n}`}
                  disabled={disabled || lines.length === 1}
                  onClick={() => remove(index)}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </ActionIcon>
              </Group>
            </Group>
            <Grid gap="xs">
              <Grid.Col span={{ base: 12, md: 5 }}>
                <TextInput
                  id={controlId({ key: line.key, control: 'description' })}
                  label="Description"
                  aria-label={`Description, line ${n}`}
                  value={line.description}
                  maxLength={300}
                  onChange={(e) => edit(line.key, 'description', e.currentTarget.value)}
                  error={lineErrors.description}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 2 }}>
                <TextInput
                  label="Quantity"
                  aria-label={`Quantity, line ${n}`}
                  inputMode="decimal"
                  value={line.quantity}
                  onChange={(e) => edit(line.key, 'quantity', e.currentTarget.value)}
                  error={lineErrors.quantity}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 2 }}>
                <MoneyInput
                  label="Unit price"
                  aria-label={`Unit price, line ${n}`}
                  value={line.unitPrice}
                  onValueChange={(value) => edit(line.key, 'unitPrice', value)}
                  error={lineErrors.unitPrice}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 1.5 }}>
                <TextInput
                  label="Tax"
                  aria-label={`Tax rate, line ${n}`}
                  inputMode="decimal"
                  rightSection="%"
                  placeholder="0"
                  value={line.taxRate}
                  onChange={(e) => edit(line.key, 'taxRate', e.currentTarget.value)}
                  error={lineErrors.taxRate}
                  disabled={disabled}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 1.5 }}>
                <Text size="sm" fw={500} mb={4} aria-hidden="true">
                  Amount
                </Text>
                <Text size="sm" pt={6} ta={{ base: 'left', md: 'right' }} data-line-amount={n}>
                  <span className="visually-hidden">{`Amount, line ${n}: `}</span>
                  {amount && lineIsPriced(line) ? formatMoney(amount.amountCents) : '—'}
                </Text>
              </Grid.Col>
            </Grid>
          </Paper>
        );
      })}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group>
        <Button
          id={controlId({ key: null, control: 'add' })}
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={add}
          disabled={disabled || lines.length >= MAX_INVOICE_LINES}
        >
          Add line
        </Button>
      </Group>
      <div aria-live="polite" className="visually-hidden">
        {announcement}
      </div>
    </Stack>
  );
}
