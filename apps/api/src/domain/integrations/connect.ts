import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import {
  INTEGRATION_MESSAGES,
  INTEGRATION_PROVIDER_LABELS,
  integrationCallbackMessage,
  integrationCompanyInUse,
  OAUTH_STATE_TTL_SECONDS,
  OAUTH_WAIT_MS,
  type IntegrationCallbackError,
  type IntegrationProvider,
} from '@tay/contract';
import { ProviderUnavailable, type Connection } from '../../accounting/port';
import { jobDb } from '../../db/executor';
import { recordEvent } from '../businesses/audit';
import { callbackUrl, integrationsPage, providerOf, sha256, syncKey, tokenContext, type IntegrationDeps } from './deps';
import { writeLog } from './log';

/**
 * Connect (ADR 041): a one-use `state` (only its hash is kept) and a PKCE verifier (sealed), both
 * bound to the business, the provider and the owner who asked, for OAUTH_STATE_TTL_SECONDS. The
 * answer is the provider's consent page; the browser comes back to {@link takeConnectState}.
 */
export async function startConnect(
  deps: IntegrationDeps,
  input: { businessId: string; provider: IntegrationProvider; userId: string },
): Promise<{ url: string; browserKey: string }> {
  const state = randomBytes(32).toString('base64url');
  // Given to this browser as a cookie: the callback must come back in the same browser.
  const browserKey = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const stateHash = sha256(state);
  const now = Date.now();
  await deps.db.deleteFrom('integration_oauth_states').where('expires_at', '<', new Date(now)).execute();
  await deps.db
    .insertInto('integration_oauth_states')
    .values({
      state_hash: stateHash,
      business_id: input.businessId,
      provider: input.provider,
      user_id: input.userId,
      code_verifier_sealed: deps.box.seal(verifier, `oauth:${stateHash}`),
      browser_hash: sha256(browserKey),
      expires_at: new Date(now + OAUTH_STATE_TTL_SECONDS * 1000),
    })
    .execute();
  const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
  const url = providerOf(deps, input.provider).authorizationUrl({ state, codeChallenge, redirectUri: callbackUrl(deps.publicUrl, input.provider) });
  return { url, browserKey };
}

export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  realmId?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

/** A Connect the provider's redirect came back for: its business and the person who pressed Connect. */
export interface PendingConnect {
  businessId: string;
  userId: string;
  stateHash: string;
  codeVerifierSealed: string;
}

/**
 * The provider's redirect back, first step. The browser carries no bearer token here: the state
 * alone says which business and person this is, so it must match one made by {@link startConnect},
 * unused, unexpired and back in the browser that asked (its one-use cookie; else "Invalid state in
 * OAuth flow"). Uses the state up; answers the Connect it was for, or where to send the browser.
 * Whether that person may still connect is the endpoint table's (the route asks the mount).
 */
export async function takeConnectState(
  deps: IntegrationDeps,
  provider: IntegrationProvider,
  query: CallbackQuery,
  browserKey: string | undefined,
): Promise<{ pending: PendingConnect } | { location: string }> {
  if (!query.state) return { location: integrationsPage(provider, { error: 'invalid_state' }) };
  const stateHash = sha256(query.state);
  // Deleting it is what uses it: a second arrival of the same state finds nothing.
  const pending = await deps.db.deleteFrom('integration_oauth_states').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
  // The same browser that pressed Connect: a consent link forwarded to someone else connects nothing (login CSRF).
  const sameBrowser =
    pending?.browser_hash != null && browserKey !== undefined && timingSafeEqual(Buffer.from(sha256(browserKey)), Buffer.from(pending.browser_hash));
  if (!pending || pending.provider !== provider || pending.expires_at.getTime() < Date.now() || !sameBrowser) {
    return { location: integrationsPage(provider, { error: 'invalid_state' }) };
  }
  return { pending: { businessId: pending.business_id, userId: pending.user_id, stateHash, codeVerifierSealed: pending.code_verifier_sealed } };
}

/** Where the browser goes when the person who pressed Connect may no longer connect (an owner demoted meanwhile). */
export const connectRefused = (provider: IntegrationProvider): string => integrationsPage(provider, { error: 'invalid_state' });

/**
 * The provider's redirect back, second step, for a person the mount admitted: the code is swapped
 * for tokens within the 10-second OAuth wait; the tokens are sealed and the first sync queued.
 * Answers where to send the browser: the integrations page, saying what happened.
 */
