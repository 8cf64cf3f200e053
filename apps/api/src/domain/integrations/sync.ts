import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { formatMoney, INTEGRATION_MESSAGES, INTEGRATION_PROVIDER_LABELS, type IntegrationProvider, type SyncRecordType } from '@tay/contract';
import {
  ProviderAuthError,
  ProviderRateLimited,
  ProviderRecordError,
  ProviderUnavailable,
  type CustomerRecord,
  type InvoiceRecord,
  type PaymentRecord,
  type ProviderSession,
  type PushedCustomer,
  type RefundRecord,
  type RemoteRef,
} from '../../accounting/port';
import { displayNameWithEmail } from '../../accounting/display-names';
import type { DB } from '../../db/schema';
import type { IntegrationLinksTable } from '../../db/schema/integrations';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { invoiceNumber } from '../invoices/invoice-number';
import { invoiceNumberOf } from '../invoices/invoice-source';
import { referenceNumber } from '../payment-requests/request-record';
import { notOffered, providerOf, sha256, syncKey, type IntegrationDeps } from './deps';
import { writeLog } from './log';
import { freshSession, markNeedsReconnect, NeedsReconnect } from './session';
import { getIntegration, type IntegrationRow } from './view';

/** Records one run pushes before it hands over to a fresh job (so a job stays short and others get turns). */
export const RECORDS_PER_RUN = 300;
/** A run said to be queued this long ago with none running is queued again by the sweep. */
const QUEUED_STALE_MS = 15 * 60_000;
/** A run holds its lease this long at most; a run whose process died is taken over after it. */
export const LEASE_MS = 10 * 60_000;

export interface SyncJob {
  businessId: string;
  provider: IntegrationProvider;
  /** Sync now (or the first sync): records whose last push failed are tried again even if unchanged. */
  manual?: boolean;
  /**
   * Of a manual sync: only failures from before it began are retried (ISO time), so a record that
   * fails again in this sync is not picked up again by its follow-on runs.
   */
  retryFailedBefore?: string;
  /** Counts carried from the runs before this one of the same sync. */
  carried?: { pushed: number; failed: number };
}

/** Sync now: queues a run (one per integration at a time) and answers the integration as queued. */
export async function requestSync(deps: IntegrationDeps, businessId: string, provider: IntegrationProvider) {
  providerOf(deps, provider);
  const updated = await deps.db
    .updateTable('integrations')
    .set({ sync_state: sql<'queued' | 'running'>`CASE WHEN sync_state = 'running' THEN 'running' ELSE 'queued' END`, updated_at: new Date() })
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('state', '=', 'connected')
    .returning('sync_state')
    .executeTakeFirst();
  if (!updated) throw new AppError('CONFLICT', `${INTEGRATION_MESSAGES.notConnected} ${INTEGRATION_PROVIDER_LABELS[provider].name} is not connected.`);
  await deps.jobs.send('integrations.sync', { businessId, provider, manual: true }, { singletonKey: syncKey(businessId, provider) });
  return getIntegration(deps, businessId, provider);
}

type Link = { remote_id: string | null; remote_version: string | null; pushed_hash: string | null; failure: string | null };
/** What a record held back waits for at the provider: an invoice its customer, a payment its invoice, a refund its payment. */
type WaitingFor = 'customer' | 'invoice' | 'payment';
interface Candidate<R> {
  localId: string;
  label: string;
  /**
   * The version of our record read for this push (its `updated_at`, to the millisecond): stored as
   * the link's `pushed_at`, so an edit made while the run pushes is seen as a change next time.
   * Null for a payment or a refund, which do not change once processed.
   */
  sourceUpdatedAt: Date | null;
  link: Link | null;
  /** The record to push, or why it cannot be pushed yet (its payer, invoice or payment is not at the provider). */
  record: R | { blocked: string; waitingFor: WaitingFor };
}

function linkOf(row: {
  l_remote_id: string | null;
  l_remote_version: string | null;
  l_pushed_hash: string | null;
  l_failure: string | null;
  l_local_id: string | null;
}): Link | null {
  return row.l_local_id === null
    ? null
    : { remote_id: row.l_remote_id, remote_version: row.l_remote_version, pushed_hash: row.l_pushed_hash, failure: row.l_failure };
}

/** A candidate's own link (`l`), read beside it. */
const LINK_COLUMNS = [
  'l.local_id as l_local_id',
  'l.remote_id as l_remote_id',
  'l.remote_version as l_remote_version',
  'l.pushed_hash as l_pushed_hash',
  'l.failure as l_failure',
] as const;

const remoteRef = (id: string | null, version: string | null): RemoteRef | null => (id ? { remoteId: id, remoteVersion: version } : null);

/**
 * The join of a record to its link with the connected company: `alias` is the link's alias, `local`
 * and `business` the record's id and business columns.
 */
