import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { integrationEndpoints as e, type Integration, type IntegrationProvider, type SyncOutcome, type SyncRecordType } from '@tay/contract';
import { areaKey, callForData, downloadEndpoint, endpointKey, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's integrations: the two cards and their sync logs. */
export const integrationsKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

/** How often the cards are read again while a sync is queued or running (the issue asks for 2 s). */
export const SYNC_POLL_MS = 2000;

const syncing = (integration: Integration) => integration.syncState !== 'idle';

/** QuickBooks Online and FreshBooks, read again every 2 s while either one's sync is queued or running. */
export function useIntegrations() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId),
    refetchInterval: (q) => (q.state.data?.some(syncing) ? SYNC_POLL_MS : false),
  });
}

export interface SyncLogFilters {
  recordType?: SyncRecordType | undefined;
  outcome?: SyncOutcome | undefined;
}

export function useSyncLog(provider: IntegrationProvider, query: SyncLogFilters & { page: number; pageSize: number }) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.log, { params: { id: businessId ?? '', provider }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/** The log's CSV: every entry matching the same filters, not one page. */
export function downloadSyncLogCsv(businessId: string, provider: IntegrationProvider, filters: SyncLogFilters) {
  return downloadEndpoint(e.logCsv, { params: { id: businessId, provider }, query: filters }, `${provider}-sync-log.csv`);
}

/** A change to an integration: its card and its log are read again. */
function useIntegrationMutation<R>(run: (businessId: string, provider: IntegrationProvider) => Promise<R>) {
  return useBusinessMutation(run, (businessId) => [integrationsKey(businessId)], { afterSuccessOnly: true });
}

/** Answers the provider's consent page, where the browser goes next. */
export const useConnect = () => useIntegrationMutation((id, provider) => callForData(e.connect, { params: { id, provider } }));

export const useDisconnect = () => useIntegrationMutation((id, provider) => callForData(e.disconnect, { params: { id, provider } }));

/**
 * Sync now. The answer (the card, queued) goes into the cache at once, so the card shows its
 * progress and the list starts polling without waiting for the read that follows.
 */
export function useSyncNow() {
  const businessId = useBusinessId();
  const queryClient = useQueryClient();
  return useIntegrationMutation(async (id, provider) => {
    const card = await callForData(e.sync, { params: { id, provider } });
    queryClient.setQueryData<Integration[]>(endpointKey(e.list, { params: { id: businessId ?? id } }), (cards) =>
      cards?.map((c) => (c.provider === card.provider ? card : c)),
    );
    return card;
  });
}

/** Retry (a failed row of the sync log): that one record is pushed now; the answer is the log entry written. */
export const useRetryItem = () =>
  useBusinessMutation(
    (id, item: { provider: IntegrationProvider; recordType: SyncRecordType; recordId: string }) =>
      callForData(e.retryItem, { params: { id, provider: item.provider, recordType: item.recordType, recordId: item.recordId } }),
    (businessId) => [integrationsKey(businessId)],
  );

/** Link to an existing record: the payer is linked to the provider's customer of that id, which the next sync updates. */
export const useLinkPayer = () =>
  useBusinessMutation(
    (id, link: { provider: IntegrationProvider; payerId: string; remoteId: string }) =>
      callForData(e.linkPayer, { params: { id, provider: link.provider, payerId: link.payerId }, body: { remoteId: link.remoteId } }),
    (businessId) => [integrationsKey(businessId)],
    { afterSuccessOnly: true },
  );

/** Once a run has finished: its log has new entries. */
export function useRefreshLogs() {
  const businessId = useBusinessId();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [...integrationsKey(businessId), e.log.path] }), [queryClient, businessId]);
}
