import { ScrollRegion } from '../../../components/ui/scroll-region';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileInvoice, IconList } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDay, formatMoney, invoiceEndpoints } from '@tay/contract';
import { Figure } from '../../../components/ui/figure';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { invoiceDetailsHref, invoicePaths } from '../../../lib/invoice-paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { NewInvoiceButton } from '../components/invoice-actions';
import { useInvoiceList, useInvoiceSummary } from '../api/invoices-api';
import { InvoiceStateBadge } from '../components/invoice-state-badge';

/** How many of the latest invoices the landing shows. */
const RECENT = 8;

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * /business/payment/invoices: what is outstanding, overdue and paid this month, the latest
 * invoices, and the way to a new invoice and to all of them.
 */
export function InvoicesLandingPage() {
  useDocumentTitle('Invoices');
  const access = useEndpointAccess(invoiceEndpoints.create);
  const summary = useInvoiceSummary();
  const recent = useInvoiceList({ page: 1, pageSize: RECENT, sortBy: 'number', sortDirection: 'desc' });
  const s = summary.data;

  const newInvoice = <NewInvoiceButton allowed={access.allowed} />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Manage Invoices</Title>
        <Group>
          <Button component={Link} to={invoicePaths.list} variant="default" leftSection={<IconList size={16} />}>
            All invoices
          </Button>
          {newInvoice}
        </Group>
      </Group>
      <AccessAlert access={access} />
      {summary.error && <LoadError title="The figures could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure
          label="Outstanding"
          value={s ? formatMoney(s.outstandingCents) : '—'}
          hint={s ? `${count(s.outstandingCount, 'invoice')} still owed` : undefined}
        />
        <Figure label="Overdue" value={s ? formatMoney(s.overdueCents) : '—'} hint={s ? `${count(s.overdueCount, 'invoice')} past the due date` : undefined} />
        <Figure
          label="Paid this month"
          value={s ? formatMoney(s.paidThisMonthCents) : '—'}
          hint={s ? `${count(s.paidThisMonthCount, 'invoice')} paid in full${s.draftCount > 0 ? ` · ${count(s.draftCount, 'draft')}` : ''}` : undefined}
        />
      </SimpleGrid>
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="lg">
            Recent invoices
          </Title>
          <Anchor component={Link} to={invoicePaths.list} size="sm">
            See all
          </Anchor>
        </Group>
        {recent.error ? (
          <LoadError title="The invoices could not be loaded" error={recent.error} onRetry={() => void recent.refetch()} />
        ) : !recent.data ? (
          <PageLoader />
        ) : recent.data.items.length === 0 ? (
          <Stack align="center" gap="xs" py="lg" ta="center">
            <IconFileInvoice size={36} color="var(--mantine-color-gray-5)" aria-hidden="true" />
            <Text fw={600}>No invoices yet</Text>
            <Text size="sm" c="dimmed" maw={420}>
              Bill a payer for items or services, with tax and a discount. Once sent, they pay it from the link in their e-mail.
            </Text>
            {newInvoice}
          </Stack>
        ) : (
          <ScrollRegion label="Recent invoices, scrolls sideways" minWidth={480}>
            <Table verticalSpacing="xs" aria-label="Recent invoices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Number</Table.Th>
                  <Table.Th>Payer</Table.Th>
                  <Table.Th>Due</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {recent.data.items.map((invoice) => (
                  <Table.Tr key={invoice.invoiceId}>
                    <Table.Td>
                      <Anchor component={Link} to={invoiceDetailsHref(invoice.invoiceId)} ff="monospace" size="sm" aria-label={`View ${invoice.number}`}>
                        {invoice.number}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{invoice.payerName}</Table.Td>
                    <Table.Td>{formatDay(invoice.dueDate)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(invoice.totalCents)}</Table.Td>
                    <Table.Td>
                      <InvoiceStateBadge state={invoice.invoiceState} overdue={invoice.overdue} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </Paper>
    </Stack>
  );
}
