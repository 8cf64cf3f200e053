import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import type { Integration, IntegrationProvider, IntegrationSyncState } from '@tay/contract';
import { useRefreshLogs } from '../api/integrations-api';
import { runOutcome } from '../integration-words';

/**
 * Tells the person how a sync went once it is over: a run this page saw queued or running that
 * is now idle gets a toast with its outcome, and the logs are read again for its new entries.
 */
export function useSyncFinished(integrations: Integration[] | undefined): void {
  const seen = useRef(new Map<IntegrationProvider, IntegrationSyncState>());
  const refreshLogs = useRefreshLogs();
  useEffect(() => {
    if (!integrations) return;
    let finished = false;
    for (const integration of integrations) {
      const before = seen.current.get(integration.provider);
      seen.current.set(integration.provider, integration.syncState);
      if (before && before !== 'idle' && integration.syncState === 'idle') {
        finished = true;
        notifications.show(runOutcome(integration));
      }
    }
    if (finished) void refreshLogs();
  }, [integrations, refreshLogs]);
}