export async function completeConnect(
  deps: IntegrationDeps,
  provider: IntegrationProvider,
  query: CallbackQuery,
  pending: PendingConnect,
  member: { name: string; email: string },
): Promise<string> {
  const { db } = deps;
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;
  const { stateHash } = pending;
  const log = (outcome: 'info' | 'failed', message: string) =>
    writeLog(db, pending.businessId, provider, { direction: 'connection', recordLabel: `Connect to ${name}`, outcome, message });

  if (query.error) {
    const denied = query.error === 'access_denied';
    await log('failed', denied ? INTEGRATION_MESSAGES.denied : `${name} refused the connection: ${query.error_description ?? query.error}`);
    return integrationsPage(provider, { error: denied ? 'denied' : 'refused' });
  }
  if (!query.code) return integrationsPage(provider, { error: 'code_rejected' });
  if (!deps.providers[provider]) return integrationsPage(provider, { error: 'not_available' });

  let connection: Connection;
  try {
    connection = await providerOf(deps, provider).exchangeCode({
      code: query.code,
      codeVerifier: deps.box.open(pending.codeVerifierSealed, `oauth:${stateHash}`),
      redirectUri: callbackUrl(deps.publicUrl, provider),
      realmId: query.realmId,
      signal: AbortSignal.timeout(OAUTH_WAIT_MS),
    });
  } catch (error) {
    const code: IntegrationCallbackError =
      error instanceof ProviderUnavailable ? (/abort|timeout|timed out/i.test(error.message) ? 'timed_out' : 'unreachable') : 'code_rejected';
    const detail = error instanceof Error ? ` (${error.message})` : '';
    await log('failed', `${integrationCallbackMessage(code, provider)}${detail}`);
    return integrationsPage(provider, { error: code });
  }

  const { businessId } = pending;
  const sealed = {
    access_token_sealed: deps.box.seal(connection.accessToken, tokenContext(businessId, provider, 'access')),
    refresh_token_sealed: deps.box.seal(connection.refreshToken, tokenContext(businessId, provider, 'refresh')),
    access_expires_at: connection.accessExpiresAt,
    refresh_expires_at: connection.refreshExpiresAt,
  };
  const connected = {
    ...sealed,
    state: 'connected' as const,
    account_id: connection.accountId,
    company_name: connection.companyName,
    connected_at: new Date(),
    connected_by: member.name || member.email,
    last_sync_at: null,
    last_sync_pushed: null,
    last_sync_failed: null,
    problem: null,
    updated_at: new Date(),
  };
  const heldBy = await db.transaction().execute(async (trx) => {
    // One provider company, one Tay business (issue 35). QuickBooks takes no PKCE, so nothing ties a
    // code to the Connect that asked for it: a code for a company another business holds (one stolen
    // from that business's own Connect and brought back with this browser's state) connects nothing
    // here. Checked under a lock on the company, so two callbacks cannot both take it.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`integrations.company:${provider}:${connection.accountId}`}, 0))`.execute(trx);
    const holder = await trx
      .selectFrom('integrations')
      .select('business_id')
      .where('provider', '=', provider)
      .where('account_id', '=', connection.accountId)
      .where('business_id', '!=', businessId)
      // Connected, or needing reconnecting: the company is that business's until it disconnects it.
      .where('state', '!=', 'not_connected')
      .executeTakeFirst();
    if (holder) return holder.business_id;
    await trx
      .insertInto('integrations')
      .values({ business_id: businessId, provider, ...connected, sync_state: 'queued' })
      .onConflict((oc) =>
        oc.columns(['business_id', 'provider']).doUpdateSet({
          ...connected,
          // A run still going (a reconnect during a sync) keeps its lease; the first sync waits for it.
          sync_state: sql<
            'queued' | 'running'
          >`CASE WHEN integrations.sync_state = 'running' AND integrations.sync_lease_until > now() THEN 'running' ELSE 'queued' END`,
        }),
      )
      .execute();
    await deps.jobs.send('integrations.sync', { businessId, provider, manual: true }, { db: jobDb(trx), singletonKey: syncKey(businessId, provider) });
    await recordEvent(trx, {
      businessId,
      actor: { userId: pending.userId, label: member.email },
      action: 'integration.connected',
      details: { provider, companyName: connection.companyName, accountId: connection.accountId },
    });
    return null;
  });
  if (heldBy !== null) {
    // The tokens just issued are dropped unused, not revoked: a revocation may end the other business's own connection to the company.
    const company = `${INTEGRATION_PROVIDER_LABELS[provider].company} ${connection.accountId}`;
    await log('failed', `${integrationCompanyInUse(provider)} (${name} ${company})`);
    await writeLog(db, heldBy, provider, {
      direction: 'connection',
      recordLabel: `Connect to ${name}`,
      outcome: 'info',
      message: `Another Tay business tried to connect this ${name} ${company}; it was refused, and this connection is unchanged.`,
    });
    return integrationsPage(provider, { error: 'company_in_use' });
  }
  await log(
    'info',
    `Connected to ${connection.companyName} (${provider === 'quickbooks' ? 'company' : 'account'} ${connection.accountId}) by ${connected.connected_by}.`,
  );
  return integrationsPage(provider, { connected: true });
}
