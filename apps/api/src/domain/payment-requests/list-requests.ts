import type { Kysely } from 'kysely';
import { type RequestListQuery, RequestState, requestActions } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { historyList } from '../../db/history-engine/engine';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { REQUEST_SOURCES } from '../request-sources';
import { parseReferenceNumber } from './request-record';
import type { Reader, SourceFilter } from './request-source';

export type ListQuery = ReturnType<typeof RequestListQuery.parse>;

/**
 * The transaction history and the drafts: the history engine (ADR 030, 043) over `payment_requests`.
 * The item of each row is stored as JSON (migration 0016); the counts are kept by triggers:
 * per state (0009), per day (0012) and hour (0014), per payer name and e-mail (0017). Search
 * prefix indexes are in migrations 0013 and 0015.
 */
export const requestsList = historyList({
  table: 'payment_requests',
  states: RequestState.options,
  draftState: 'Draft',
  actions: requestActions,
  sortColumns: {
    createdAt: 'created_at',
    dueDate: 'due_date',
    amount: 'amount_cents',
    payer: 'payer_display_name',
    state: 'state',
    reference: 'number',
  },
  payerColumn: 'payer_id',
  amountColumn: 'amount_cents',
  batchColumn: 'batch_id',
  refunds: { refundedColumn: 'refunded_cents', paidColumn: 'amount_paid_cents' },
  // What each row was made for: every source's own filters (ADR 045).
  sources: {
    kindColumn: 'source_kind',
    idColumn: 'source_id',
    recordColumn: 'source',
    filters: REQUEST_SOURCES.flatMap((source) => (source.filters ?? []).map((f) => ({ param: f.param, kind: source.kind, on: f.on }))),
  },
  // The days a billing report counts a request and its payments on (ADR 039).
  sentColumn: 'first_sent_at',
  payments: { table: 'payments', rowColumn: 'request_id', processedColumn: 'processed_at', returnedColumn: 'returned_at' },
  counts: {
    byState: 'payment_request_counts',
    byDayAndState: 'payment_request_day_counts',
    historyDays: 'payment_request_history_days',
    historyHours: 'payment_request_history_hours',
    search: 'payment_request_search_counts',
  },
  search: {
    name: 'payer_display_name',
    email: 'payer_email',
    numbers: [
      { column: 'number', parse: parseReferenceNumber },
      // A request made for a numbered source is found by the source's number too (INV-0042, migration 0055).
      ...REQUEST_SOURCES.flatMap((source) =>
        source.searchNumber ? [{ column: 'source_number', parse: source.searchNumber, also: { column: 'source_kind', value: source.kind } }] : [],
      ),
    ],
  },
});

/** The source filters a query uses that keep a record of being read (a patient's statements, ADR 037). */
function readFilters(query: ListQuery): { filter: SourceFilter & { onRead: NonNullable<SourceFilter['onRead']> }; value: string }[] {
  const given = query as unknown as Record<string, unknown>;
  return REQUEST_SOURCES.flatMap((source) =>
    (source.filters ?? []).flatMap((filter) => {
      const value = given[filter.param];
      return filter.onRead && typeof value === 'string' && value !== '' ? [{ filter: { ...filter, onRead: filter.onRead }, value }] : [];
    }),
  );
}

/**
 * One page of the transaction history or the drafts, with the session behind `sessionToken`
 * checked by the same statement that reads the page (see `apps/api/src/db/history-engine/engine.ts`).
 * Filtered by a source whose reads are on record (a patient's statements, `clientId`), the page and
 * the record of its read (see {@link recordHistoryRead}) are one transaction.
 */
export async function listRequests(args: { db: Kysely<DB>; businessId: string; sessionToken: string; query: ListQuery; ip?: string | null }) {
  const { db, businessId, sessionToken, query } = args;
  if (readFilters(query).length === 0) return requestsList.page({ db, businessId, sessionToken, query });
  return db.transaction().execute(async (trx) => {
    // The page checks the session and membership first: a refused read records nothing.
    const page = await requestsList.page({ db: trx, businessId, sessionToken, query });
    const user = await trx
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.email', 'u.name'])
      .where('s.token', '=', sessionToken)
      .executeTakeFirst();
    if (!user) throw AppError.signInRequired();
    await recordHistoryRead(trx, { businessId, query, user: { ...user, ip: args.ip ?? null } });
    return page;
  });
}

/** The history (or its CSV) read with filters whose sources keep a record of it: each records it. */
export async function recordHistoryRead(db: Executor, { businessId, query, user }: { businessId: string; query: ListQuery; user: Reader }): Promise<void> {
  for (const { filter, value } of readFilters(query)) await filter.onRead(db, { businessId, value, user });
}