function linkOn(row: IntegrationRow, type: SyncRecordType, alias: string, local: string, business: string) {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`${col('business_id')} = ${sql.ref(business)} AND ${col('local_id')} = ${sql.ref(local)} AND ${col('provider')} = ${row.provider} AND ${col('account_id')} = ${row.account_id} AND ${col('record_type')} = ${type}`;
}

/** Which records of a type a run looks at. */
interface Selection {
  /** A manual run's: failures from before this are retried. */
  retryBefore: Date | null;
  limit: number;
  /** One record only (a retry from the sync log), whether or not it changed. */
  only?: string | undefined;
  /** The provider wants each customer's name unique (QuickBooks): see `customerCandidates`. */
  uniqueNames?: boolean;
}

/*
 * The candidates of each type: records never pushed to this company, changed since their last
 * push (`updated_at` after `pushed_at`; the content hash then tells a real change), or — on a
 * manual run — failed last time. Oldest first, at most `limit`. With `only`, that one record.
 */
async function customerCandidates(db: Kysely<DB>, row: IntegrationRow, pick: Selection): Promise<Candidate<CustomerRecord>[]> {
  const { retryBefore, only } = pick;
  const rows = await db
    .selectFrom('payers as p')
    .leftJoin('integration_links as l', (join) => join.on(linkOn(row, 'customer', 'l', 'p.id', 'p.business_id')))
    .where('p.business_id', '=', row.business_id)
    .$if(only !== undefined, (q) => q.where('p.id', '=', only!))
    .$if(only === undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('l.local_id', 'is', null),
          eb('l.pushed_at', 'is', null),
          eb(sql`date_trunc('milliseconds', p.updated_at)`, '>', eb.ref('l.pushed_at')),
          ...(retryBefore ? [eb.and([eb('l.failure', 'is not', null), eb('l.failed_at', '<', retryBefore)])] : []),
        ]),
      ),
    )
    .select(LINK_COLUMNS)
    .select(['p.id', 'p.display_name', 'p.first_name', 'p.last_name', 'p.company_name', 'p.email', 'p.mobile_number', 'p.updated_at'])
    // Where names must be unique (QuickBooks), a payer whose name an older payer of the business
    // already has goes as "Name (e-mail)": two Ana Riveras are two customers there, not a refusal.
    // (The index on the lower-cased name serves the look-up.)
    .select(
      (pick.uniqueNames
        ? sql<boolean>`EXISTS (SELECT 1 FROM payers q WHERE q.business_id = p.business_id AND lower(q.display_name) = lower(p.display_name) AND (q.created_at, q.id) < (p.created_at, p.id))`
        : sql<boolean>`false`
      ).as('name_shared'),
    )
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(pick.limit)
    .execute();
  return rows.map((r) => ({
    localId: r.id,
    label: r.display_name,
    sourceUpdatedAt: r.updated_at,
    link: linkOf(r),
    record: {
      localId: r.id,
      displayName: r.name_shared ? displayNameWithEmail(r.display_name, r.email) : r.display_name,
      firstName: r.first_name,
      lastName: r.last_name,
      companyName: r.company_name,
      email: r.email,
      phone: r.mobile_number,
    },
  }));
}

async function invoiceCandidates(db: Kysely<DB>, row: IntegrationRow, pick: Selection): Promise<Candidate<InvoiceRecord>[]> {
  const { retryBefore, only } = pick;
  const rows = await db
    .selectFrom('invoices as i')
    .leftJoin('integration_links as l', (join) => join.on(linkOn(row, 'invoice', 'l', 'i.id', 'i.business_id')))
    .leftJoin('integration_links as c', (join) => join.on(linkOn(row, 'customer', 'c', 'i.payer_id', 'i.business_id')))
    .where('i.business_id', '=', row.business_id)
    // Sent at least once: a draft or a scheduled invoice is not in the books yet; one no longer owed
    // is not pushed (and, pushed before, is voided there: `voidWithdrawnInvoices`).
    .where('i.sent_at', 'is not', null)
    .where('i.state', 'not in', NOT_OWED)
    .$if(only !== undefined, (q) => q.where('i.id', '=', only!))
    .$if(only === undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('l.local_id', 'is', null),
          eb('l.pushed_at', 'is', null),
          eb(sql`date_trunc('milliseconds', i.updated_at)`, '>', eb.ref('l.pushed_at')),
          // Held back for its payer, who has reached the provider since.
          eb.and([eb('l.waiting_for', '=', 'customer'), eb('c.remote_id', 'is not', null), eb('c.failure', 'is', null)]),
          ...(retryBefore ? [eb.and([eb('l.failure', 'is not', null), eb('l.failed_at', '<', retryBefore)])] : []),
        ]),
      ),
    )
    .select(LINK_COLUMNS)
    .select([
      'i.id',
      'i.number',
      'i.payer_display_name',
      'i.issue_date',
      'i.due_date',
      'i.memo',
      'i.items',
      'i.discount_cents',
      'i.tax_cents',
      'i.updated_at',
      'i.total_cents',
      'c.remote_id as customer_remote_id',
      'c.remote_version as customer_remote_version',
      'c.failure as customer_failure',
    ])
    .orderBy('i.created_at')
    .orderBy('i.id')
    .limit(pick.limit)
    .execute();
  return rows.map((r) => {
    const customer = remoteRef(r.customer_remote_id, r.customer_remote_version);
    return {
      localId: r.id,
      label: `Invoice ${invoiceNumber(r.number)}`,
      sourceUpdatedAt: r.updated_at,
      link: linkOf(r),
      record: customer
        ? {
            localId: r.id,
            number: invoiceNumber(r.number),
            customer,
            issueDate: r.issue_date,
            dueDate: r.due_date,
            memo: r.memo,
            lines: r.items.map((line) => ({
              description: line.description,
              quantityMilli: line.quantityMilli,
              unitPriceCents: line.unitPriceCents,
              amountCents: line.amountCents,
            })),
            discountCents: r.discount_cents,
            taxCents: r.tax_cents,
            totalCents: r.total_cents,
          }
        : {
            waitingFor: 'customer' as const,
            blocked: `Its payer, ${r.payer_display_name}, is not in ${INTEGRATION_PROVIDER_LABELS[row.provider].name} yet${r.customer_failure ? `: ${r.customer_failure}` : '.'}`,
          },
    };
  });
}

