import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { RequestsTable } from '../components/requests-table';
import { paths, paymentRequestEndpoints } from '@tay/contract';

/**
 * /business/payment/transactions/history and /draft: every request, with status badges, row
 * actions by state, filters (status, dates, payer, amounts), search, sort, pages and CSV export
 * of the same query. `?transid=` opens a request's details and timeline, `?receipt=` its receipt.
 */
export function TransactionsPage({ view }: { view: 'history' | 'draft' }) {
  useDocumentTitle(view === 'draft' ? 'Draft requests' : 'Transaction history');
  const navigate = useNavigate();
  const access = useEndpointAccess(paymentRequestEndpoints.create);
  const title = view === 'draft' ? 'Draft requests' : 'Transaction history';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{title}</Title>
          <Text c="dimmed" size="sm">
            {view === 'draft' ? 'Requests you saved but have not sent.' : 'Every request you sent, and where each one stands.'}
          </Text>
        </div>
        <Group>
          <Button variant="default" onClick={() => navigate(view === 'draft' ? paths.payments.history : paths.payments.drafts)}>
            {view === 'draft' ? 'Transaction history' : 'Drafts'}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(paths.payments.request)} disabled={!access.allowed}>
            New request
          </Button>
        </Group>
      </Group>
      <AccessAlert access={access} />
      <RequestsTable view={view} caption={title} />
    </Stack>
  );
}
