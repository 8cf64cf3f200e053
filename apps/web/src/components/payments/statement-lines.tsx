import { Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatDay, formatMoney, type RequestStatement } from '@tay/contract';
import { ScrollRegion } from '../ui/scroll-region';
import { wrapAnywhere } from '../ui/wrap-anywhere';

/** Below the small breakpoint (a phone): a statement's lines read as two columns, the service and what the patient owes. */
const PHONE = '(max-width: 47.99em)';

/**
 * A patient's statement (ADR 037) as the business and the payer read it — the request's details
 * and the payer's page: each line's service date, description, billed, insurance paid, adjustment
 * and patient responsibility, then the totals. On a phone each line is one cell (the figures under
 * the description) beside the patient responsibility.
 */
export function StatementLines({ statement, caption = 'Statement lines' }: { statement: RequestStatement; caption?: string }) {
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  const t = statement.totals;
  if (phone) {
    return (
      <Table verticalSpacing="xs" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Service</Table.Th>
            <Table.Th ta="right">Patient owes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.lines.map((line, index) => (
            <Table.Tr key={index}>
              <Table.Td style={wrapAnywhere}>
                <Text size="sm">{line.description}</Text>
                <Text size="xs" c="dimmed">
                  {formatDay(line.serviceDate)} · Billed {formatMoney(line.billedCents)} · Insurance paid {formatMoney(line.insurancePaidCents)} · Adjustment{' '}
                  {formatMoney(line.adjustmentCents)}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(line.responsibilityCents)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>
              Total
              <Text size="xs" c="dimmed" fw={400}>
                Billed {formatMoney(t.billedCents)} · Insurance paid {formatMoney(t.insurancePaidCents)} · Adjustment {formatMoney(t.adjustmentCents)}
              </Text>
            </Table.Th>
            <Table.Th ta="right">{formatMoney(t.responsibilityCents)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    );
  }
  return (
    <ScrollRegion label={caption} minWidth={560}>
      <Table verticalSpacing="xs" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Service date</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Billed</Table.Th>
            <Table.Th ta="right">Insurance paid</Table.Th>
            <Table.Th ta="right">Adjustment</Table.Th>
            <Table.Th ta="right">Patient responsibility</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.lines.map((line, index) => (
            <Table.Tr key={index}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(line.serviceDate)}</Table.Td>
              <Table.Td style={wrapAnywhere}>{line.description}</Table.Td>
              <Table.Td ta="right">{formatMoney(line.billedCents)}</Table.Td>
              <Table.Td ta="right">{formatMoney(line.insurancePaidCents)}</Table.Td>
              <Table.Td ta="right">{formatMoney(line.adjustmentCents)}</Table.Td>
              <Table.Td ta="right">{formatMoney(line.responsibilityCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={2}>Total</Table.Th>
            <Table.Th ta="right">{formatMoney(t.billedCents)}</Table.Th>
            <Table.Th ta="right">{formatMoney(t.insurancePaidCents)}</Table.Th>
            <Table.Th ta="right">{formatMoney(t.adjustmentCents)}</Table.Th>
            <Table.Th ta="right">{formatMoney(t.responsibilityCents)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollRegion>
  );
}
