import type { IntegrationProvider } from '@tay/contract';
import { createFreshBooksProvider } from './freshbooks/client';
import type { AccountingProvider, ProviderSettings } from './port';
import { createQuickBooksProvider } from './quickbooks/client';

/** Each provider's client, speaking to the real provider or to its stand-in as configured (`config.accounting`). */
export function accountingProviders(settings: Record<IntegrationProvider, ProviderSettings>): Record<IntegrationProvider, AccountingProvider> {
  return { quickbooks: createQuickBooksProvider(settings.quickbooks), freshbooks: createFreshBooksProvider(settings.freshbooks) };
}
