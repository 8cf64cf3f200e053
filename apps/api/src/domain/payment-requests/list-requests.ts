import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { type RequestListQuery, RequestState, requestActions } from '@tay/contract';
import type { DB } from '../../db/schema';
import { shapedQuery, type Params } from '../../db/shaped-query';
import { AppError } from '../../lib/app-error';
import { parseReferenceNumber } from './request-record';

export type ListQuery = ReturnType<typeof RequestListQuery.parse>;

/** Up to this offset a page is read straight off the index; beyond it, by a deferred join. */
const DIRECT_OFFSET_LIMIT = 2000;

/**
 * What a page reads of each row: the item as stored (migration 0016), its state for the actions,
 * and what the page is ordered by.
 */
const listColumns = (column: SortColumn) => [...new Set(['id', 'state', 'list_item', column] as const)];

/** Each state's row actions as JSON, for the items (`requestActions`, which the contract owns). */
const ACTIONS_JSON = sql<string>`CASE state ${sql.join(
  RequestState.options.map((state) => sql`WHEN ${sql.lit(state)} THEN ${sql.lit(JSON.stringify(requestActions(state)))}`),
  sql` `,
)} END`;

/**
 * A page's items as one JSON array, in the list's order, from the stored items: Node neither
 * parses the rows nor writes their JSON, and PostgreSQL only joins texts (ADR 015).
 */
const itemsJson = (column: SortColumn, order: Direction) =>
  sql<string>`'[' || coalesce(string_agg(list_item || ',"actions":' || ${ACTIONS_JSON} || '}', ',' ORDER BY ${sql.ref(column)} ${sql.raw(order)}, id ${sql.raw(order)}), '') || ']'`;

export const SORT_COLUMN = {
  createdAt: 'created_at',
  dueDate: 'due_date',
  amount: 'amount_cents',
  payer: 'payer_display_name',
  state: 'state',
  reference: 'number',
} as const;

type SortColumn = (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN];
type Direction = 'asc' | 'desc';
const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');

function states(status: string | undefined): RequestState[] {
  if (!status) return [];
  const wanted = status
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = wanted.filter((s) => !RequestState.safeParse(s).success);
  if (bad.length > 0) {
    throw AppError.validation(`Unknown status: ${bad.join(', ')}.`, { status: `Use any of: ${RequestState.options.join(', ')}.` });
  }
  return wanted as RequestState[];
}

/** Which filters a list query has: everything its SQL text depends on. */
interface FilterShape {
  view: 'history' | 'draft';
  payer: boolean;
  from: boolean;
  to: boolean;
  min: boolean;
  max: boolean;
  search: boolean;
  searchNumber: boolean;
}

/** The filters' values: only ever parameters of the SQL. */
type FilterValues = {
  businessId: string;
  /** The status filter; empty for none. */
  states: RequestState[];
  payerId: string | undefined;
  from: string | undefined;
  to: string | undefined;
  min: number | undefined;
  max: number | undefined;
  /** The search text, as typed: a match's payer name or e-mail begins with it, in lower case. */
  searchText: string | undefined;
  searchNumber: number | undefined;
};

function filterOf(businessId: string, query: ListQuery): { shape: FilterShape; values: FilterValues } {
  if (query.minAmountCents !== undefined && query.maxAmountCents !== undefined && query.minAmountCents > query.maxAmountCents) {
    throw AppError.validation('The smallest amount is larger than the largest.', { minAmountCents: 'Must not be above the largest amount.' });
  }
  if (query.from && query.to && query.from > query.to) {
    throw AppError.validation('The date range ends before it starts.', { from: 'Must not be after the end date.' });
  }
  const search = query.search || undefined;
  const searchNumber = search === undefined ? null : parseReferenceNumber(search);
  return {
    shape: {
      view: query.view,
      payer: Boolean(query.payerId),
      from: Boolean(query.from),
      to: Boolean(query.to),
      min: query.minAmountCents !== undefined,
      max: query.maxAmountCents !== undefined,
      search: search !== undefined,
      searchNumber: searchNumber !== null,
    },
    values: {
      businessId,
      states: states(query.status),
      payerId: query.payerId || undefined,
      from: query.from,
      to: query.to,
      min: query.minAmountCents,
      max: query.maxAmountCents,
      searchText: search,
      searchNumber: searchNumber ?? undefined,
    },
  };
}

