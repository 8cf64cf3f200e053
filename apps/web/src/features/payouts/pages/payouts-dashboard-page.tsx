import { Anchor, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconList, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatMoney, paths, payoutEndpoints } from '@tay/contract';
import { Figure } from '../../../components/ui/figure';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { usePayoutSummary } from '../api/payouts-api';
import { PayoutSettingsCard } from '../components/payout-settings-card';
import { PayoutStateBadge } from '../components/payout-state-badge';
import { payoutTransactionsHref } from '../payout-paths';
import { useBusinessTime } from '../../../lib/business-time';
import { NegativeBalanceAlert } from '../../../components/payments/negative-balance-alert';

/** /business/payouts: the Transaction Dashboard — what can be paid out, what is on its way, what waits for approval. */
export function PayoutsDashboardPage() {
  useDocumentTitle('Transaction Dashboard');
  const access = useEndpointAccess(payoutEndpoints.create);
  const summary = usePayoutSummary();
  const clock = useBusinessTime();
  if (summary.isPending) return <PageLoader />;
  if (summary.error) return <LoadError title="The payouts could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />;
  const s = summary.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Transaction Dashboard</Title>
          <Text c="dimmed" size="sm">
            Pay your receivers from your available balance. Each payout costs {formatMoney(s.feeCents)}.
          </Text>
        </div>
        <Group>
          <Button variant="default" component={Link} to={paths.payouts.transactions} leftSection={<IconList size={16} />}>
            All payouts
          </Button>
          <Button component={Link} to={paths.payouts.request} leftSection={<IconPlus size={16} />} disabled={!access.allowed}>
            New payout
          </Button>
        </Group>
      </Group>
      <AccessAlert access={access} />
      <NegativeBalanceAlert availableCents={s.availableCents} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Figure label="Available" value={formatMoney(s.availableCents)} hint="What approvals can take from" />
        <Figure label="In flight" value={formatMoney(s.inFlightCents)} hint="Approved, not paid yet (fees included)" />
        <Figure label="Paid out this month" value={formatMoney(s.paidThisMonthCents)} hint={`${s.paidThisMonthCount} payouts`} />
        <Figure label="Waiting for approval" value={formatMoney(s.waitingCents)} hint={`${s.waitingCount} payouts`} />
      </SimpleGrid>
      {s.waitingCount > 0 && (
        <Anchor component={Link} to={paths.payouts.review}>
          Review the {s.waitingCount} payouts waiting for approval
        </Anchor>
      )}
      <PayoutSettingsCard />
      <Title order={2} size="h3">
        Recent payouts
      </Title>
      {s.recent.length === 0 ? (
        <Text c="dimmed">No payouts yet. Make one with New payout, or upload a file of them.</Text>
      ) : (
        // Wider than a phone: it scrolls sideways on its own, so the page keeps the screen's width
        // and the status badges are not squeezed into "SU…".
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover>
            <Table.Caption>Recent payouts</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Receiver</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.recent.map((p) => (
                <Table.Tr key={p.payoutId}>
                  <Table.Td>
                    <Anchor component={Link} to={payoutTransactionsHref({ payoutId: p.payoutId })}>
                      {p.reference}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{p.receiverName}</Table.Td>
                  <Table.Td ta="right">{formatMoney(p.amountCents)}</Table.Td>
                  <Table.Td>
                    <PayoutStateBadge state={p.state} />
                  </Table.Td>
                  <Table.Td>{clock.date(p.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
