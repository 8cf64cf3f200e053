import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { invoiceEndpoints } from '@tay/contract';
import { AccessAlert } from '../../../components/ui/access-alert';
import { invoicePaths } from '../../../lib/invoice-paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { NewInvoiceButton } from '../components/invoice-actions';
import { InvoicesTable } from '../components/invoices-table';

/**
 * /business/payment/invoices/list: every invoice, with state and overdue badges, row actions by
 * state, filters, search, sort, pages and CSV export of the same query, all kept in the URL.
 */
export function InvoicesListPage() {
  useDocumentTitle('Invoices');
  const access = useEndpointAccess(invoiceEndpoints.create);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Invoices</Title>
          <Text c="dimmed" size="sm">
            Every invoice, what was paid and what is still owed.
          </Text>
        </div>
        <Group>
          <Button variant="default" component={Link} to={invoicePaths.landing}>
            Overview
          </Button>
          <NewInvoiceButton allowed={access.allowed} />
        </Group>
      </Group>
      <AccessAlert access={access} />
      <InvoicesTable caption="Invoices" />
    </Stack>
  );
}