/**
 * `text` begins with the search text, both lower-cased by PostgreSQL's `lower()`: as a byte range
 * `[lower(search), text_prefix_successor(lower(search)))` (migration 0015), which the prefix index
 * answers alone and a reused (generic) plan can still use — a `LIKE` with a parameter cannot, so
 * PostgreSQL would plan every search afresh. Each bound is a sub-select, worked out once per
 * execution: a value the planner cannot see, in custom plans as in the generic one. Bounds it
 * could see made a custom plan, costed from the column's histogram, look cheaper than the generic
 * plan's default guess, and PostgreSQL re-planned every search for good (ADR 015).
 */
function beginsWith(p: Params<FilterValues>, text: Expression<string>) {
  return sql<SqlBool>`(${text} ~>=~ (SELECT lower(${p.searchText})) AND ${text} ~<~ (SELECT text_prefix_successor(lower(${p.searchText}))))`;
}

/** The WHERE clause shared by the list, its total and the CSV export. */
function whereOf(s: FilterShape, p: Params<FilterValues>) {
  // Dates are calendar days of the business's time zone.
  const timeZone = sql<string>`(SELECT time_zone FROM businesses WHERE id = ${p.businessId})`;
  return (eb: ExpressionBuilder<DB, 'payment_requests'>): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('business_id', '=', p.businessId)];
    // Literal predicates: each matches its partial index (migration 0009).
    and.push(s.view === 'draft' ? sql<SqlBool>`state = 'Draft'` : sql<SqlBool>`state <> 'Draft'`);
    if (p.states.length > 0) and.push(eb('state', 'in', p.states));
    if (s.payer) and.push(eb('payer_id', '=', p.payerId));
    if (s.from) and.push(eb('created_at', '>=', sql<Date>`(${p.from}::date)::timestamp AT TIME ZONE ${timeZone}`));
    if (s.to) and.push(eb('created_at', '<', sql<Date>`((${p.to}::date) + 1)::timestamp AT TIME ZONE ${timeZone}`));
    if (s.min) and.push(eb('amount_cents', '>=', p.min));
    if (s.max) and.push(eb('amount_cents', '<=', p.max));
    if (s.search) {
      const or: Expression<SqlBool>[] = [beginsWith(p, sql`lower(payer_display_name)`), beginsWith(p, sql.ref('payer_email'))];
      if (s.searchNumber) or.push(eb('number', '=', p.searchNumber));
      and.push(eb.or(or));
    }
    return eb.and(and);
  };
}

/** The WHERE clause of a list query with its values, for one-off queries such as the CSV export. */
export function requestFilter(businessId: string, query: ListQuery) {
  const { shape, values } = filterOf(businessId, query);
  const params = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v.map((e) => sql.val(e)) : sql.val(v)]));
  return whereOf(shape, params as unknown as Params<FilterValues>);
}

/** A page of the list; its items already JSON (an array of `PaymentRequest`), written by PostgreSQL. */
export interface RequestPage {
  itemsJson: string;
  page: number;
  pageSize: number;
  total: number;
}

/** The list's response body, `{ status: 'Success', data: { items, page, pageSize, total } }`, as JSON. */
export function requestPageJson({ itemsJson, page, pageSize, total }: RequestPage): string {
  return `{"status":"Success","data":{"items":${itemsJson},"page":${page},"pageSize":${pageSize},"total":${total}}}`;
}

