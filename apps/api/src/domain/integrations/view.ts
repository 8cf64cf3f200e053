import type { Kysely, Selectable } from 'kysely';
import { INTEGRATION_PROVIDERS, type Integration, type IntegrationProvider } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { IntegrationsTable } from '../../db/schema/integrations';
import type { IntegrationDeps } from './deps';

export type IntegrationRow = Selectable<IntegrationsTable>;

const NOT_CONNECTED = (provider: IntegrationProvider, available: boolean): Integration => ({
  provider,
  available,
  state: 'not_connected',
  companyName: null,
  accountId: null,
  connectedAt: null,
  connectedBy: null,
  syncState: 'idle',
  lastSyncAt: null,
  lastSyncPushed: null,
  lastSyncFailed: null,
  recordsSynced: 0,
  errors: 0,
  problem: null,
});

/** The links of the connected company: how many records it holds of ours, and how many failed last. */
async function linkCounts(db: Kysely<DB>, row: IntegrationRow): Promise<{ synced: number; errors: number }> {
  if (!row.account_id) return { synced: 0, errors: 0 };
  const counts = await db
    .selectFrom('integration_links')
    .where('business_id', '=', row.business_id)
    .where('provider', '=', row.provider)
    .where('account_id', '=', row.account_id)
    .select((eb) => [eb.fn.count<string>('remote_id').as('synced'), eb.fn.count<string>('failure').as('errors')])
    .executeTakeFirstOrThrow();
  return { synced: Number(counts.synced), errors: Number(counts.errors) };
}

export async function toIntegration(db: Kysely<DB>, row: IntegrationRow | undefined, provider: IntegrationProvider, available: boolean): Promise<Integration> {
  if (!row || row.state === 'not_connected') return NOT_CONNECTED(provider, available);
  const { synced, errors } = await linkCounts(db, row);
  return {
    provider,
    available,
    state: row.state,
    companyName: row.company_name,
    accountId: row.account_id,
    connectedAt: row.connected_at?.toISOString() ?? null,
    connectedBy: row.connected_by,
    syncState: row.sync_state,
    lastSyncAt: row.last_sync_at?.toISOString() ?? null,
    lastSyncPushed: row.last_sync_pushed,
    lastSyncFailed: row.last_sync_failed,
    recordsSynced: synced,
    errors,
    problem: row.problem,
  };
}

export async function integrationRow(db: Kysely<DB>, businessId: string, provider: IntegrationProvider): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('business_id', '=', businessId).where('provider', '=', provider).executeTakeFirst();
}

/** Whether each provider is offered here: its client exists (configured, or a stand-in outside production). */
export type Offered = Pick<IntegrationDeps, 'db' | 'providers'>;

export async function getIntegration(deps: Offered, businessId: string, provider: IntegrationProvider): Promise<Integration> {
  return toIntegration(deps.db, await integrationRow(deps.db, businessId, provider), provider, deps.providers[provider] !== null);
}

/** Both providers, connected or not, in a fixed order. */
export async function listIntegrations(deps: Offered, businessId: string): Promise<Integration[]> {
  const rows = await deps.db.selectFrom('integrations').selectAll().where('business_id', '=', businessId).execute();
  return Promise.all(
    INTEGRATION_PROVIDERS.map((p) =>
      toIntegration(
        deps.db,
        rows.find((r) => r.provider === p),
        p,
        deps.providers[p] !== null,
      ),
    ),
  );
}