async function paymentCandidates(db: Kysely<DB>, row: IntegrationRow, pick: Selection): Promise<Candidate<PaymentRecord>[]> {
  const { retryBefore, only } = pick;
  const rows = await db
    .selectFrom('payments as pm')
    .innerJoin('payment_requests as r', (join) => join.onRef('r.business_id', '=', 'pm.business_id').onRef('r.id', '=', 'pm.request_id'))
    .innerJoin('businesses as b', 'b.id', 'pm.business_id')
    .leftJoin('integration_links as l', (join) => join.on(linkOn(row, 'payment', 'l', 'pm.id', 'pm.business_id')))
    .leftJoin('integration_links as inv', (join) => join.on(linkOn(row, 'invoice', 'inv', 'r.source_id', 'r.business_id')))
    .leftJoin('integration_links as c', (join) => join.on(linkOn(row, 'customer', 'c', 'r.payer_id', 'r.business_id')))
    .where('pm.business_id', '=', row.business_id)
    .where('r.source_kind', '=', 'invoice')
    // Collected money: processed and not returned (a payment returned after its push is taken back: `voidReturned`).
    .where('pm.processed_at', 'is not', null)
    .where('pm.returned_at', 'is', null)
    .$if(only !== undefined, (q) => q.where('pm.id', '=', only!))
    .$if(only === undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('l.local_id', 'is', null),
          eb('l.pushed_at', 'is', null),
          // Held back for its invoice, which has reached the provider since.
          eb.and([eb('l.waiting_for', '=', 'invoice'), eb('inv.remote_id', 'is not', null), eb('inv.failure', 'is', null)]),
          ...(retryBefore ? [eb.and([eb('l.failure', 'is not', null), eb('l.failed_at', '<', retryBefore)])] : []),
        ]),
      ),
    )
    .select(LINK_COLUMNS)
    .select([
      'pm.id',
      'pm.amount_cents',
      'pm.method',
      'r.source_kind',
      'r.source_number',
      sql<string>`to_char(pm.processed_at AT TIME ZONE b.time_zone, 'YYYY-MM-DD')`.as('day'),
      'inv.remote_id as invoice_remote_id',
      'inv.remote_version as invoice_remote_version',
      'c.remote_id as customer_remote_id',
      'c.remote_version as customer_remote_version',
    ])
    .orderBy('pm.created_at')
    .orderBy('pm.id')
    .limit(pick.limit)
    .execute();
  return rows.map((r) => {
    const number = invoiceNumberOf(r);
    const invoiceName = number === null ? 'its invoice' : `Invoice ${number}`;
    const label = `Payment of ${formatMoney(r.amount_cents)} on ${invoiceName}`;
    const invoice = remoteRef(r.invoice_remote_id, r.invoice_remote_version);
    const customer = remoteRef(r.customer_remote_id, r.customer_remote_version);
    return {
      localId: r.id,
      label,
      sourceUpdatedAt: null,
      link: linkOf(r),
      record:
        invoice && customer
          ? { localId: r.id, invoice, customer, amountCents: r.amount_cents, date: r.day, method: r.method, reference: label }
          : { waitingFor: 'invoice' as const, blocked: `${invoiceName} is not in ${INTEGRATION_PROVIDER_LABELS[row.provider].name} yet.` },
    };
  });
}

