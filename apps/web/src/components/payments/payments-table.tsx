import { Table, Text } from '@mantine/core';
import { formatMoney, type PaymentSummary } from '@tay/contract';
import { useBusinessTime } from '../../lib/business-time';

/** The payments made on a request or an invoice: when, how, how much, the fee, and how each ended. */
export function PaymentsTable({ payments, label = 'Payments' }: { payments: readonly PaymentSummary[]; label?: string }) {
  const clock = useBusinessTime();
  if (payments.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No payment yet.
      </Text>
    );
  }
  return (
    <Table striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Date</Table.Th>
          <Table.Th>Method</Table.Th>
          <Table.Th ta="right">Amount</Table.Th>
          <Table.Th ta="right">Fee</Table.Th>
          <Table.Th>Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {payments.map((p) => (
          <Table.Tr key={p.paymentId}>
            <Table.Td>{clock.dateTime(p.createdAt)}</Table.Td>
            <Table.Td>{p.instrument}</Table.Td>
            <Table.Td ta="right">{formatMoney(p.amountCents)}</Table.Td>
            <Table.Td ta="right">{formatMoney(p.feeCents)}</Table.Td>
            <Table.Td>
              {p.state}
              {p.failureReason ? ` — ${p.failureReason}` : ''}
              {p.refundedCents > 0 && (
                <Text span size="xs" c="dimmed" display="block">
                  {p.refundedCents >= p.amountCents ? 'Refunded' : `${formatMoney(p.refundedCents)} refunded`}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
