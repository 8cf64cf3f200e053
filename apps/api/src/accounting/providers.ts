import type { IntegrationProvider } from '@tay/contract';
import { createFreshBooksProvider } from './freshbooks/client';
import type { AccountingProvider, ProviderSettings } from './port';
import { createQuickBooksProvider } from './quickbooks/client';

/** Each configured provider's client, speaking to the real provider or to its stand-in (`config.accounting`); null where none is. */
export function accountingProviders(settings: Record<IntegrationProvider, ProviderSettings | null>): Record<IntegrationProvider, AccountingProvider | null> {
  return {
    quickbooks: settings.quickbooks ? createQuickBooksProvider(settings.quickbooks) : null,
    freshbooks: settings.freshbooks ? createFreshBooksProvider(settings.freshbooks) : null,
  };
}
