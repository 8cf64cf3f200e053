import { INTEGRATION_MESSAGES } from '@tay/contract';
import { ProviderAuthError, type ProviderSession } from '../../accounting/port';
import { providerOf, tokenContext, type IntegrationDeps } from './deps';
import { writeLog } from './log';
import type { IntegrationRow } from './view';

/** An access token this close to its end is refreshed before use. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/** The integration needs reconnecting: the provider refused the tokens. Already recorded when thrown. */
export class NeedsReconnect extends Error {
  override readonly name = 'NeedsReconnect';
}

/**
 * A usable session for a connected integration: its access token, refreshed first when it ends
 * within five minutes (the refresh token rotates; both are sealed again). A refused refresh turns
 * the integration to "needs reconnecting", says why, and throws {@link NeedsReconnect}.
 */
export async function freshSession(deps: IntegrationDeps, row: IntegrationRow, signal: AbortSignal): Promise<ProviderSession> {
  const { business_id: businessId, provider } = row;
  if (row.state !== 'connected' || !row.account_id || !row.access_token_sealed || !row.refresh_token_sealed)
    throw new NeedsReconnect(INTEGRATION_MESSAGES.notConnected);
  const accountId = row.account_id;
  if (row.access_expires_at && row.access_expires_at.getTime() - Date.now() > REFRESH_MARGIN_MS) {
    return { accessToken: deps.box.open(row.access_token_sealed, tokenContext(businessId, provider, 'access')), accountId, signal };
  }
  try {
    const tokens = await providerOf(deps, provider).refresh({
      refreshToken: deps.box.open(row.refresh_token_sealed, tokenContext(businessId, provider, 'refresh')),
      signal,
    });
    await deps.db
      .updateTable('integrations')
      .set({
        access_token_sealed: deps.box.seal(tokens.accessToken, tokenContext(businessId, provider, 'access')),
        refresh_token_sealed: deps.box.seal(tokens.refreshToken, tokenContext(businessId, provider, 'refresh')),
        access_expires_at: tokens.accessExpiresAt,
        refresh_expires_at: tokens.refreshExpiresAt,
        updated_at: new Date(),
      })
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      // Still the tokens this run refreshed: a reconnect meanwhile brought new ones, which stay.
      .where('refresh_token_sealed', '=', row.refresh_token_sealed)
      .execute();
    await writeLog(deps.db, businessId, provider, {
      direction: 'connection',
      recordLabel: 'Access token',
      outcome: 'info',
      message: 'Refreshed before it expired.',
    });
    return { accessToken: tokens.accessToken, accountId, signal };
  } catch (error) {
    if (error instanceof ProviderAuthError) {
      await markNeedsReconnect(deps, row, error.message);
      throw new NeedsReconnect(INTEGRATION_MESSAGES.tokenRefused);
    }
    throw error;
  }
}

/** The provider refused our tokens: keep everything (links, log), forget nothing but the right to call. */
export async function markNeedsReconnect(deps: IntegrationDeps, row: IntegrationRow, providerMessage: string): Promise<void> {
  await deps.db
    .updateTable('integrations')
    .set({ state: 'needs_reconnect', sync_state: 'idle', sync_lease_until: null, problem: INTEGRATION_MESSAGES.tokenRefused, updated_at: new Date() })
    .where('business_id', '=', row.business_id)
    .where('provider', '=', row.provider)
    .where('state', '=', 'connected')
    // The connection this run used: a reconnect meanwhile is a new one, with tokens that work.
    .where('connected_at', '=', row.connected_at)
    .execute();
  await writeLog(deps.db, row.business_id, row.provider, {
    direction: 'connection',
    recordLabel: 'Access token',
    outcome: 'failed',
    message: `${INTEGRATION_MESSAGES.tokenRefused} (${providerMessage})`,
  });
}
