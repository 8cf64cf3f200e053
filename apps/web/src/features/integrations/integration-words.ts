import { INTEGRATION_MESSAGES, INTEGRATION_PROVIDER_LABELS, type Integration } from '@tay/contract';

/** "QuickBooks Online", "FreshBooks". */
export const providerName = (integration: Pick<Integration, 'provider'>) => INTEGRATION_PROVIDER_LABELS[integration.provider].name;

/** "3 pushed, 1 failed": what the last finished run did. */
export function runCounts(integration: Pick<Integration, 'lastSyncPushed' | 'lastSyncFailed'>): string {
  return `${(integration.lastSyncPushed ?? 0).toLocaleString('en-US')} pushed, ${(integration.lastSyncFailed ?? 0).toLocaleString('en-US')} failed`;
}

/** A type alias, not an interface: only an alias is assignable to Mantine's notification data (its `data-*` index). */
export type Toast = {
  color: 'teal' | 'orange' | 'red';
  title: string;
  message: string;
};

/** What the person is told when a run they watched has finished: how it went, in the provider's name. */
export function runOutcome(integration: Integration): Toast {
  const name = providerName(integration);
  if (integration.state === 'needs_reconnect') {
    return { color: 'red', title: `${name} sync stopped`, message: integration.problem ?? INTEGRATION_MESSAGES.tokenRefused };
  }
  if (integration.problem) return { color: 'red', title: `${name} sync stopped`, message: integration.problem };
  if ((integration.lastSyncFailed ?? 0) > 0) {
    return {
      color: 'orange',
      title: `${name} sync finished with errors`,
      message: `${runCounts(integration)}. The sync log shows ${name}’s own message for each failure.`,
    };
  }
  return { color: 'teal', title: `${name} sync finished`, message: `${runCounts(integration)}.` };
}
