import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode, integrationNotAvailable, paths, type IntegrationCallbackError, type IntegrationProvider } from '@tay/contract';
import type { AccountingProvider } from '../../accounting/port';
import type { DB } from '../../db/schema';
import type { Jobs } from '../../jobs/queue';
import { AppError } from '../../lib/app-error';
import { createSecretBox, type SecretBox } from '../../lib/secret-box';

/** What the integrations' use cases need (ADR 041). */
export interface IntegrationDeps {
  db: Kysely<DB>;
  /** Null: the provider is not offered on this server (production without its credentials). */
  providers: Record<IntegrationProvider, AccountingProvider | null>;
  /** Seals the tokens and the PKCE verifier: {@link integrationTokenBox}. */
  box: SecretBox;
  publicUrl: string;
  jobs: Pick<Jobs, 'send'>;
}

/** The provider's client, or 503 saying it is not offered here. */
export function providerOf(deps: Pick<IntegrationDeps, 'providers'>, provider: IntegrationProvider): AccountingProvider {
  const client = deps.providers[provider];
  if (!client) throw new AppError(ErrorCode.Unavailable, notOffered(provider));
  return client;
}

export const notOffered = integrationNotAvailable;

/** The tokens' box: its own key (HKDF of AUTH_SECRET, and the secrets it replaced, ADR 018). */
export function integrationTokenBox(secrets: readonly string[]): SecretBox {
  return createSecretBox(secrets, 'integration-tokens');
}

/** Associated data: a token sealed for one business and provider does not open for another. */
export const tokenContext = (businessId: string, provider: IntegrationProvider, kind: 'access' | 'refresh') => `${businessId}:${provider}:${kind}`;

/** Where the provider sends the browser back (registered with the provider as the redirect URI). */
export function callbackUrl(publicUrl: string, provider: IntegrationProvider): string {
  return `${publicUrl}/api/integrations/${provider}/callback`;
}

/** The integrations page, with what the callback has to say. */
export function integrationsPage(provider: IntegrationProvider, outcome: { connected: true } | { error: IntegrationCallbackError }): string {
  const query = new URLSearchParams({ provider, ...('error' in outcome ? { error: outcome.error } : { connected: '1' }) });
  return `${paths.business.setupIntegrations}?${query.toString()}`;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** One run per integration at a time: the job's singleton key. */
export const syncKey = (businessId: string, provider: IntegrationProvider) => `integration:${businessId}:${provider}`;
