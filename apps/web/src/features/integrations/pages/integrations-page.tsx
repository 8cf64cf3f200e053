import { Alert, Center, Loader, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { INTEGRATION_PROVIDER_LABELS, IntegrationProvider, INTEGRATION_PROVIDERS } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ApiError } from '../../../lib/api-client';
import { useListParams } from '../../../lib/list-params';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { useIntegrations } from '../api/integrations-api';
import { IntegrationCard } from '../components/integration-card';
import { SyncLog } from '../components/sync-log';
import { useReturnFromProvider } from '../hooks/use-return-from-provider';
import { useSyncFinished } from '../hooks/use-sync-finished';

/** The business is not Approved: the API refuses integrations with its own words (packages/contract/src/integrations/endpoints.ts). */
const notApproved = (error: unknown) => error instanceof ApiError && error.code === 'BUSINESS_NOT_APPROVED';

/** The sync logs, one tab per provider; the tab is in the URL (`log`), with the shown log's filters and page. */
function SyncLogs() {
  const { get, update } = useListParams();
  const chosen = IntegrationProvider.safeParse(get('log'));
  const tab = chosen.success ? chosen.data : INTEGRATION_PROVIDERS[0];
  return (
    <Stack component="section" aria-labelledby="sync-log-title" gap="sm">
      <Title order={2} size="h3" id="sync-log-title">
        Sync log
      </Title>
      <Tabs
        value={tab}
        // Another provider's log starts unfiltered, on its first page.
        onChange={(value) => value && update({ log: value, recordType: null, outcome: null })}
        keepMounted={false}
      >
        <Tabs.List>
          {INTEGRATION_PROVIDERS.map((provider) => (
            <Tabs.Tab key={provider} value={provider}>
              {INTEGRATION_PROVIDER_LABELS[provider].name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {INTEGRATION_PROVIDERS.map((provider) => (
          <Tabs.Panel key={provider} value={provider} pt="md">
            <SyncLog provider={provider} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

/**
 * /business/setup/integrations (issue 24, ADR 041): QuickBooks Online and FreshBooks, each with its
 * connection, last sync, records synced and errors, and its sync log. An owner connects (OAuth at
 * the provider, back through our callback), syncs now and disconnects; everyone else reads.
 */
export function IntegrationsPage() {
  useDocumentTitle('3rd Party Integrations');
  const business = useSession().business;
  const canManage = useRoleAllows('business:owner');
  const integrations = useIntegrations();
  const returned = useReturnFromProvider();
  useSyncFinished(integrations.data);

  const body = () => {
    if (integrations.error) {
      if (notApproved(integrations.error)) {
        return (
          <Alert color="gray" icon={<IconLock size={18} />} title={business?.businessState === 'Disabled' ? 'Integrations are paused' : 'Not open yet'}>
            {(integrations.error as ApiError).message}
          </Alert>
        );
      }
      return <LoadError title="Integrations could not be loaded" error={integrations.error} onRetry={() => void integrations.refetch()} />;
    }
    if (!integrations.data) {
      return (
        <Center py="xl">
          <Loader role="status" aria-label="Loading integrations" />
        </Center>
      );
    }
    return (
      <>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {integrations.data.map((integration) => (
            <IntegrationCard
              key={integration.provider}
              integration={integration}
              canManage={canManage}
              returnError={returned.error?.provider === integration.provider ? returned.error.message : null}
              onDismissReturnError={returned.dismiss}
            />
          ))}
        </SimpleGrid>
        <SyncLogs />
      </>
    );
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>3rd Party Integrations</Title>
        <Text c="dimmed" size="sm">
          Connect your accounting software: Tay pushes your payers, invoices and the payments applied to them, and updates them when they change.
        </Text>
      </div>
      {!canManage && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} title="View only">
          Only an owner of this business can connect, sync or disconnect integrations. You can see their state and sync logs.
        </Alert>
      )}
      {/* Words about a provider the page does not know have no card to go on. */}
      {returned.error && returned.error.provider === null && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title="Nothing was connected"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={returned.dismiss}
          role="alert"
        >
          {returned.error.message}
        </Alert>
      )}
      {body()}
    </Stack>
  );
}
