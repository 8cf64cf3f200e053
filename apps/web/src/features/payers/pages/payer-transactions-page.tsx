import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { getHref, paths, type Payer, payerPaths, payerEndpoints, paymentRequestEndpoints } from '@tay/contract';
import type { ReactNode } from 'react';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBusinessTime } from '../../../lib/business-time';
import { formatPhone } from '../../../lib/phone';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { usePayer } from '../api/payers-api';
import { PayerStatusBadge, VerificationBadge } from '../components/badges';
import { PayerHistoryCard } from '../components/payer-history';
import { PayersPageHeader } from '../components/payers-page-header';
import { RequestCount } from '../components/request-count';

/**
 * /business/payment/payers/transactions?payerId=: the payer, every request to pay they were sent
 * (the payments feature's list, handed in by the route as `requests`), and the payer's history.
 */
export function PayerTransactionsPage({ requests }: { requests: (payer: Payer) => ReactNode }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const payerId = params.get('payerId');
  const payer = usePayer(payerId);
  const clock = useBusinessTime();
  const canRequest = useEndpointAccess(paymentRequestEndpoints.create).allowed;
  const canChange = useEndpointAccess(payerEndpoints.create).allowed;
  if (!payerId) {
    return (
      <Stack gap="md">
        <PayersPageHeader title="Payer transactions" description="Choose a payer from the list to see their requests to pay." />
      </Stack>
    );
  }

  const p = payer.data;
  return (
    <Stack gap="md">
      <PayersPageHeader
        title={p ? `Transactions of ${p.displayName}` : 'Payer transactions'}
        description="Every request to pay sent to this payer."
        actions={
          p?.status === 'active' && canRequest ? (
            <Button onClick={() => navigate(getHref(paths.payments.request, undefined, { payerId: p.payerId }))}>Request to Pay</Button>
          ) : undefined
        }
      />
      {payer.error ? (
        <LoadError title="We could not load this payer" error={payer.error} onRetry={() => void payer.refetch()} />
      ) : !p ? (
        <PageLoader />
      ) : (
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" align="flex-start" mb="sm">
            <div>
              <Text fw={600} size="lg">
                {p.displayName}
              </Text>
              <Text size="sm" c="dimmed">
                {p.email}
              </Text>
            </div>
            <Group gap="xs">
              <PayerStatusBadge status={p.status} />
              <VerificationBadge verification={p.verification} />
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Detail label="Mobile" value={formatPhone(p.mobileNumber) || '—'} />
            <Detail label="Reference" value={p.reference ?? '—'} />
            <Detail label="Requests" value={<RequestCount payer={p} />} />
            <Detail label="Added" value={clock.date(p.createdAt)} />
          </SimpleGrid>
          {canChange && (
            <Group mt="md">
              <Button variant="default" size="xs" onClick={() => navigate(`${payerPaths.add}?payerId=${encodeURIComponent(p.payerId)}`)}>
                Edit payer
              </Button>
            </Group>
          )}
        </Card>
      )}
      {p && requests(p)}
      {p && <PayerHistoryCard payerId={p.payerId} />}
    </Stack>
  );
}

function Detail({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </div>
  );
}