/** Everything a page query's SQL text depends on. */
interface PageShape {
  filter: FilterShape;
  /** The total from the per-state counts (no rows read), or by counting the matching rows. */
  totalFromCounts: boolean;
  column: SortColumn;
  /** The order rows are read in, which a page before an anchor row reverses. */
  walk: Direction;
  /** The order of the page as listed. */
  order: Direction;
  /**
   * A search by creation time, filtered at most by status: its total added up from the per-name
   * counts, its page taken from each matching name's and e-mail's newest requests (migration 0017).
   */
  searchByNames: boolean;
  /** Seek past an anchor row (keyset) instead of skipping rows. */
  keyset: boolean;
  /** A literal, so PostgreSQL can keep one generic plan for the query (a parameter here makes it re-plan every time). */
  limit: number;
  /** Whether rows are skipped; an offset of 0 is left out for the same reason. */
  skip: boolean;
}

type PageValues = FilterValues & {
  sessionToken: string;
  now: Date;
  /** The states the total adds up from the counts. */
  totalStates: RequestState[];
  anchor: string | undefined;
  offset: number | undefined;
};

/** Whether the session may read: alive, past the new-password challenge, a member. */
type Admission = { signed_in: boolean; must_change: boolean; member: boolean };

/**
 * The session behind the bearer token, checked as `requireUser` checks it (sessions ⋈ users,
 * unexpired) but inside the list's own statement: one round trip for the hottest read (ADR 010).
 * Left-joined, so that a dead token still gives one row saying so.
 */
function admissionOf(p: Params<Pick<PageValues, 'businessId' | 'sessionToken' | 'now'>>) {
  return sql<Admission>`
    SELECT v.user_id IS NOT NULL AS signed_in, coalesce(v.must_change_password, false) AS must_change,
           coalesce(NOT v.must_change_password AND EXISTS (SELECT 1 FROM business_members WHERE business_id = ${p.businessId} AND user_id = v.user_id), false) AS member
    FROM (SELECT 1) one LEFT JOIN (
      SELECT u.id AS user_id, u.must_change_password FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token = ${p.sessionToken} AND s.expires_at > ${p.now}
    ) v ON true`;
}

/**
 * The exact total. Filtered only by view and status, it comes from the per-state counts kept by
 * the database (no rows read); a search counts its matches (`m`, {@link searchMatches}); any other
 * filter counts the matching rows, which those filters' indexes keep few.
 */
