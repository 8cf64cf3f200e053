import type { ReactNode } from 'react';
import { Box, Button, Card, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Balances, formatMoney, paths } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { NegativeBalanceAlert } from '../../../components/payments/negative-balance-alert';

export interface BalancesCardProps {
  balances: Balances | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}

function Figure({ label, cents, hint }: { label: string; cents: number; hint: string }) {
  return (
    <div role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700}>
        {formatMoney(cents)}
      </Text>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </div>
  );
}

/**
 * The business's money on its home page, as the ledger derives it (ARCHITECTURE.md §5): pending
 * (paid, waiting to settle) and available (settled). Fees are already taken out of both.
 */
export function BalancesCard({ balances, loading, error, onRetry }: BalancesCardProps) {
  if (error) return <LoadError title="We could not load your balances" error={error} onRetry={onRetry} />;
  if (loading || !balances) {
    return (
      <Card withBorder radius="md" padding="lg">
        <Group justify="center" py="md" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text size="sm" c="dimmed">
            Loading your balances
          </Text>
        </Group>
      </Card>
    );
  }
  const nothingYet = balances.pendingCents === 0 && balances.availableCents === 0 && balances.collectedCents === 0 && balances.feesCents === 0;
  if (nothingYet) {
    return (
      <NoPaymentsCard why="Money you collect will show here, pending and available, as soon as your first payer pays.">
        <Button component={Link} to={paths.payments.request} variant="light" size="xs">
          Request a payment
        </Button>
      </NoPaymentsCard>
    );
  }
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Balances">
      <Text fw={600} mb="sm">
        Balances
      </Text>
      <SimpleGrid cols={2}>
        <Figure label="Pending" cents={balances.pendingCents} hint="Paid, waiting to settle" />
        <Figure label="Available" cents={balances.availableCents} hint="Settled, after fees" />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="sm">
        {formatMoney(balances.collectedCents)} collected, {formatMoney(balances.feesCents)} in fees.
      </Text>
      {balances.availableCents < 0 && (
        <Box mt="sm">
          <NegativeBalanceAlert availableCents={balances.availableCents} />
        </Box>
      )}
    </Card>
  );
}

/** The balances' place before any money came in: why there is none yet, and what to do (`children`). */
export function NoPaymentsCard({ why, children }: { why: string; children?: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack align="center" gap="xs" ta="center" py="md">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconInbox size={26} />
        </ThemeIcon>
        <Text fw={600}>No payments yet</Text>
        <Text size="sm" c="dimmed">
          {why}
        </Text>
        {children}
      </Stack>
    </Card>
  );
}
