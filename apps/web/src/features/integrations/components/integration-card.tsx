import { Alert, Badge, Box, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlugConnected, IconRefresh } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import {
  INTEGRATION_MESSAGES,
  INTEGRATION_PROVIDER_LABELS,
  INTEGRATION_STATE_LABELS,
  type Integration,
  type IntegrationState,
  integrationNotAvailable,
} from '@tay/contract';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { useConnect, useDisconnect, useSyncNow } from '../api/integrations-api';
import { runCounts } from '../integration-words';
import { goToProvider } from '../leave-for-provider';
import { useBusinessTime } from '../../../lib/business-time';

const STATE_COLORS: Record<IntegrationState, string> = { not_connected: 'gray', connected: 'teal', needs_reconnect: 'red' };

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      {/* A long company name or e-mail address wraps instead of widening a phone's page. */}
      <Text component="dd" size="sm" m={0} style={wrapAnywhere}>
        {children}
      </Text>
    </div>
  );
}

/** The connected company and how syncing has gone: shown while there is (or was, before the provider refused us) a connection. */
function ConnectionDetails({ integration }: { integration: Integration }) {
  const clock = useBusinessTime();
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))', gap: 'var(--mantine-spacing-sm)' }}>
      <Detail label="Company">{integration.companyName ?? '—'}</Detail>
      <Detail label="Connected since">
        {integration.connectedAt ? clock.date(integration.connectedAt) : '—'}
        {integration.connectedBy ? ` by ${integration.connectedBy}` : ''}
      </Detail>
      <Detail label="Last sync">
        {integration.lastSyncAt ? (
          <>
            {clock.dateTime(integration.lastSyncAt)}
            {integration.lastSyncPushed !== null && (
              <Text span display="block" size="xs" c="dimmed">
                {runCounts(integration)}
              </Text>
            )}
          </>
        ) : (
          'Not yet'
        )}
      </Detail>
      <Detail label="Records synced">{integration.recordsSynced.toLocaleString('en-US')}</Detail>
      <Detail label="Errors">
        <Text span size="sm" c={integration.errors > 0 ? 'red.8' : undefined} fw={integration.errors > 0 ? 600 : undefined}>
          {integration.errors.toLocaleString('en-US')}
        </Text>
      </Detail>
    </Box>
  );
}

/** While a run is queued or running; the list is read every 2 s meanwhile, so this goes when it ends. */
function SyncProgress({ integration }: { integration: Integration }) {
  if (integration.syncState === 'idle') return null;
  return (
    <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
      <Loader size="xs" aria-hidden="true" />
      <Text size="sm">{integration.syncState === 'queued' ? INTEGRATION_MESSAGES.syncQueued : 'Syncing: pushing payers, invoices, payments and refunds…'}</Text>
    </Group>
  );
}

export interface IntegrationCardProps {
  integration: Integration;
  /** Only an owner connects, syncs or disconnects (the API's `business:owner`). */
  canManage: boolean;
  /** Words the callback sent back about a connection that did not happen, shown until dismissed. */
  returnError: string | null;
  onDismissReturnError: () => void;
}

/**
 * One provider: its state, the connected company, how syncing has gone, and — for an owner —
 * Connect or Reconnect, Sync now and Disconnect.
 */
export function IntegrationCard({ integration, canManage, returnError, onDismissReturnError }: IntegrationCardProps) {
  const { provider, state } = integration;
  const labels = INTEGRATION_PROVIDER_LABELS[provider];
  const titleId = `integration-${provider}-title`;
  const connect = useConnect();
  const sync = useSyncNow();
  const disconnect = useDisconnect();
  // Set once the consent page's address is known: the browser is on its way there.
  const [leaving, setLeaving] = useState(false);
  const syncing = integration.syncState !== 'idle';

  const startConnect = () =>
    connect.mutate(provider, {
      onSuccess: ({ url }) => {
        setLeaving(true);
        goToProvider(url);
      },
      onError: (failure) => notifications.show({ color: 'red', title: `${labels.name} not connected`, message: failure.message }),
    });

  const startSync = () =>
    sync.mutate(provider, {
      onError: (failure) => notifications.show({ color: 'red', title: `${labels.name} sync not started`, message: failure.message }),
    });

  const confirmDisconnect = () =>
    modals.openConfirmModal({
      title: `Disconnect ${labels.name}?`,
      children: (
        <Text size="sm">
          Tay stops syncing with {labels.name} and gives up its access there. The sync log and the links to the records already in {labels.name} are kept:
          connecting the same company again updates those records instead of duplicating them.
        </Text>
      ),
      labels: { confirm: 'Disconnect', cancel: 'Keep connected' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        disconnect.mutate(provider, {
          onSuccess: () =>
            notifications.show({ color: 'teal', title: `${labels.name} disconnected`, message: 'Its sync log and the links to its records are kept.' }),
          onError: (failure) => notifications.show({ color: 'red', title: `${labels.name} not disconnected`, message: failure.message }),
        }),
    });

  const connectButton = (label: 'Connect' | 'Reconnect') => (
    <Button leftSection={<IconPlugConnected size={16} />} loading={connect.isPending || leaving} onClick={startConnect}>
      {label}
    </Button>
  );

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} size="h3" id={titleId}>
            {labels.name}
          </Title>
          <Badge color={STATE_COLORS[state]} variant="light">
            {INTEGRATION_STATE_LABELS[state]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {labels.description}
        </Text>

        {returnError !== null && (
          <Alert
            color="red"
            icon={<IconAlertTriangle size={18} />}
            title={`${labels.name} was not connected`}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={onDismissReturnError}
            role="alert"
          >
            {returnError}
          </Alert>
        )}
        {!integration.available && (
          <Alert color="gray" icon={<IconAlertTriangle size={18} />} title={`${labels.name} is not available`}>
            {integrationNotAvailable(provider)}
          </Alert>
        )}
        {state === 'needs_reconnect' && (
          <Alert color="red" variant="outline" icon={<IconAlertTriangle size={18} />} title={`${labels.name} needs reconnecting`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{integration.problem ?? INTEGRATION_MESSAGES.tokenRefused}</Text>
              {canManage ? connectButton('Reconnect') : <Text size="sm">Only an owner of this business can reconnect it.</Text>}
            </Stack>
          </Alert>
        )}
        {state === 'connected' && integration.problem && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="The last sync stopped">
            {integration.problem}
          </Alert>
        )}

        {state !== 'not_connected' && <ConnectionDetails integration={integration} />}
        <SyncProgress integration={integration} />

        {canManage && (
          <Group gap="sm">
            {state === 'not_connected' && integration.available && connectButton('Connect')}
            {state === 'connected' && (
              <Button variant="light" leftSection={<IconRefresh size={16} />} loading={sync.isPending || syncing} onClick={startSync}>
                Sync now
              </Button>
            )}
            {state !== 'not_connected' && (
              <Button variant="default" color="red" loading={disconnect.isPending} onClick={confirmDisconnect}>
                Disconnect
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