/**
 * Refunds that succeeded, of payments on invoices (what `paymentCandidates` pushes) not returned
 * since: each goes once, after its payment (a refund receipt or credit note needs the customer, and
 * the books need the money in before it goes out). A pending refund waits until it succeeds; a
 * failed one gave nothing back and is never pushed.
 */
async function refundCandidates(db: Kysely<DB>, row: IntegrationRow, pick: Selection): Promise<Candidate<RefundRecord>[]> {
  const { retryBefore, only } = pick;
  const rows = await db
    .selectFrom('refunds as rf')
    .innerJoin('payments as pm', (join) => join.onRef('pm.business_id', '=', 'rf.business_id').onRef('pm.id', '=', 'rf.payment_id'))
    .innerJoin('payment_requests as r', (join) => join.onRef('r.business_id', '=', 'rf.business_id').onRef('r.id', '=', 'rf.request_id'))
    .innerJoin('businesses as b', 'b.id', 'rf.business_id')
    .leftJoin('integration_links as l', (join) => join.on(linkOn(row, 'refund', 'l', 'rf.id', 'rf.business_id')))
    .leftJoin('integration_links as pl', (join) => join.on(linkOn(row, 'payment', 'pl', 'rf.payment_id', 'rf.business_id')))
    .leftJoin('integration_links as c', (join) => join.on(linkOn(row, 'customer', 'c', 'r.payer_id', 'r.business_id')))
    .where('rf.business_id', '=', row.business_id)
    .where('rf.state', '=', 'Succeeded')
    .where('r.source_kind', '=', 'invoice')
    .where('pm.returned_at', 'is', null)
    .$if(only !== undefined, (q) => q.where('rf.id', '=', only!))
    .$if(only === undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('l.local_id', 'is', null),
          eb('l.pushed_at', 'is', null),
          // Held back for its payment, which has reached the provider since.
          eb.and([eb('l.waiting_for', '=', 'payment'), eb('pl.remote_id', 'is not', null), eb('pl.failure', 'is', null)]),
          ...(retryBefore ? [eb.and([eb('l.failure', 'is not', null), eb('l.failed_at', '<', retryBefore)])] : []),
        ]),
      ),
    )
    .select(LINK_COLUMNS)
    .select([
      'rf.id',
      'rf.amount_cents',
      'pm.amount_cents as payment_cents',
      'r.number',
      'r.source_kind',
      'r.source_number',
      sql<string>`to_char(coalesce(rf.processed_at, rf.created_at) AT TIME ZONE b.time_zone, 'YYYY-MM-DD')`.as('day'),
      'pl.remote_id as payment_remote_id',
      'pl.remote_version as payment_remote_version',
      'pl.voided_at as payment_voided_at',
      'c.remote_id as customer_remote_id',
      'c.remote_version as customer_remote_version',
    ])
    .orderBy('rf.created_at')
    .orderBy('rf.id')
    .limit(pick.limit)
    .execute();
  return rows.map((r) => {
    const number = invoiceNumberOf(r);
    const invoiceName = number === null ? 'its invoice' : `Invoice ${number}`;
    const label = `Refund of ${formatMoney(r.amount_cents)} on ${invoiceName}`;
    const payment = r.payment_voided_at === null ? remoteRef(r.payment_remote_id, r.payment_remote_version) : null;
    const customer = remoteRef(r.customer_remote_id, r.customer_remote_version);
    return {
      localId: r.id,
      label,
      sourceUpdatedAt: null,
      link: linkOf(r),
      record:
        payment && customer
          ? {
              localId: r.id,
              payment,
              customer,
              amountCents: r.amount_cents,
              date: r.day,
              transactionNumber: referenceNumber(r.number),
              reference: label,
            }
          : {
              waitingFor: 'payment' as const,
              blocked: `The payment it gives back (Payment of ${formatMoney(r.payment_cents)} on ${invoiceName}) is not in ${INTEGRATION_PROVIDER_LABELS[row.provider].name} yet.`,
            },
    };
  });
}

/** Invoices no longer owed: withdrawn or cancelled by the business, rejected by the payer. */
const NOT_OWED = ['Withdrawn', 'Cancelled', 'Rejected'] as const;

/** A record pushed earlier that the provider must take back, with what the log says when it has. */
interface TakeBack {
  id: string;
  remoteId: string;
  remoteVersion: string | null;
  label: string;
  done: string;
}

/**
 * Takes each record back at the provider once (a payment returned, an invoice no longer owed): its
 * link is marked `voided_at` and the log says `Voided`; one the provider refuses is logged in its
 * words and tried again on a manual run.
 */
