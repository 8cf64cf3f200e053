import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { formatDay, type PayerInvoice } from '@tay/contract';
import { InvoiceLinesTable, InvoiceTotals } from '../../../components/invoices/invoice-lines';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';

/**
 * The invoice a payment request collects, as its payer reads it above the payment form: its
 * number and dates, its lines (description, quantity, unit price, amount) and the figures that make
 * up the total. On a phone each line reads as its description over "3 × $10.00", beside its amount.
 */
export function PayInvoice({ invoice, memo, token }: { invoice: PayerInvoice; memo: string; token: string }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" component="section" aria-labelledby="pay-invoice-title">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
          <Title order={2} fz="lg" id="pay-invoice-title">
            Invoice {invoice.number}
          </Title>
          <Text size="sm" c="dimmed">
            Issued {formatDay(invoice.issueDate)} · Due {formatDay(invoice.dueDate)}
          </Text>
        </Group>
        <InvoiceLinesTable items={invoice.items} caption={`Items of invoice ${invoice.number}`} />
        <Group justify="flex-end">
          <div style={{ width: '100%', maxWidth: 320 }}>
            <InvoiceTotals figures={invoice} label={`Totals of invoice ${invoice.number}`} />
          </div>
        </Group>
        {invoice.memo && invoice.memo !== memo && (
          <Text size="sm" style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>
            {invoice.memo}
          </Text>
        )}
        {invoice.footer && (
          <Text size="xs" c="dimmed" style={{ ...wrapAnywhere, whiteSpace: 'pre-line' }}>
            {invoice.footer}
          </Text>
        )}
        {/* A public file by the payer's own link: a plain link downloads it, no script needed. */}
        <Anchor href={`/api/public/pay/${encodeURIComponent(token)}/invoice.pdf`} download={`${invoice.number}.pdf`} size="sm">
          <Group gap={6} component="span">
            <IconDownload size={16} aria-hidden />
            Download the invoice (PDF)
          </Group>
        </Anchor>
      </Stack>
    </Paper>
  );
}
