import { sql } from 'kysely';
import {
  ErrorCode,
  INTEGRATION_MESSAGES,
  INTEGRATION_PROVIDER_LABELS,
  SYNC_RECORD_TYPE_LABELS,
  type IntegrationProvider,
  type SyncLogEntry,
  type SyncRecordType,
} from '@tay/contract';
import { ProviderAuthError, ProviderRateLimited, ProviderUnavailable, type ProviderSession } from '../../accounting/port';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { providerOf, syncKey, type IntegrationDeps } from './deps';
import { latestEntryFor, writeLog } from './log';
import { freshSession, markNeedsReconnect, NeedsReconnect } from './session';
import { LEASE_MS, pushOne } from './sync';
import { integrationRow, type IntegrationRow } from './view';

/**
 * The sync log's row actions (issue 35): Retry one record now, and link a payer to a customer
 * already at the provider. Each holds the integration's lease, as a run does, so neither pushes
 * beside a run (which could create the same record twice).
 */

/** How long one record's push (or one look-up) may take before the owner is told to try again. */
const ITEM_WAIT_MS = 30_000;

const providerName = (provider: IntegrationProvider) => INTEGRATION_PROVIDER_LABELS[provider].name;

interface Held {
  row: IntegrationRow;
  session: ProviderSession;
}

/**
 * Takes the lease (refused while a run holds it), makes sure of a fresh token, runs `work`, and gives
 * the lease back with the card as it was (a run queued before or during it still queued). The
 * provider's refusals become the API's: a refused token turns the integration to "needs
 * reconnecting" (409), a 429 is 429 with its Retry-After, an unreachable provider 503.
 */