async function takeBackAll(
  deps: IntegrationDeps,
  row: IntegrationRow,
  session: ProviderSession,
  type: 'invoice' | 'payment',
  items: TakeBack[],
  tally: RunTally,
) {
  const provider = providerOf(deps, row.provider);
  for (const item of items) {
    tally.handled += 1;
    const entry = { direction: 'push' as const, recordType: type, recordId: item.id, recordLabel: item.label, remoteId: item.remoteId };
    const link = deps.db
      .updateTable('integration_links')
      .where('business_id', '=', row.business_id)
      .where('provider', '=', row.provider)
      .where('account_id', '=', row.account_id!)
      .where('record_type', '=', type)
      .where('local_id', '=', item.id);
    const remote = { remoteId: item.remoteId, remoteVersion: item.remoteVersion };
    try {
      await (type === 'payment' ? provider.voidPayment(session, remote) : provider.voidInvoice(session, remote));
      await link.set({ voided_at: new Date(), failure: null, failed_at: null }).execute();
      await writeLog(deps.db, row.business_id, row.provider, { ...entry, outcome: 'voided', message: item.done });
      tally.pushed += 1;
    } catch (error) {
      if (!(error instanceof ProviderRecordError)) throw error;
      await link.set({ failure: error.message, failed_at: new Date() }).execute();
      await writeLog(deps.db, row.business_id, row.provider, { ...entry, outcome: 'failed', message: error.message });
      tally.failed += 1;
    }
  }
}

/** Pushed, not yet taken back, and not refused since (unless a manual run retries it). */
const takeBackDue = (retryBefore: Date | null) => (eb: ExpressionBuilder<DB & { l: IntegrationLinksTable }, 'l'>) =>
  eb.and([
    eb('l.remote_id', 'is not', null),
    eb('l.voided_at', 'is', null),
    retryBefore ? eb.or([eb('l.failure', 'is', null), eb('l.failed_at', '<', retryBefore)]) : eb('l.failure', 'is', null),
  ]);

/** Invoices pushed earlier and no longer owed since: each is voided at the provider once. */
async function voidWithdrawnInvoices(
  deps: IntegrationDeps,
  row: IntegrationRow,
  session: ProviderSession,
  retryBefore: Date | null,
  tally: RunTally,
  limit: number,
  only?: string,
) {
  const name = INTEGRATION_PROVIDER_LABELS[row.provider].name;
  const withdrawn = await deps.db
    .selectFrom('invoices as i')
    .innerJoin('integration_links as l', (join) => join.on(linkOn(row, 'invoice', 'l', 'i.id', 'i.business_id')))
    .where('i.business_id', '=', row.business_id)
    .where('i.state', 'in', NOT_OWED)
    .where(takeBackDue(retryBefore))
    .$if(only !== undefined, (q) => q.where('i.id', '=', only!))
    .select(['i.id', 'i.number', 'i.state', 'l.remote_id', 'l.remote_version'])
    .orderBy('i.updated_at')
    .orderBy('i.id')
    .limit(limit)
    .execute();
  const items = withdrawn.map((i) => ({
    id: i.id,
    remoteId: i.remote_id!,
    remoteVersion: i.remote_version,
    label: `Invoice ${invoiceNumber(i.number)}`,
    done: `${i.state} in Tay: voided in ${name}, it is no longer owed.`,
  }));
  await takeBackAll(deps, row, session, 'invoice', items, tally);
}

/**
 * Payments pushed earlier and returned since (an ACH return, a chargeback): each is taken back at
 * the provider once, so its invoice is open there again, as it is here.
 */
async function voidReturned(
  deps: IntegrationDeps,
  row: IntegrationRow,
  session: ProviderSession,
  retryBefore: Date | null,
  tally: RunTally,
  limit: number,
  only?: string,
) {
  const name = INTEGRATION_PROVIDER_LABELS[row.provider].name;
  const returned = await deps.db
    .selectFrom('payments as pm')
    .innerJoin('payment_requests as r', (join) => join.onRef('r.business_id', '=', 'pm.business_id').onRef('r.id', '=', 'pm.request_id'))
    .innerJoin('integration_links as l', (join) => join.on(linkOn(row, 'payment', 'l', 'pm.id', 'pm.business_id')))
    .where('pm.business_id', '=', row.business_id)
    .where('pm.returned_at', 'is not', null)
    .where(takeBackDue(retryBefore))
    .$if(only !== undefined, (q) => q.where('pm.id', '=', only!))
    .select(['pm.id', 'pm.amount_cents', 'pm.failure_reason', 'r.source_kind', 'r.source_number', 'l.remote_id', 'l.remote_version'])
    .orderBy('pm.returned_at')
    .orderBy('pm.id')
    .limit(limit)
    .execute();
  const items = returned.map((p) => ({
    id: p.id,
    remoteId: p.remote_id!,
    remoteVersion: p.remote_version,
    label: `Payment of ${formatMoney(p.amount_cents)} on ${invoiceNumberOf(p) === null ? 'its invoice' : `Invoice ${invoiceNumberOf(p)}`}`,
    done: `Returned${p.failure_reason ? ` (${p.failure_reason})` : ''}: taken back from ${name}, so the invoice is open there again.`,
  }));
  await takeBackAll(deps, row, session, 'payment', items, tally);
}

