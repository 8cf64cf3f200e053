import { Box, Table, Text } from '@mantine/core';
import { formatDay, formatMoney, parseAmountCell, parseChannelCell, parseDateCell, parseYesNoCell, type BatchField } from '@tay/contract';

/** A cell as the server will read it: money and dates in their own form, or what is wrong. */
export function readCell(key: string, text: string): { shown: string; bad: boolean } {
  const value = text.trim();
  if (value === '') return { shown: '—', bad: false };
  switch (key) {
    case 'amount': {
      const cents = parseAmountCell(value);
      return cents === null || cents <= 0 ? { shown: `${value} (not an amount)`, bad: true } : { shown: formatMoney(cents), bad: false };
    }
    case 'billed':
    case 'insurancePaid':
    case 'adjustment':
    case 'patientResponsibility': {
      // A charge's amounts (patient billing): 0 is a fine insurance payment or adjustment.
      const cents = parseAmountCell(value);
      return cents === null ? { shown: `${value} (not an amount)`, bad: true } : { shown: formatMoney(cents), bad: false };
    }
    case 'dueDate':
    case 'dateOfService':
    case 'expiresOn':
    case 'payOn': {
      const day = parseDateCell(value);
      return day ? { shown: formatDay(day), bad: false } : { shown: `${value} (not a date)`, bad: true };
    }
    case 'allowPartial': {
      const yes = parseYesNoCell(value);
      return yes === null ? { shown: `${value} (not yes or no)`, bad: true } : { shown: yes ? 'Yes' : 'No', bad: false };
    }
    case 'channel': {
      const channel = parseChannelCell(value);
      return channel === null ? { shown: `${value} (not email or sms)`, bad: true } : { shown: channel === 'sms' ? 'Text message' : 'E-mail', bad: false };
    }
    default:
      return { shown: value, bad: false };
  }
}

/** The first rows of the file as the chosen mapping reads them, one column per mapped field. */
export function MappingPreview({
  fields,
  columns,
  sample,
  chosen,
}: {
  fields: readonly BatchField[];
  columns: string[];
  sample: string[][];
  chosen: Record<string, string>;
}) {
  const shown = fields.filter((f) => chosen[f.key]);
  if (shown.length === 0 || sample.length === 0) return null;
  return (
    // A region of its own that the keyboard can scroll, when the columns are wider than the screen.
    <Box tabIndex={0} role="region" aria-label="Preview of the first rows" style={{ overflowX: 'auto' }}>
      <Table striped withTableBorder miw={500}>
        <Table.Caption>The first {sample.length} rows as they will be read</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {shown.map((f) => (
              <Table.Th key={f.key} scope="col">
                {f.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sample.map((cells, i) => (
            <Table.Tr key={i}>
              {shown.map((f) => {
                const cell = readCell(f.key, cells[columns.indexOf(chosen[f.key]!)] ?? '');
                return (
                  <Table.Td key={f.key}>
                    <Text size="sm" c={cell.bad ? 'red' : undefined}>
                      {cell.shown}
                    </Text>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
