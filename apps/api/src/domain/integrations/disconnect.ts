import { INTEGRATION_PROVIDER_LABELS, type Integration, type IntegrationProvider } from '@tay/contract';
import { recordEvent, type Actor } from '../businesses/audit';
import { providerOf, tokenContext, type IntegrationDeps } from './deps';
import { writeLog } from './log';
import { getIntegration, integrationRow } from './view';

/** How long a revocation may take before we forget the tokens anyway. */
const REVOKE_WAIT_MS = 10_000;

/**
 * Disconnect: asks the provider to revoke the refresh token (which ends the access token too),
 * then forgets both. The links and the log stay, so connecting the same company again updates
 * its records instead of duplicating them. A provider that cannot be reached is noted in the log;
 * the tokens are forgotten all the same (they expire on their own).
 */
export async function disconnect(
  deps: IntegrationDeps,
  input: { businessId: string; provider: IntegrationProvider; actor: string; audit: Actor },
): Promise<Integration> {
  const { db } = deps;
  const { businessId, provider } = input;
  const row = await integrationRow(db, businessId, provider);
  if (!row || row.state === 'not_connected') return getIntegration(deps, businessId, provider);
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;
  let note = `Disconnected by ${input.actor}; the tokens were revoked at ${name} and forgotten.`;
  if (row.refresh_token_sealed && deps.providers[provider]) {
    try {
      await providerOf(deps, provider).revoke({
        token: deps.box.open(row.refresh_token_sealed, tokenContext(businessId, provider, 'refresh')),
        signal: AbortSignal.timeout(REVOKE_WAIT_MS),
      });
    } catch (error) {
      note = `Disconnected by ${input.actor}; ${name} did not confirm the revocation (${error instanceof Error ? error.message : 'no answer'}), the tokens were forgotten all the same.`;
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('integrations')
      .set({
        state: 'not_connected',
        account_id: null,
        company_name: null,
        connected_at: null,
        connected_by: null,
        access_token_sealed: null,
        refresh_token_sealed: null,
        access_expires_at: null,
        refresh_expires_at: null,
        sync_state: 'idle',
        sync_lease_until: null,
        problem: null,
        updated_at: new Date(),
      })
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      .execute();
    await recordEvent(trx, { businessId, actor: input.audit, action: 'integration.disconnected', details: { provider, companyName: row.company_name } });
  });
  await writeLog(db, businessId, provider, { direction: 'connection', recordLabel: `Disconnect from ${name}`, outcome: 'info', message: note });
  return getIntegration(deps, businessId, provider);
}