/** What a run did, and whether it stopped short of the end (more to push: a follow-on run is queued). */
interface RunTally {
  pushed: number;
  failed: number;
  handled: number;
}

async function saveLink(
  db: Kysely<DB>,
  row: IntegrationRow,
  type: SyncRecordType,
  localId: string,
  values: {
    remote_id?: string | null;
    remote_version?: string | null;
    pushed_hash?: string | null;
    failure: string | null;
    waiting_for?: WaitingFor;
  },
  sourceUpdatedAt: Date | null,
) {
  const now = new Date();
  const set = { waiting_for: null, ...values, pushed_at: sourceUpdatedAt ?? now, failed_at: values.failure ? now : null };
  await db
    .insertInto('integration_links')
    .values({ business_id: row.business_id, provider: row.provider, account_id: row.account_id!, record_type: type, local_id: localId, ...set })
    .onConflict((oc) => oc.columns(['business_id', 'provider', 'account_id', 'record_type', 'local_id']).doUpdateSet(set))
    .execute();
}

/**
 * Pushes one type's candidates. A record the provider refuses is logged with the provider's words
 * and the run goes on; a refused token, a 429 or an unreachable provider stops the run (thrown).
 */
async function pushAll<R>(
  deps: IntegrationDeps,
  row: IntegrationRow,
  session: ProviderSession,
  type: SyncRecordType,
  candidates: Candidate<R>[],
  push: (record: R, existing: RemoteRef | null) => Promise<RemoteRef & Pick<PushedCustomer, 'displayName'>>,
  tally: RunTally,
): Promise<void> {
  for (const candidate of candidates) {
    tally.handled += 1;
    const existing = candidate.link ? remoteRef(candidate.link.remote_id, candidate.link.remote_version) : null;
    if ('blocked' in (candidate.record as object)) {
      const { blocked: reason, waitingFor } = candidate.record as { blocked: string; waitingFor: WaitingFor };
      await saveLink(deps.db, row, type, candidate.localId, { failure: reason, waiting_for: waitingFor }, candidate.sourceUpdatedAt);
      await writeLog(deps.db, row.business_id, row.provider, {
        direction: 'push',
        recordType: type,
        recordId: candidate.localId,
        recordLabel: candidate.label,
        outcome: 'failed',
        message: reason,
      });
      tally.failed += 1;
      continue;
    }
    const record = candidate.record as R;
    const hash = sha256(JSON.stringify(record));
    if (existing && candidate.link?.pushed_hash === hash && !candidate.link.failure) {
      // Touched but not changed (a payment moved the invoice's amount paid, say): nothing to push.
      await saveLink(
        deps.db,
        row,
        type,
        candidate.localId,
        {
          remote_id: existing.remoteId,
          remote_version: existing.remoteVersion,
          pushed_hash: hash,
          failure: null,
        },
        candidate.sourceUpdatedAt,
      );
      continue;
    }
    try {
      const remote = await push(record, existing);
      // The name the customer bears there: ours, "Name (e-mail)" chosen here, or the client's second try.
      const sentAs = remote.displayName ?? (type === 'customer' ? (record as CustomerRecord).displayName : undefined);
      const labels = INTEGRATION_PROVIDER_LABELS[row.provider];
      // What a refund is there: a QuickBooks refund receipt, a FreshBooks credit note.
      const refundKind = type === 'refund' ? `A ${labels.refund.toLowerCase()} in ${labels.name}.` : null;
      await saveLink(
        deps.db,
        row,
        type,
        candidate.localId,
        {
          remote_id: remote.remoteId,
          remote_version: remote.remoteVersion,
          pushed_hash: hash,
          failure: null,
        },
        candidate.sourceUpdatedAt,
      );
      await writeLog(deps.db, row.business_id, row.provider, {
        direction: 'push',
        recordType: type,
        recordId: candidate.localId,
        recordLabel: candidate.label,
        remoteId: remote.remoteId,
        outcome: existing ? 'updated' : 'created',
        // A customer the provider knows by another name than the payer's (QuickBooks: the name was taken).
        message:
          sentAs && sentAs !== candidate.label
            ? `Named “${sentAs}” in ${labels.name}, where each customer’s name must be unique: “${candidate.label}” is another customer’s.`
            : refundKind,
      });
      tally.pushed += 1;
    } catch (error) {
      if (!(error instanceof ProviderRecordError)) throw error;
      await saveLink(
        deps.db,
        row,
        type,
        candidate.localId,
        {
          remote_id: existing?.remoteId ?? null,
          remote_version: existing?.remoteVersion ?? null,
          failure: error.message,
        },
        candidate.sourceUpdatedAt,
      );
      await writeLog(deps.db, row.business_id, row.provider, {
        direction: 'push',
        recordType: type,
        recordId: candidate.localId,
        recordLabel: candidate.label,
        remoteId: existing?.remoteId ?? null,
        outcome: 'failed',
        message: error.message,
      });
      tally.failed += 1;
    }
  }
}