async function withLease<T>(deps: IntegrationDeps, businessId: string, provider: IntegrationProvider, work: (held: Held) => Promise<T>): Promise<T> {
  const name = providerName(provider);
  providerOf(deps, provider);
  const before = await integrationRow(deps.db, businessId, provider);
  if (!before || before.state !== 'connected') throw new AppError(ErrorCode.Conflict, `${INTEGRATION_MESSAGES.notConnected} ${name} is not connected.`);
  const now = new Date();
  const runId = newId('run');
  const row = await deps.db
    .updateTable('integrations')
    .set({ sync_state: 'running', sync_lease_until: new Date(now.getTime() + LEASE_MS), sync_run: runId, updated_at: now })
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('state', '=', 'connected')
    .where((eb) => eb.or([eb('sync_state', '!=', 'running'), eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.Conflict, `A sync with ${name} is running now: try again when it has finished.`);
  const after = before.sync_state === 'queued' ? 'queued' : 'idle';
  try {
    const session = await freshSession(deps, row, AbortSignal.timeout(ITEM_WAIT_MS));
    return await work({ row, session });
  } catch (error) {
    if (error instanceof NeedsReconnect) throw new AppError(ErrorCode.Conflict, error.message);
    if (error instanceof ProviderAuthError) {
      await markNeedsReconnect(deps, row, error.message);
      throw new AppError(ErrorCode.Conflict, INTEGRATION_MESSAGES.tokenRefused);
    }
    if (error instanceof ProviderRateLimited) {
      throw new AppError(ErrorCode.RateLimited, `${name} asked us to slow down (429): try again in ${error.retryAfterSeconds} s.`).withHeader(
        'retry-after',
        String(error.retryAfterSeconds),
      );
    }
    if (error instanceof ProviderUnavailable)
      throw new AppError(ErrorCode.Unavailable, `${name} could not be reached (${error.message}): try again in a few minutes.`);
    throw error;
  } finally {
    await deps.db
      .updateTable('integrations')
      .set({
        // Turned to "needs reconnecting" meanwhile: no run will come, so nothing is queued.
        sync_state: sql<'idle' | 'queued'>`CASE WHEN state = 'connected' THEN ${after} ELSE 'idle' END`,
        sync_lease_until: null,
        sync_run: null,
        updated_at: new Date(),
      })
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      .where('sync_run', '=', runId)
      .execute();
  }
}

/** Where each type of record lives. */
const TABLES = { customer: 'payers', invoice: 'invoices', payment: 'payments', refund: 'refunds' } as const satisfies Record<SyncRecordType, string>;

/** The record exists in this business (a payer, an invoice, a payment, a refund), or 404. */
async function mustExist(deps: IntegrationDeps, businessId: string, type: SyncRecordType, id: string): Promise<void> {
  const table = TABLES[type];
  const found = await deps.db.selectFrom(table).select('id').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  if (!found) throw AppError.notFound(SYNC_RECORD_TYPE_LABELS[type]);
}

/**
 * Retry (a failed row of the sync log): pushes that one record now, or takes it back there, as the
 * sync would, even if it has not changed. Answers the log entry written: created, updated or
 * voided; failed again with the provider's words; or a note that there was nothing to push.
 */
export async function retryItem(
  deps: IntegrationDeps,
  input: { businessId: string; provider: IntegrationProvider; recordType: SyncRecordType; recordId: string },
): Promise<SyncLogEntry> {
  const { businessId, provider, recordType, recordId } = input;
  await mustExist(deps, businessId, recordType, recordId);
  return withLease(deps, businessId, provider, async ({ row, session }) => {
    const done = await pushOne(deps, row, session, recordType, recordId);
    if (done.pushed + done.failed === 0) {
      const link = await deps.db
        .selectFrom('integration_links')
        .select(['remote_id', 'failure'])
        .where('business_id', '=', businessId)
        .where('provider', '=', provider)
        .where('account_id', '=', row.account_id!)
        .where('record_type', '=', recordType)
        .where('local_id', '=', recordId)
        .executeTakeFirst();
      const earlier = await latestEntryFor(deps.db, businessId, provider, recordType, recordId);
      const name = providerName(provider);
      await writeLog(deps.db, businessId, provider, {
        direction: 'push',
        recordType,
        recordId,
        recordLabel: earlier?.recordLabel ?? `${SYNC_RECORD_TYPE_LABELS[recordType]} ${recordId}`,
        remoteId: link?.remote_id ?? null,
        outcome: 'info',
        message:
          link?.remote_id && !link.failure
            ? `Retried: already up to date in ${name}, nothing to push.`
            : `Retried: nothing to push to ${name} now (an invoice goes once it is sent and owed, a payment once it is processed, a refund once it has succeeded).`,
      });
    }
    return (await latestEntryFor(deps.db, businessId, provider, recordType, recordId))!;
  });
}

/**
 * Link to an existing record (a payer the provider refused, a duplicate name): the payer is linked
 * to that customer at the provider, as the sync links what it creates, once the provider confirms
 * it has it. The next run (queued at once) updates that customer instead of creating another, and
 * the payer's invoices waiting for it go too.
 */
export async function linkPayer(
  deps: IntegrationDeps,
  input: { businessId: string; provider: IntegrationProvider; payerId: string; remoteId: string; actor: string },
): Promise<SyncLogEntry> {
  const { businessId, provider, payerId, remoteId } = input;
  const name = providerName(provider);
  const customer = INTEGRATION_PROVIDER_LABELS[provider].customer.toLowerCase();
  const payer = await deps.db
    .selectFrom('payers')
    .select(['id', 'display_name'])
    .where('business_id', '=', businessId)
    .where('id', '=', payerId)
    .executeTakeFirst();
  if (!payer) throw AppError.notFound('Payer');
  const entry = await withLease(deps, businessId, provider, async ({ row, session }) => {
    const accountId = row.account_id!;
    // One customer there, one payer here: two payers on one record would overwrite each other.
    const taken = await deps.db
      .selectFrom('integration_links as l')
      .innerJoin('payers as p', (join) => join.onRef('p.business_id', '=', 'l.business_id').onRef('p.id', '=', 'l.local_id'))
      .select('p.display_name')
      .where('l.business_id', '=', businessId)
      .where('l.provider', '=', provider)
      .where('l.account_id', '=', accountId)
      .where('l.record_type', '=', 'customer')
      .where('l.remote_id', '=', remoteId)
      .where('l.local_id', '!=', payerId)
      .executeTakeFirst();
    if (taken) {
      throw new AppError(
        ErrorCode.Conflict,
        `${name} ${customer} ${remoteId} is already linked to the payer ${taken.display_name}: each payer needs a ${customer} of its own.`,
      );
    }
    const existing = await providerOf(deps, provider).findCustomer(session, remoteId);
    if (!existing) {
      throw new AppError(
        ErrorCode.UnprocessableEntity,
        `${name} has no ${customer} ${remoteId}. Open the ${customer} in ${name} and copy the number from its address.`,
        { remoteId: `${name} has no ${customer} ${remoteId}.` },
      );
    }
    // As the sync's own links, with nothing pushed yet: the next run updates the record.
    const link = {
      remote_id: existing.ref.remoteId,
      remote_version: existing.ref.remoteVersion,
      pushed_hash: null,
      pushed_at: null,
      failure: null,
      failed_at: null,
      waiting_for: null,
      voided_at: null,
    };
    await deps.db
      .insertInto('integration_links')
      .values({ business_id: businessId, provider, account_id: accountId, record_type: 'customer', local_id: payerId, ...link })
      .onConflict((oc) => oc.columns(['business_id', 'provider', 'account_id', 'record_type', 'local_id']).doUpdateSet(link))
      .execute();
    await writeLog(deps.db, businessId, provider, {
      direction: 'push',
      recordType: 'customer',
      recordId: payerId,
      recordLabel: payer.display_name,
      remoteId: existing.ref.remoteId,
      outcome: 'info',
      message: `Linked by ${input.actor} to the existing ${name} ${customer} ${existing.ref.remoteId}${existing.name ? ` (“${existing.name}”)` : ''}: the next sync updates that ${customer} instead of creating another.`,
    });
    return (await latestEntryFor(deps.db, businessId, provider, 'customer', payerId))!;
  });
  // Once the lease is given back (a run queued while it is held would wait 30 s for it).
  await deps.db
    .updateTable('integrations')
    .set({ sync_state: sql<'queued' | 'running'>`CASE WHEN sync_state = 'running' THEN 'running' ELSE 'queued' END`, updated_at: new Date() })
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('state', '=', 'connected')
    .execute();
  await deps.jobs.send('integrations.sync', { businessId, provider }, { singletonKey: syncKey(businessId, provider) });
  return entry;
}
