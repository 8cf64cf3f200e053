import { Badge, Button, Card, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconListCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBalances } from '../../../lib/balances';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBusiness, usePrepareSubmit } from '../api/business-api';
import { BalancesCard, NoPaymentsCard } from '../components/balances-card';
import { DisputesNotice } from '../components/disputes-notice';
import { SETUP_STEPS, stateLabel, stepTodo } from '../components/setup-steps';

/** /business/home: where the business stands, what to do next, and (once paid) its money. */
export function HomePage() {
  useDocumentTitle('Home');
  const { currentUser } = useSession();
  const business = useBusiness();
  const prepare = usePrepareSubmit();
  // An Approved business has money to show, and a Disabled one may still hold what it collected
  // before; the others see their onboarding state.
  const state = business.data?.businessState;
  const balances = useBalances({ enabled: state === 'Approved' || state === 'Disabled' });
  if (business.error) return <LoadError title="We could not load your business" error={business.error} onRetry={() => void business.refetch()} />;
  if (!business.data) return <PageLoader />;
  const b = business.data;
  const approved = b.businessState === 'Approved';
  const disabled = b.businessState === 'Disabled';
  // A Disabled business's balances show while they load or fail, and once loaded if it holds any money.
  const showBalances = approved || (disabled && !(balances.data && Object.values(balances.data).every((cents) => cents === 0)));
  const missing = b.businessState === 'Incomplete' ? prepare.data?.missing : undefined;
  const openSteps = missing ? SETUP_STEPS.filter((s) => stepTodo(s, missing, b).length > 0) : [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Welcome{currentUser?.firstName ? `, ${currentUser.firstName}` : ''}</Title>
          <Text c="dimmed">{b.businessName}</Text>
        </div>
        <Badge size="lg" variant="light" color={approved ? 'teal' : b.businessState === 'Disabled' ? 'red' : 'blue'}>
          {stateLabel(b)}
        </Badge>
      </Group>

      {!approved && (
        <Paper withBorder p="lg" radius="md">
          <Group mb="sm">
            <ThemeIcon variant="light" radius="xl">
              <IconListCheck size={18} />
            </ThemeIcon>
            <Title order={2} fz="lg">
              Next steps
            </Title>
          </Group>
          {b.businessState === 'Incomplete' ? (
            openSteps.length > 0 ? (
              <List spacing="xs" size="sm">
                {openSteps.map((step) => (
                  <List.Item key={step.key}>
                    <Button component={Link} to={step.to} variant="subtle" size="compact-sm">
                      {step.label}
                    </Button>
                    <Text span size="sm" c="dimmed">
                      {step.description}
                    </Text>
                  </List.Item>
                ))}
              </List>
            ) : (
              <Group>
                <ThemeIcon color="teal" variant="light" radius="xl">
                  <IconCircleCheck size={18} />
                </ThemeIcon>
                <Text size="sm">Every step is complete.</Text>
                <Button component={Link} to={paths.business.setup} size="xs">
                  Review and submit
                </Button>
              </Group>
            )
          ) : b.businessState === 'Pending' ? (
            <Text size="sm">We are reviewing your business. Nothing else is needed from you now.</Text>
          ) : (
            <Text size="sm">Contact Tay support to enable your business again.</Text>
          )}
        </Paper>
      )}

      <DisputesNotice enabled={approved || disabled} />

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {showBalances ? (
          <BalancesCard balances={balances.data} loading={balances.isPending} error={balances.error} onRetry={() => void balances.refetch()} />
        ) : (
          <NoPaymentsCard
            why={
              disabled
                ? 'A disabled business takes no payments, and this one collected none.'
                : 'Once your business is approved, the money you collect shows here, pending and available.'
            }
          />
        )}
        <Card withBorder radius="md" padding="lg">
          <Text fw={600} mb="xs">
            Your business
          </Text>
          <Text size="sm">Template: {b.entities[0]?.entityTemplateName ?? 'Standard'}</Text>
          <Text size="sm">Payouts: {b.payoutEnabled === 1 ? 'enabled' : 'not enabled'}</Text>
          <Button component={Link} to={paths.business.setup} variant="light" size="xs" mt="md">
            Open setup
          </Button>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