/**
 * One run of a sync (the `integrations.sync` job): takes the integration's lease (one run at a
 * time; a lapsed lease is taken over), makes sure of a fresh token, then pushes payers, invoices,
 * payments and refunds in that order — an invoice needs its customer, a payment its invoice, a
 * refund its payment — up to RECORDS_PER_RUN records, queuing a follow-on run if there is more. No
 * transaction is held while the provider is called (ARCHITECTURE.md §3: the embedded database
 * serves one connection).
 */
export async function runSync(deps: IntegrationDeps, job: SyncJob, { recordsPerRun = RECORDS_PER_RUN } = {}): Promise<void> {
  const { db } = deps;
  const { businessId, provider } = job;
  const name = INTEGRATION_PROVIDER_LABELS[provider].name;
  const now = new Date();
  const runId = newId('run');
  const row = await db
    .updateTable('integrations')
    .set({ sync_state: 'running', sync_lease_until: new Date(now.getTime() + LEASE_MS), sync_run: runId, updated_at: now })
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('state', '=', 'connected')
    .where((eb) => eb.or([eb('sync_state', '!=', 'running'), eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    // Another run holds the lease (a Sync now or a reconnect arrived during it): this one comes back
    // after it rather than being lost; one that is not connected any more simply ends.
    const held = await db
      .selectFrom('integrations')
      .select('sync_lease_until')
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      .where('state', '=', 'connected')
      .where('sync_state', '=', 'running')
      .executeTakeFirst();
    if (held) await deps.jobs.send('integrations.sync', job, { singletonKey: `${syncKey(businessId, provider)}:wait`, startAfter: 30 });
    return;
  }
  if (!deps.providers[provider]) {
    // Its credentials were taken out of the configuration: nothing can be pushed until they are back.
    await db
      .updateTable('integrations')
      .set({ sync_state: 'idle', sync_lease_until: null, problem: notOffered(provider), updated_at: new Date() })
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      .execute();
    return;
  }

  const tally: RunTally = { pushed: job.carried?.pushed ?? 0, failed: job.carried?.failed ?? 0, handled: 0 };
  const release = (set: { sync_state: 'idle' | 'queued'; problem: string | null; finished: boolean }) =>
    db
      .updateTable('integrations')
      .set({
        sync_state: set.sync_state,
        sync_lease_until: null,
        sync_run: null,
        problem: set.problem,
        updated_at: new Date(),
        ...(set.finished ? { last_sync_at: new Date(), last_sync_pushed: tally.pushed, last_sync_failed: tally.failed } : {}),
      })
      .where('business_id', '=', businessId)
      .where('provider', '=', provider)
      .where('state', '=', 'connected')
      // Only the lease this run holds: one that lapsed and was taken over belongs to the next run.
      .where('sync_run', '=', runId)
      .execute();

  const signal = AbortSignal.timeout(LEASE_MS - 60_000);
  const manual = job.manual ?? false;
  // A manual sync retries the failures from before it began, once each, however many runs it takes.
  const retryFailedBefore = manual ? (job.retryFailedBefore ?? now.toISOString()) : undefined;
  const retryBefore = retryFailedBefore ? new Date(retryFailedBefore) : null;
  const next = { businessId, provider, manual, ...(retryFailedBefore ? { retryFailedBefore } : {}) };
  try {
    const session = await freshSession(deps, row, signal);
    const p = providerOf(deps, provider);
    const budget = () => recordsPerRun - tally.handled;
    let more = false;
    const customers = await customerCandidates(db, row, { retryBefore, limit: budget(), uniqueNames: p.uniqueCustomerNames });
    await pushAll(deps, row, session, 'customer', customers, (r, e) => p.pushCustomer(session, r, e), tally);
    if (budget() > 0) {
      const invoices = await invoiceCandidates(db, row, { retryBefore, limit: budget() });
      await pushAll(deps, row, session, 'invoice', invoices, (r, e) => p.pushInvoice(session, r, e), tally);
      if (budget() > 0) {
        const payments = await paymentCandidates(db, row, { retryBefore, limit: budget() });
        await pushAll(deps, row, session, 'payment', payments, (r, e) => p.pushPayment(session, r, e), tally);
        if (budget() > 0) {
          const refunds = await refundCandidates(db, row, { retryBefore, limit: budget() });
          await pushAll(deps, row, session, 'refund', refunds, (r, e) => p.pushRefund(session, r, e), tally);
        }
        if (budget() > 0) await voidReturned(deps, row, session, retryBefore, tally, budget());
        if (budget() > 0) await voidWithdrawnInvoices(deps, row, session, retryBefore, tally, budget());
        more = budget() <= 0;
      } else more = true;
    } else more = true;

    if (more) {
      await release({ sync_state: 'queued', problem: null, finished: false });
      await deps.jobs.send(
        'integrations.sync',
        { ...next, carried: { pushed: tally.pushed, failed: tally.failed } },
        { singletonKey: `${syncKey(businessId, provider)}:next` },
      );
    } else {
      await release({ sync_state: 'idle', problem: null, finished: true });
    }
  } catch (error) {
    if (error instanceof NeedsReconnect) return; // recorded by freshSession
    if (error instanceof ProviderAuthError) {
      await markNeedsReconnect(deps, row, error.message);
      return;
    }
    if (error instanceof ProviderRateLimited) {
      const resumeAt = new Date(Date.now() + error.retryAfterSeconds * 1000);
      const problem = `${name} asked us to slow down (429); syncing resumes by itself after ${error.retryAfterSeconds} s.`;
      await release({ sync_state: 'queued', problem, finished: false });
      await writeLog(db, businessId, provider, {
        direction: 'connection',
        recordLabel: 'Rate limit',
        outcome: 'info',
        message: `${problem} Resumes at ${resumeAt.toISOString()}.`,
      });
      await deps.jobs.send(
        'integrations.sync',
        { ...next, carried: { pushed: tally.pushed, failed: tally.failed } },
        { singletonKey: `${syncKey(businessId, provider)}:after-429`, startAfter: resumeAt },
      );
      return;
    }
    if (error instanceof ProviderUnavailable) {
      const problem = `${name} could not be reached (${error.message}); the next sync tries again within five minutes.`;
      await release({ sync_state: 'idle', problem, finished: true });
      await writeLog(db, businessId, provider, { direction: 'connection', recordLabel: 'Sync', outcome: 'failed', message: problem });
      return;
    }
    await release({ sync_state: 'idle', problem: 'The last sync stopped on an error of ours; it is retried.', finished: false });
    throw error;
  }
}

/**
 * One record now (Retry in the sync log): pushed, or taken back, as a run would do it, whether or
 * not it changed since its last push. The caller holds the integration's lease. A refusal of the
 * record is logged in the provider's words (counted in `failed`); a refused token, a 429 or an
 * unreachable provider is thrown.
 */
export async function pushOne(
  deps: IntegrationDeps,
  row: IntegrationRow,
  session: ProviderSession,
  type: SyncRecordType,
  localId: string,
): Promise<{ pushed: number; failed: number }> {
  const p = providerOf(deps, row.provider);
  const tally: RunTally = { pushed: 0, failed: 0, handled: 0 };
  // Its failure, whenever it was, is retried: it is the one asked for.
  const now = new Date();
  const pick: Selection = { retryBefore: now, limit: 1, only: localId, uniqueNames: p.uniqueCustomerNames };
  if (type === 'customer') {
    await pushAll(deps, row, session, 'customer', await customerCandidates(deps.db, row, pick), (r, e) => p.pushCustomer(session, r, e), tally);
  } else if (type === 'invoice') {
    await pushAll(deps, row, session, 'invoice', await invoiceCandidates(deps.db, row, pick), (r, e) => p.pushInvoice(session, r, e), tally);
    await voidWithdrawnInvoices(deps, row, session, now, tally, 1, localId);
  } else if (type === 'payment') {
    await pushAll(deps, row, session, 'payment', await paymentCandidates(deps.db, row, pick), (r, e) => p.pushPayment(session, r, e), tally);
    await voidReturned(deps, row, session, now, tally, 1, localId);
  } else {
    await pushAll(deps, row, session, 'refund', await refundCandidates(deps.db, row, pick), (r, e) => p.pushRefund(session, r, e), tally);
  }
  return { pushed: tally.pushed, failed: tally.failed };
}

/**
 * Every five minutes (`integrations.sweep`): queues a run for each connected integration that
 * has none going, so a change on our side reaches the provider without anyone pressing Sync now,
 * and tokens are refreshed before they expire; and drops OAuth states that were never used.
 */
export async function sweepIntegrations(deps: Pick<IntegrationDeps, 'db' | 'jobs'>): Promise<number> {
  await deps.db.deleteFrom('integration_oauth_states').where('expires_at', '<', new Date()).execute();
  const due = await deps.db
    .selectFrom('integrations')
    .select(['business_id', 'provider'])
    .where('state', '=', 'connected')
    .where((eb) =>
      eb.or([
        eb('sync_state', '=', 'idle'),
        eb('sync_lease_until', '<', new Date()),
        // Queued, and its job lost (a process that died between saying so and sending it).
        eb.and([eb('sync_state', '=', 'queued'), eb('updated_at', '<', new Date(Date.now() - QUEUED_STALE_MS))]),
      ]),
    )
    .execute();
  for (const d of due) {
    await deps.jobs.send('integrations.sync', { businessId: d.business_id, provider: d.provider }, { singletonKey: syncKey(d.business_id, d.provider) });
  }
  return due.length;
}
