import { Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatMoney, type InvoiceLine } from '@tay/contract';
import { wrapAnywhere } from '../ui/wrap-anywhere';

/** Below the small breakpoint (a phone): an invoice's lines read as two columns, the item and its amount. */
const PHONE = '(max-width: 47.99em)';

const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** 1.5 → "1.5"; 1000 → "1,000". */
export function formatQuantity(quantity: number): string {
  return quantityFormat.format(quantity);
}

/** 8.875 → "8.875%". */
export function formatRate(rate: number): string {
  return `${quantityFormat.format(rate)}%`;
}

/**
 * An invoice's lines as the payer reads them (the invoice details and the payer's page): the
 * description, quantity, unit price (and the tax rate, for the merchant) and the line's amount.
 * On a phone each line is one cell, "3 × $10.00" under its description, beside its amount.
 */
export function InvoiceLinesTable({ items, showTax = false, caption = 'Items' }: { items: InvoiceLine[]; showTax?: boolean; caption?: string }) {
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  if (phone) {
    return (
      <Table verticalSpacing="xs" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((line, index) => (
            <Table.Tr key={index}>
              <Table.Td style={wrapAnywhere}>
                <Text size="sm">{line.description}</Text>
                <Text size="xs" c="dimmed">
                  {formatQuantity(line.quantity)} × {formatMoney(line.unitPriceCents)}
                  {showTax && line.taxRate > 0 ? ` · ${formatRate(line.taxRate)} tax` : ''}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(line.amountCents)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }
  return (
    <Table verticalSpacing="xs" aria-label={caption}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Description</Table.Th>
          <Table.Th ta="right">Qty</Table.Th>
          <Table.Th ta="right">Unit price</Table.Th>
          {showTax && <Table.Th ta="right">Tax</Table.Th>}
          <Table.Th ta="right">Amount</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((line, index) => (
          <Table.Tr key={index}>
            <Table.Td style={wrapAnywhere}>{line.description}</Table.Td>
            <Table.Td ta="right">{formatQuantity(line.quantity)}</Table.Td>
            <Table.Td ta="right">{formatMoney(line.unitPriceCents)}</Table.Td>
            {showTax && <Table.Td ta="right">{line.taxRate > 0 ? formatRate(line.taxRate) : '—'}</Table.Td>}
            <Table.Td ta="right">{formatMoney(line.amountCents)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface TotalsFigures {
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  /** With a payment: what was paid and what remains. */
  amountPaidCents?: number;
  /** What was given back of the payments (ADR 051): shown once something was; it does not reopen the balance. */
  refundedCents?: number;
  balanceCents?: number;
}

/**
 * Subtotal, discount, tax and total (and, once something is paid, the amount paid and the
 * balance): the figures of packages/contract/src/invoices/totals.ts, so they always add up.
 */
export function InvoiceTotals({ figures, label = 'Totals', live = false }: { figures: TotalsFigures; label?: string; live?: boolean }) {
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: 'Subtotal', value: formatMoney(figures.subtotalCents) },
    { label: 'Discount', value: figures.discountCents > 0 ? `−${formatMoney(figures.discountCents)}` : formatMoney(0) },
    { label: 'Tax', value: formatMoney(figures.taxCents) },
    { label: 'Total', value: formatMoney(figures.totalCents), strong: true },
    ...(figures.amountPaidCents !== undefined ? [{ label: 'Amount paid', value: formatMoney(figures.amountPaidCents) }] : []),
    ...(figures.refundedCents ? [{ label: 'Refunded', value: formatMoney(figures.refundedCents) }] : []),
    ...(figures.balanceCents !== undefined ? [{ label: 'Balance due', value: formatMoney(figures.balanceCents), strong: true }] : []),
  ];
  return (
    <section aria-label={label} aria-live={live ? 'polite' : undefined}>
      <Table variant="vertical" layout="fixed" withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row" bg="transparent" fw={row.strong ? 700 : 500}>
                {row.label}
              </Table.Th>
              <Table.Td ta="right" fw={row.strong ? 700 : undefined} data-figure={row.label}>
                {row.value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}
