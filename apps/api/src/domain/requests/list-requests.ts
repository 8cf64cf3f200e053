import { sql, type Compilable, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
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

type Direction = 'asc' | 'desc';
const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');

/**
 * The transaction history / drafts list: filters, search, sort and exact pagination.
 *
 * A page is found one of three ways, cheapest first:
 * - keyset (`after` / `before` a row of the neighbouring page): an index seek to that row, then
 *   one page of index entries — the same cost at page 20,000 as at page 2;
 * - near either end, a plain index walk (`OFFSET` up to {@link DIRECT_OFFSET_LIMIT}; in the back
 *   half the walk starts from the other end, so the last page is as cheap as the first);
 * - in the middle, the page is found on the covering index first and only its rows are read
 *   whole (a deferred join), so a jump to a deep page costs an index walk, not row reads.
 */
export async function listRequests({ db, businessId, userId, query }: { db: Kysely<DB>; businessId: string; userId: string; query: ListQuery }): Promise<RequestPage> {
  if (query.after && query.before) {
    throw AppError.validation('Page after one row or before another, not both.', { before: 'Leave out either after or before.' });
  }
  const where = requestFilter(businessId, query);
  const column = SORT_COLUMN[query.sortBy];
  const direction = query.sortDirection;
  const page = (rows: ListRow[], total: number): RequestPage => ({ items: rows.map((r) => toPaymentRequest(r)), page: query.page, pageSize: query.pageSize, total });

  const anchor = query.after ?? query.before;
  if (anchor && query.page > 1) {
    const forward = Boolean(query.after);
    const walk = forward ? direction : flip(direction);
    // (sort value, id) beyond the anchor's, in the walking direction; the anchor is looked up
    // inside this business only, so another business's id finds nothing.
    const beyond = sql<SqlBool>`(${sql.ref(column)}, id) ${sql.raw(walk === 'desc' ? '<' : '>')} (SELECT ${sql.ref(column)}, id FROM payment_requests WHERE business_id = ${businessId} AND id = ${anchor})`;
    const keyset = db.selectFrom('payment_requests').select(LIST_COLUMNS).where(where).where(beyond).orderBy(column, walk).orderBy('id', walk).limit(query.pageSize);
    const { rows, total } = await rowsWithTotal(db, totalQuery(db, businessId, userId, query, where), keyset, column, walk);
    // A page that comes out empty or short before the end (its anchor row was deleted, or rows
    // moved) is read by its number instead.
    const expected = Math.min(query.pageSize, Math.max(0, total - (query.page - 1) * query.pageSize));
    if (rows.length === expected) return page(forward ? rows : rows.reverse(), total);
    return page(await byOffset(db, businessId, query, where, column, direction, total), total);
  }

  const offset = (query.page - 1) * query.pageSize;
  if (offset <= DIRECT_OFFSET_LIMIT) {
    const direct = db.selectFrom('payment_requests').select(LIST_COLUMNS).where(where).orderBy(column, direction).orderBy('id', direction).limit(query.pageSize).offset(offset);
    const { rows, total } = await rowsWithTotal(db, totalQuery(db, businessId, userId, query, where), direct, column, direction);
    return page(rows, total);
  }
  // Deep down, the total (which also checks membership) decides which end to walk from.
  const total = await countRequests(db, businessId, userId, query, where);
  return page(await byOffset(db, businessId, query, where, column, direction, total), total);
}

type ListRow = Parameters<typeof toPaymentRequest>[0];

/** The page by its number, walking from whichever end of the order is nearer. */
async function byOffset(
  db: Kysely<DB>,
  businessId: string,
  query: ListQuery,
  where: ReturnType<typeof requestFilter>,
  column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN],
  direction: Direction,
  total: number,
): Promise<ListRow[]> {
  const offset = (query.page - 1) * query.pageSize;
  if (offset >= total) return [];
  const fromEnd = offset + query.pageSize / 2 > total / 2;
  const walk = fromEnd ? flip(direction) : direction;
  const limit = Math.min(query.pageSize, total - offset);
  const skip = fromEnd ? total - offset - limit : offset;
  const rows =
    skip <= DIRECT_OFFSET_LIMIT
      ? await db.selectFrom('payment_requests').select(LIST_COLUMNS).where(where).orderBy(column, walk).orderBy('id', walk).limit(limit).offset(skip).execute()
      : await db
          .selectFrom('payment_requests')
          .select(LIST_COLUMNS)
          .where('business_id', '=', businessId)
          .where('id', 'in', db.selectFrom('payment_requests').select('id').where(where).orderBy(column, walk).orderBy('id', walk).limit(limit).offset(skip))
          .orderBy(column, walk)
          .orderBy('id', walk)
          .execute();
  return fromEnd ? rows.reverse() : rows;
}

/**
 * The exact total and whether the person belongs to the business, as one row `{ member, n }`.
 * Filtered only by view and status, the total comes from the per-state counts kept by the
 * database (no rows read); any other filter counts the matching rows, which those filters'
 * indexes keep few.
 */
function totalQuery(db: Kysely<DB>, businessId: string, userId: string, query: ListQuery, where: ReturnType<typeof requestFilter>) {
  const isMember = sql<boolean>`EXISTS (SELECT 1 FROM business_members WHERE business_id = ${businessId} AND user_id = ${userId})`;
  const onlyStates = !query.search && !query.payerId && !query.from && !query.to && query.minAmountCents === undefined && query.maxAmountCents === undefined;
  if (onlyStates) {
    const wanted = states(query.status) ?? RequestState.options;
    const inView = wanted.filter((s) => (query.view === 'draft' ? s === 'Draft' : s !== 'Draft'));
    return db.selectNoFrom((eb) => [
      isMember.as('member'),
      eb
        .selectFrom('payment_request_counts')
        .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
        .where('business_id', '=', businessId)
        .where(inView.length > 0 ? (e) => e('state', 'in', inView) : sql<boolean>`false`)
        .as('n'),
    ]);
  }
  return db.selectFrom('payment_requests').select((eb) => [eb.fn.countAll<number>().as('n'), isMember.as('member')]).where(where);
}

async function countRequests(db: Kysely<DB>, businessId: string, userId: string, query: ListQuery, where: ReturnType<typeof requestFilter>): Promise<number> {
  const row = await totalQuery(db, businessId, userId, query, where).executeTakeFirstOrThrow();
  if (!row.member) throw AppError.notFound('Business');
  return Number(row.n ?? 0);
}

/**
 * A page of rows and its total in one round trip: the total row, and the page joined to it
 * only when the person belongs to the business (a business they do not belong to is 404, like
 * one that does not exist; its rows never leave the database).
 */
async function rowsWithTotal(
  db: Kysely<DB>,
  total: ReturnType<typeof totalQuery>,
  rows: Compilable,
  column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN],
  walk: Direction,
): Promise<{ rows: ListRow[]; total: number }> {
  const result = await sql<ListRow & { member: boolean; total: number | string | null }>`
    SELECT t.member, t.n AS total, r.* FROM (${total}) t
    LEFT JOIN LATERAL (${rows}) r ON t.member
    ORDER BY r.${sql.ref(column)} ${sql.raw(walk)}, r.id ${sql.raw(walk)}`.execute(db);
  const first = result.rows[0];
  if (!first?.member) throw AppError.notFound('Business');
  return { rows: result.rows.filter((r) => r.id !== null), total: Number(first.total ?? 0) };
}
