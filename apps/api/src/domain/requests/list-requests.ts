import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { type RequestListQuery, RequestState, type PaymentRequest } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { parseReferenceNumber, toPaymentRequest } from './request-record';

export type ListQuery = ReturnType<typeof RequestListQuery.parse>;

/** Up to this offset a page is read straight off the index; beyond it, by a deferred join. */
const DIRECT_OFFSET_LIMIT = 2000;

/** What a list row needs (not the link hash, the reminder step or the creator). */
const LIST_COLUMNS = [
  'business_id',
  'id',
  'number',
  'state',
  'payer_id',
  'payer_display_name',
  'payer_email',
  'amount_cents',
  'amount_paid_cents',
  'memo',
  'reference',
  'due_date',
  'expires_on',
  'allow_partial',
  'send_at',
  'sent_at',
  'paid_at',
  'created_at',
  'updated_at',
] as const;

const SORT_COLUMN = {
  createdAt: 'created_at',
  dueDate: 'due_date',
  amount: 'amount_cents',
  payer: 'payer_display_name',
  state: 'state',
  reference: 'number',
} as const;

function states(status: string | undefined): RequestState[] | null {
  if (!status) return null;
  const wanted = status.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = wanted.filter((s) => !RequestState.safeParse(s).success);
  if (bad.length > 0) {
    throw AppError.validation(`Unknown status: ${bad.join(', ')}.`, { status: `Use any of: ${RequestState.options.join(', ')}.` });
  }
  return wanted as RequestState[];
}

const zoneOf = (businessId: string) => sql<string>`(SELECT time_zone FROM businesses WHERE id = ${businessId})`;

/** The WHERE clause shared by the list, its total and the CSV export. */
export function requestFilter(businessId: string, query: ListQuery) {
  const timeZone = zoneOf(businessId);
  const wanted = states(query.status);
  if (query.minAmountCents !== undefined && query.maxAmountCents !== undefined && query.minAmountCents > query.maxAmountCents) {
    throw AppError.validation('The smallest amount is larger than the largest.', { minAmountCents: 'Must not be above the largest amount.' });
  }
  if (query.from && query.to && query.from > query.to) {
    throw AppError.validation('The date range ends before it starts.', { from: 'Must not be after the end date.' });
  }
  return (eb: ExpressionBuilder<DB, 'payment_requests'>): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('business_id', '=', businessId)];
    // Literal predicates: each matches its partial index (migration 0009).
    and.push(query.view === 'draft' ? sql<SqlBool>`state = 'Draft'` : sql<SqlBool>`state <> 'Draft'`);
    if (wanted) and.push(eb('state', 'in', wanted));
    if (query.payerId) and.push(eb('payer_id', '=', query.payerId));
    // Dates are calendar days of the business's time zone.
    if (query.from) and.push(eb('created_at', '>=', sql<Date>`(${query.from}::date)::timestamp AT TIME ZONE ${timeZone}`));
    if (query.to) and.push(eb('created_at', '<', sql<Date>`((${query.to}::date) + 1)::timestamp AT TIME ZONE ${timeZone}`));
    if (query.minAmountCents !== undefined) and.push(eb('amount_cents', '>=', query.minAmountCents));
    if (query.maxAmountCents !== undefined) and.push(eb('amount_cents', '<=', query.maxAmountCents));
    if (query.search) {
      const text = query.search.toLowerCase();
      const prefix = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const number = parseReferenceNumber(text);
      const or: Expression<SqlBool>[] = [
        eb(sql<string>`lower(payer_display_name)`, 'like', prefix),
        eb('payer_email', 'like', prefix),
      ];
      if (number !== null) or.push(eb('number', '=', number));
      and.push(eb.or(or));
    }
    return eb.and(and);
  };
}

export interface RequestPage {
  items: PaymentRequest[];
  page: number;
  pageSize: number;
  total: number;
}

/**
 * The transaction history / drafts list: filters, search, sort and exact pagination. The page is
 * found on the covering index first and only its rows are read whole (a deferred join), so a deep
 * page costs an index walk, not a million row reads.
 */
export async function listRequests({ db, businessId, userId, query }: { db: Kysely<DB>; businessId: string; userId: string; query: ListQuery }): Promise<RequestPage> {
  const where = requestFilter(businessId, query);
  const column = SORT_COLUMN[query.sortBy];
  const direction = query.sortDirection;

  const offset = (query.page - 1) * query.pageSize;
  // Near the top a plain index walk is cheapest; deep down, the page is found on the covering
  // index first and only its rows are read (a deferred join).
  const rowsQuery =
    offset <= DIRECT_OFFSET_LIMIT
      ? db.selectFrom('payment_requests').select(LIST_COLUMNS).where(where).orderBy(column, direction).orderBy('id', direction).limit(query.pageSize).offset(offset)
      : db
          .selectFrom('payment_requests')
          .select(LIST_COLUMNS)
          .where('business_id', '=', businessId)
          .where('id', 'in', db.selectFrom('payment_requests').select('id').where(where).orderBy(column, direction).orderBy('id', direction).limit(query.pageSize).offset(offset))
          .orderBy(column, direction)
          .orderBy('id', direction);

  // Two round trips in parallel: the page, and the total with the membership check (a business
  // the person does not belong to is 404, like one that does not exist; its rows never leave).
  const [rows, total] = await Promise.all([rowsQuery.execute(), countRequests(db, businessId, userId, query, where)]);
  return { items: rows.map((r) => toPaymentRequest(r)), page: query.page, pageSize: query.pageSize, total };
}

/**
 * The exact total. Filtered only by view and status, it comes from the per-state counts kept by
 * the database (no rows read); any other filter counts the matching rows, which those filters'
 * indexes keep few.
 */
async function countRequests(db: Kysely<DB>, businessId: string, userId: string, query: ListQuery, where: ReturnType<typeof requestFilter>): Promise<number> {
  const isMember = sql<boolean>`EXISTS (SELECT 1 FROM business_members WHERE business_id = ${businessId} AND user_id = ${userId})`;
  const onlyStates = !query.search && !query.payerId && !query.from && !query.to && query.minAmountCents === undefined && query.maxAmountCents === undefined;
  if (onlyStates) {
    const wanted = states(query.status) ?? RequestState.options;
    const inView = wanted.filter((s) => (query.view === 'draft' ? s === 'Draft' : s !== 'Draft'));
    const row = await db
      .selectNoFrom((eb) => [
        isMember.as('member'),
        eb
          .selectFrom('payment_request_counts')
          .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
          .where('business_id', '=', businessId)
          .where(inView.length > 0 ? (e) => e('state', 'in', inView) : sql<boolean>`false`)
          .as('n'),
      ])
      .executeTakeFirstOrThrow();
    if (!row.member) throw AppError.notFound('Business');
    return Number(row.n ?? 0);
  }
  const row = await db
    .selectFrom('payment_requests')
    .select((eb) => [eb.fn.countAll<number>().as('n'), isMember.as('member')])
    .where(where)
    .executeTakeFirstOrThrow();
  if (!row.member) throw AppError.notFound('Business');
  return Number(row.n);
}