function countOf(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  if (s.searchByNames) return searchCount(db, s, p);
  if (s.filter.search) return sql<number>`(SELECT count(*) FROM m)`;
  if (s.totalFromCounts) {
    return db
      .selectFrom('payment_request_counts')
      .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
      .where('business_id', '=', p.businessId)
      .where(p.totalStates.length > 0 ? (e) => e('state', 'in', p.totalStates) : sql<boolean>`false`);
  }
  return db
    .selectFrom('payment_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(whereOf(s.filter, p));
}

/**
 * The kept counts (migration 0017) a search's names and e-mails match: by name, else by e-mail —
 * each request counted once, as {@link searchMatches} lists it.
 */
function searchCounts(db: Kysely<DB>, s: PageShape, p: Params<PageValues>, by: 'name' | 'email') {
  const byName = beginsWith(p, sql.ref('name_key'));
  // The view and the status filter as the list's own WHERE has them (a literal for the view).
  let counts = db
    .selectFrom('payment_request_search_counts')
    .where('business_id', '=', p.businessId)
    .where(s.filter.view === 'draft' ? sql<SqlBool>`state = 'Draft'` : sql<SqlBool>`state <> 'Draft'`);
  if (p.states.length > 0) counts = counts.where('state', 'in', p.states);
  return by === 'name' ? counts.where(byName) : counts.where(beginsWith(p, sql.ref('payer_email'))).where(sql<SqlBool>`NOT ${byName}`);
}

/**
 * A search's total: its names' and e-mails' requests ({@link searchKeys}), and its TRX number's
 * request (at most one).
 */
function searchCount(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  const byNumber = s.filter.searchNumber ? sql`+ (SELECT count(*) FROM (${numberMatch(db, s, p, ['id'])}) x)` : sql``;
  return sql<number>`(SELECT coalesce(sum(n), 0) FROM search_names) + (SELECT coalesce(sum(n), 0) FROM search_emails) ${byNumber}`;
}

/** The request whose TRX number a search is, unless its name or e-mail matches too (listed by those). */
function numberMatch(db: Kysely<DB>, s: PageShape, p: Params<PageValues>, columns: readonly ('id' | SortColumn)[]) {
  const common = whereOf({ ...s.filter, search: false, searchNumber: false }, p);
  return db
    .selectFrom('payment_requests')
    .select(columns)
    .where(common)
    .where('number', '=', p.searchNumber)
    .where(sql<SqlBool>`NOT ${beginsWith(p, sql`lower(payer_display_name)`)} AND NOT ${beginsWith(p, sql.ref('payer_email'))}`);
}

/**
 * The names (lower-cased) and e-mails a search matches, each with how many requests it has in the
 * states listed (`n`, never 0), as CTEs `search_names` and `search_emails`: from the kept counts.
 */
function searchKeys(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  const n = sql<number>`sum(n)`;
  const names = searchCounts(db, s, p, 'name')
    .select(['name_key', n.as('n')])
    .groupBy('name_key')
    .having(n, '>', sql.lit(0));
  const emails = searchCounts(db, s, p, 'email')
    .select(['payer_email', n.as('n')])
    .groupBy('payer_email')
    .having(n, '>', sql.lit(0));
  return sql`search_names AS MATERIALIZED (${names}), search_emails AS MATERIALIZED (${emails}),`;
}

/**
 * A search's page by creation time from the names and e-mails it matches: each one's first
 * requests in the walking order (past the anchor row, or as many as the rows skipped and the page
 * need), read in order off its prefix index (migration 0017, ADR 016); the page is the first of those.
 * Every match is in exactly one branch, as in {@link searchMatches}.
 */
function searchRowsByNames(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  const common = whereOf({ ...s.filter, search: false, searchNumber: false }, p);
  const walk = sql.raw(s.walk);
  const perKey = s.skip ? sql<number>`(SELECT ${p.offset}::bigint + ${sql.lit(s.limit)})` : sql.lit(s.limit);
  const first = (match: Expression<SqlBool>) => {
    let rows = db.selectFrom('payment_requests').select(['id', 'created_at']).where(common).where(match);
    if (s.keyset)
      rows = rows.where(
        sql<SqlBool>`(created_at, id) ${sql.raw(s.walk === 'desc' ? '<' : '>')} (SELECT created_at, id FROM payment_requests WHERE business_id = ${p.businessId} AND id = ${p.anchor})`,
      );
    return rows.orderBy('created_at', s.walk).orderBy('id', s.walk).limit(perKey);
  };
  const byNumber = s.filter.searchNumber
    ? sql`UNION ALL SELECT id, created_at FROM (${first(sql<SqlBool>`id IN (${numberMatch(db, s, p, ['id'])})`)}) x`
    : sql``;
  const ids = sql`SELECT id FROM (
      SELECT r.id, r.created_at FROM search_names k CROSS JOIN LATERAL (${first(sql<SqlBool>`lower(payer_display_name) = k.name_key`)}) r
      UNION ALL
      SELECT r.id, r.created_at FROM search_emails k CROSS JOIN LATERAL (${first(sql<SqlBool>`payer_email = k.payer_email AND NOT ${beginsWith(p, sql`lower(payer_display_name)`)}`)}) r
      ${byNumber}
    ) m ORDER BY created_at ${walk}, id ${walk} LIMIT ${sql.lit(s.limit)} ${s.skip ? sql`OFFSET ${p.offset}` : sql``}`;
  return db
    .selectFrom('payment_requests')
    .select(listColumns(s.column))
    .where('business_id', '=', p.businessId)
    .where(sql<SqlBool>`id IN (${ids})`);
}

/** The total and who may read it, as one row `{ signed_in, must_change, member, n }`; no total for one who may not. */
function totalOf(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  return sql<
    Admission & { n: number | string | null }
  >`SELECT w.signed_in, w.must_change, w.member, CASE WHEN w.member THEN (${countOf(db, s, p)}) END AS n FROM (${admissionOf(p)}) w`;
}

/**
 * The requests a search matches, each once: by the payer's name, else by e-mail, else by TRX
 * number. Each branch is read from its prefix index alone (migration 0013), so a search
 * matching a thousand requests counts and orders them without reading a row (ADR 010); an OR
 * of the three would read every matching row to recheck it.
 */
function searchMatches(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  const common = whereOf({ ...s.filter, search: false, searchNumber: false }, p);
  const columns = s.column === 'created_at' ? (['id', 'created_at'] as const) : (['id', s.column] as const);
  const byName = beginsWith(p, sql`lower(payer_display_name)`);
  const byEmail = beginsWith(p, sql.ref('payer_email'));
  const branch = () => db.selectFrom('payment_requests').select(columns).where(common);
  let matches = branch()
    .where(byName)
    .unionAll(
      branch()
        .where(byEmail)
        .where(sql<SqlBool>`NOT ${byName}`),
    );
  if (s.filter.searchNumber) matches = matches.unionAll(numberMatch(db, s, p, columns));
  return matches;
}

/** The page of a search: its ids from the matches, in order, then only those rows read. */
function searchRowsOf(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  const beyond = s.keyset
    ? sql`WHERE (${sql.ref(s.column)}, id) ${sql.raw(s.walk === 'desc' ? '<' : '>')} (SELECT ${sql.ref(s.column)}, id FROM payment_requests WHERE business_id = ${p.businessId} AND id = ${p.anchor})`
    : sql``;
  const ids = sql`SELECT id FROM m ${beyond} ORDER BY ${sql.ref(s.column)} ${sql.raw(s.walk)}, id ${sql.raw(s.walk)} LIMIT ${sql.lit(s.limit)} ${s.skip ? sql`OFFSET ${p.offset}` : sql``}`;
  return db
    .selectFrom('payment_requests')
    .select(listColumns(s.column))
    .where('business_id', '=', p.businessId)
    .where(sql<SqlBool>`id IN (${ids})`);
}

const admissionOnly = shapedQuery((_: null, p: Params<Pick<PageValues, 'businessId' | 'sessionToken' | 'now'>>) => admissionOf(p));

/** 401, 403 or 404 unless the session may read this business's list. */
function admit(row: Admission | undefined): void {
  if (!row?.signed_in) throw AppError.signInRequired();
  if (row.must_change) throw AppError.newPasswordRequired();
  if (!row.member) throw AppError.notFound('Business');
}

/** One page of rows in the walking direction: after an anchor row, or after skipping `offset` rows. */
function rowsOf(db: Kysely<DB>, s: PageShape, p: Params<PageValues>) {
  let rows = db.selectFrom('payment_requests').select(listColumns(s.column)).where(whereOf(s.filter, p));
  if (s.keyset) {
    // (sort value, id) beyond the anchor's, in the walking direction; the anchor is looked up
    // inside this business only, so another business's id finds nothing.
    rows = rows.where(
      sql<SqlBool>`(${sql.ref(s.column)}, id) ${sql.raw(s.walk === 'desc' ? '<' : '>')} (SELECT ${sql.ref(s.column)}, id FROM payment_requests WHERE business_id = ${p.businessId} AND id = ${p.anchor})`,
    );
  }
  rows = rows.orderBy(s.column, s.walk).orderBy('id', s.walk).limit(sql.lit(s.limit));
  return s.skip ? rows.offset(p.offset) : rows;
}

/** The total, who may read it, and the page: one row. */
type PageRow = Admission & { total: number | string | null; count: number | string; items: string };

/**
 * A page of rows and its total in one round trip: the total-and-admission row with the page's
 * items beside it as one JSON array — read only when the session may (a business the person does
 * not belong to is 404, like one that does not exist; its rows never leave the database).
 */
const pageWithTotal = shapedQuery(
  (s: PageShape, p: Params<PageValues>, db) => sql<PageRow>`
    WITH ${!s.filter.search ? sql`` : s.searchByNames ? searchKeys(db, s, p) : sql`m AS MATERIALIZED (${searchMatches(db, s, p)}),`}
    t AS MATERIALIZED (${totalOf(db, s, p)})
    SELECT t.signed_in, t.must_change, t.member, t.n AS total, page.count, page.items FROM t
    CROSS JOIN LATERAL (
      SELECT count(*) AS count, ${itemsJson(s.column, s.order)} AS items
      FROM (${!s.filter.search ? rowsOf(db, s, p) : s.searchByNames ? searchRowsByNames(db, s, p) : searchRowsOf(db, s, p)}) r WHERE t.member
    ) page`,
);

/**
 * The ids of a page far down the list, walking `s.walk` and skipping `skip` rows (an SQL
 * expression, which may depend on the total). By creation time with at most a status filter, the
 * days (migration 0012) are added up from the walking end until the one holding the page's first
 * row (CTE `<cte>_day`), and only that day's index entries before it are skipped — for the whole
 * history view, only its hour's (migration 0014); in any other order or with other filters, the
 * covering index is walked. Either way only the page's rows are read whole. The whole history
 * view adds up one total a day; a status filter or the drafts, their states' counts.
 */
function farWalk(db: Kysely<DB>, s: PageShape, p: Params<PageValues>, skip: Expression<number>, cte: string) {
  const walk = db
    .selectFrom('payment_requests')
    .select('id')
    .where(whereOf(s.filter, p))
    .orderBy(s.column, s.walk)
    .orderBy('id', s.walk)
    .limit(sql.lit(s.limit));
  if (!(s.column === 'created_at' && s.totalFromCounts)) return { with: null, ids: walk.offset(skip) };
  const dir = sql.raw(s.walk);
  const desc = s.walk === 'desc';
  const wholeHistory = s.filter.view === 'history' && p.states.length === 0;
  const days = wholeHistory
    ? db.selectFrom('payment_request_history_days').select(['day', 'n']).where('business_id', '=', p.businessId)
    : db
        .selectFrom('payment_request_day_counts')
        .select(['day', sql<number>`sum(n)::bigint`.as('n')])
        .where('business_id', '=', p.businessId)
        .where(p.totalStates.length > 0 ? (e) => e('state', 'in', p.totalStates) : sql<boolean>`false`)
        .groupBy('day');
  const d = sql.table(`${cte}_day`);
  // The day holding the page's first row, and how many rows the days nearer the walking end hold.
  const day = sql`${d} AS (
      SELECT day, through - n AS before FROM (SELECT day, n, sum(n) OVER (ORDER BY day ${dir}) AS through FROM (${days}) g) w
      WHERE through > ${skip} ORDER BY day ${dir} LIMIT 1
    )`;
  if (!wholeHistory) {
    const start = sql<SqlBool>`created_at ${sql.raw(desc ? '<' : '>=')} to_timestamp(((SELECT day FROM ${d}) + ${sql.lit(desc ? 1 : 0)}) * 86400)`;
    return { with: day, ids: walk.where(start).offset(sql<number>`(SELECT ${skip} - before FROM ${d})`) };
  }
  // The whole history view narrows the day to its hour (migration 0014): at most an hour's rows are walked.
  const h = sql.table(`${cte}_hour`);
  const hour = sql`${h} AS (
      SELECT hour, through - n AS before FROM (
        SELECT hour, n, (SELECT before FROM ${d}) + sum(n) OVER (ORDER BY hour ${dir}) AS through FROM payment_request_history_hours
        WHERE business_id = ${p.businessId} AND hour >= (SELECT day FROM ${d}) * 24 AND hour < ((SELECT day FROM ${d}) + 1) * 24
      ) w
      WHERE through > ${skip} ORDER BY hour ${dir} LIMIT 1
    )`;
  const start = sql<SqlBool>`created_at ${sql.raw(desc ? '<' : '>=')} to_timestamp(((SELECT hour FROM ${h}) + ${sql.lit(desc ? 1 : 0)}) * 3600)`;
  return { with: sql`${day}, ${hour}`, ids: walk.where(start).offset(sql<number>`(SELECT ${skip} - before FROM ${h})`) };
}

/**
 * A page far down the list by its number, with its total and admission, in one statement. Found by
 * adding up days and hours, a page costs about the same from either end, and is walked to in the
 * list's order. Otherwise, which end is nearer depends on the total, so both walks are in the
 * statement and the total lets only one of them run: the page in its own order, or from the other
 * end — which on a short last page brings rows of the page before it too, left out here (only the
 * `n - offset` nearest the end).
 */
const farPage = shapedQuery((s: PageShape, p: Params<PageValues>, db) => {
  const rows = (ids: ReturnType<typeof farWalk>['ids']) =>
    db.selectFrom('payment_requests').select(listColumns(s.column)).where('business_id', '=', p.businessId).where('id', 'in', ids);
  const forward = farWalk(db, s, p, p.offset, 'd_forward');
  if (forward.with !== null) {
    // Found by adding up days and hours, a page costs about the same from either end: one walk.
    return sql<Omit<PageRow, 'count'>>`
      WITH t AS MATERIALIZED (${totalOf(db, s, p)}), ${forward.with}
      SELECT t.signed_in, t.must_change, t.member, t.n AS total, page.items FROM t
      CROSS JOIN LATERAL (SELECT ${itemsJson(s.column, s.order)} AS items FROM (${rows(forward.ids)}) r WHERE t.member AND ${p.offset} < t.n) page`;
  }
  // Walking the covering index: from the nearer end. Past the middle of the list, from the end.
  const back = flip(s.walk);
  const backward = farWalk(db, { ...s, walk: back }, p, sql<number>`(SELECT greatest(0, n - ${p.offset} - ${sql.lit(s.limit)}) FROM t)`, 'd_backward');
  const fromEnd = sql<SqlBool>`2 * ${p.offset} + ${sql.lit(s.limit)} > t.n`;
  const columns = sql.join(listColumns(s.column).map((c) => sql.ref(c)));
  return sql<Omit<PageRow, 'count'>>`
    WITH t AS MATERIALIZED (${totalOf(db, s, p)})
    SELECT t.signed_in, t.must_change, t.member, t.n AS total, page.items FROM t
    CROSS JOIN LATERAL (
      SELECT ${itemsJson(s.column, s.order)} AS items FROM (
        SELECT ${columns} FROM (${rows(forward.ids)}) f WHERE t.member AND ${p.offset} < t.n AND NOT ${fromEnd}
        UNION ALL
        SELECT ${columns} FROM (
          SELECT b.*, row_number() OVER (ORDER BY ${sql.ref(s.column)} ${sql.raw(back)}, id ${sql.raw(back)}) AS k FROM (${rows(backward.ids)}) b
          WHERE t.member AND ${p.offset} < t.n AND ${fromEnd}
        ) b WHERE k <= t.n - ${p.offset}
      ) r
    ) page`;
});

/**
 * The transaction history / drafts list: filters, search, sort and exact pagination.
 *
 * A page is found one of three ways, cheapest first:
 * - keyset (`after` / `before` a row of the neighbouring page): an index seek to that row, then
 *   one page of index entries — the same cost at page 20,000 as at page 2;
 * - near the start, a plain index walk (`OFFSET` up to {@link DIRECT_OFFSET_LIMIT});
 * - further down, by creation time (the default order) and at most a status filter, the page is
 *   found by adding up days and hours; in any other order or with other filters, on the covering
 *   index walked from the nearer end, and only its rows read whole (a deferred join); either way
 *   in one statement with the total (see {@link farPage});
 * - a search by creation time, with at most a status filter, from the names and e-mails it
 *   matches: its total from their kept counts, its page from each one's newest requests
 *   (ADR 016, {@link searchRowsByNames}); any other search from all of its matches.
 *
 * The session behind `sessionToken` is checked by the same statement that reads the page (401, 403
 * or 404 as `requireUser` and membership would answer). Each query is built once per shape (ADR
 * 010): a repeated request neither builds nor plans SQL.
 */
export async function listRequests({
  db,
  businessId,
  sessionToken,
  query,
}: {
  db: Kysely<DB>;
  businessId: string;
  sessionToken: string;
  query: ListQuery;
}): Promise<RequestPage> {
  let filter: ReturnType<typeof filterOf>;
  try {
    if (query.after && query.before) {
      throw AppError.validation('Page after one row or before another, not both.', { before: 'Leave out either after or before.' });
    }
    filter = filterOf(businessId, query);
  } catch (error) {
    // Someone who may not read the list hears 401, 403 or 404 first, as from requireUser.
    admit((await db.executeQuery(admissionOnly(db, null, { businessId, sessionToken, now: new Date() }))).rows[0]);
    throw error;
  }
  const byStatusAtMost = !filter.shape.payer && !filter.shape.from && !filter.shape.to && !filter.shape.min && !filter.shape.max;
  const wanted = filter.values.states.length > 0 ? filter.values.states : RequestState.options;
  const values: PageValues = {
    ...filter.values,
    sessionToken,
    now: new Date(),
    totalStates: wanted.filter((s) => (query.view === 'draft' ? s === 'Draft' : s !== 'Draft')),
    anchor: query.after ?? query.before,
    offset: undefined,
  };
  const column = SORT_COLUMN[query.sortBy];
  const direction = query.sortDirection;
  const base = {
    filter: filter.shape,
    totalFromCounts: byStatusAtMost && !filter.shape.search,
    searchByNames: byStatusAtMost && filter.shape.search && column === 'created_at',
    column,
    order: direction,
    limit: query.pageSize,
  };
  const page = (itemsJson: string, total: number): RequestPage => ({ itemsJson, page: query.page, pageSize: query.pageSize, total });

  if (values.anchor && query.page > 1) {
    const shape: PageShape = { ...base, walk: query.after ? direction : flip(direction), keyset: true, skip: false };
    const row = await pageRow(db, shape, values);
    // A page that comes out empty or short before the end (its anchor row was deleted, or rows
    // moved) is read by its number instead.
    const expected = Math.min(query.pageSize, Math.max(0, row.total - (query.page - 1) * query.pageSize));
    if (row.count === expected) return page(row.items, row.total);
    if (filter.shape.search) {
      const offset = (query.page - 1) * query.pageSize;
      const byNumber = await pageRow(db, { ...shape, walk: direction, keyset: false, skip: offset > 0 }, { ...values, offset });
      return page(byNumber.items, byNumber.total);
    }
    return farPageOf(db, { ...shape, walk: direction, keyset: false, skip: true }, values, query, page);
  }

  const offset = (query.page - 1) * query.pageSize;
  // A search's matches are few and read from its index, so any of its pages comes in one statement.
  if (offset <= DIRECT_OFFSET_LIMIT || filter.shape.search) {
    const row = await pageRow(db, { ...base, walk: direction, keyset: false, skip: offset > 0 }, { ...values, offset });
    return page(row.items, row.total);
  }
  return farPageOf(db, { ...base, walk: direction, keyset: false, skip: true }, values, query, page);
}

/** A page by its number far down the list (see {@link farPage}). */
async function farPageOf(
  db: Kysely<DB>,
  shape: PageShape,
  values: PageValues,
  query: ListQuery,
  page: (itemsJson: string, total: number) => RequestPage,
): Promise<RequestPage> {
  const row = (await db.executeQuery(farPage(db, shape, { ...values, offset: (query.page - 1) * query.pageSize }))).rows[0];
  admit(row);
  return page(row!.items, Number(row!.total ?? 0));
}

async function pageRow(db: Kysely<DB>, shape: PageShape, values: PageValues): Promise<{ items: string; count: number; total: number }> {
  const row = (await db.executeQuery(pageWithTotal(db, shape, values))).rows[0];
  admit(row);
  return { items: row!.items, count: Number(row!.count), total: Number(row!.total ?? 0) };
}
