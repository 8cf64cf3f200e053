import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { AppError } from '../../lib/app-error';
import type { DB } from '../schema';
import { shapedQuery, type Params } from '../shaped-query';
import { admissionOf, admit, type Admission } from './admission';
import { beginsWith } from './prefix';

/**
 * The history engine (ADR 030, 043): one business's list of money rows — filtered, searched, sorted
 * and paged exactly — in one statement per page, however long the list. A list declares its table,
 * states, sort columns and kept counts ({@link HistoryListDefinition}); the engine owns the page
 * shapes, the keyset anchors, the totals, the JSON envelope and the session check.
 */

/** The table a list reads, seen by the engine: the columns the definition names, untyped. */
type Tables = Record<string, Record<string, unknown>>;
type Db = Kysely<Tables>;
const loose = (db: Kysely<DB>) => db as unknown as Db;

export type Direction = 'asc' | 'desc';
export type View = 'history' | 'draft';
const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');

/** The day ranges beside the creation days (`from`, `to`): each pair, and what a reversed one is called. */
const DAY_RANGES = [
  ['sentFrom', 'sentTo', 'sent'],
  ['paidFrom', 'paidTo', 'paid'],
  ['returnedFrom', 'returnedTo', 'returned'],
] as const;

/** Up to this offset a page is read straight off the index; beyond it, by a deferred join. */
const DIRECT_OFFSET_LIMIT = 2000;

/**
 * What a list is. Its table has `id`, `business_id`, `state`, `created_at` and `list_item` (the
 * row's JSON object as stored, without its closing brace: the engine adds the row's actions), and
 * a covering index per sort. The database keeps its counts in four tables, each with
 * `business_id` and `n`:
 * - `byState` (`state`): the rows per state;
 * - `byDayAndState` (`day` — days since 1970 in UTC — and `state`);
 * - `historyDays` (`day`) and `historyHours` (`hour`, hours since 1970): the history view's rows;
 * - `search` (`state`, `name_key` — the lower-cased name — and the e-mail column): the rows per
 *   name and e-mail.
 * A new list brings these with its migration, triggers and a recount test (ADR 030).
 */
export interface HistoryListDefinition<State extends string, Sort extends string> {
  table: string;
  states: readonly State[];
  /** The drafts view lists this state only; the history view every other state. */
  draftState: State;
  /** Each state's row actions, as the contract names them. */
  actions: (state: State) => readonly string[];
  /** The sort keys of the list query and the column each sorts by. */
  sortColumns: Record<Sort, string>;
  /** The column the `payerId` filter and the amount range apply to. */
  payerColumn: string;
  amountColumn: string;
  /** The column the `batchId` filter applies to (the bulk batch that made a row), if the list has one. */
  batchColumn?: string;
  /**
   * The `refunded` filter (ADR 051), if the list has one: the columns of what was refunded and what
   * was received. Any refund is `refunded > 0`, which a partial index of the list keeps few.
   */
  refunds?: { refundedColumn: string; paidColumn: string };
  /**
   * Filters on what a row was made for (its source, ADR 045), if the list has them: the columns of
   * the source's kind, its record's id and its record (JSON), and each filter — its query
   * parameter, the kind it is of, and whether it compares the record's id (`any` naming every
   * record of the kind) or a path in the record.
   */
  sources?: {
    kindColumn: string;
    idColumn: string;
    recordColumn: string;
    filters: readonly { param: string; kind: string; on: { id: true; any?: string | undefined } | { path: readonly string[] } }[];
  };
  /** The column the `sentFrom`/`sentTo` days apply to (when a row was first sent), if the list has one. */
  sentColumn?: string;
  /**
   * A row's payments, for the `paidFrom`/`paidTo` and `returnedFrom`/`returnedTo` days (rows with a
   * payment processed, or returned, on those days), if the list has them: their table (with
   * `business_id`), the column naming the row, and when each payment was processed and returned.
   */
  payments?: { table: string; rowColumn: string; processedColumn: string; returnedColumn: string };
  counts: { byState: string; byDayAndState: string; historyDays: string; historyHours: string; search: string };
  search: {
    /** The name searched, by prefix of its lower case. */
    name: string;
    /** The e-mail searched, by prefix (stored lower-cased). */
    email: string;
    /**
     * The reference numbers the search text may be, each its column and how to read it, tried in
     * order: the first that reads the text is searched (`TRX-10234`, then `INV-0042` on the
     * invoice's number a request carries).
     */
    numbers: readonly { column: string; parse: (text: string) => number | null; also?: { column: string; value: string } }[];
  };
}

/** What a list's query says; the contract's list query of each list has these fields. */
export interface HistoryQuery<Sort extends string> {
  view: View;
  status?: string | undefined;
  payerId?: string | undefined;
  batchId?: string | undefined;
  refunded?: 'any' | 'Refunded' | 'PartiallyRefunded' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  sentFrom?: string | undefined;
  sentTo?: string | undefined;
  paidFrom?: string | undefined;
  paidTo?: string | undefined;
  returnedFrom?: string | undefined;
  returnedTo?: string | undefined;
  minAmountCents?: number | undefined;
  maxAmountCents?: number | undefined;
  search?: string | undefined;
  sortBy: Sort;
  sortDirection: Direction;
  page: number;
  pageSize: number;
  after?: string | undefined;
  before?: string | undefined;
}

/** A page of a list; its items already JSON (an array), written by PostgreSQL. */
export interface HistoryPage {
  itemsJson: string;
  page: number;
  pageSize: number;
  total: number;
}

/** A list's response body, `{ status: 'Success', data: { items, page, pageSize, total } }`, as JSON. */
export function historyPageJson({ itemsJson, page, pageSize, total }: HistoryPage): string {
  return `{"status":"Success","data":{"items":${itemsJson},"page":${page},"pageSize":${pageSize},"total":${total}}}`;
}

/** Which filters a list query has: everything its SQL text depends on. */
interface FilterShape {
  view: View;
  payer: boolean;
  batch: boolean;
  /** The refund filter given, a literal of the SQL: '' for none. */
  refunded: '' | 'any' | 'Refunded' | 'PartiallyRefunded';
  /** The source filters given (their parameters), each `param` or `param:any`, in the definition's order. */
  sources: string[];
  from: boolean;
  to: boolean;
  sentFrom: boolean;
  sentTo: boolean;
  paidFrom: boolean;
  paidTo: boolean;
  returnedFrom: boolean;
  returnedTo: boolean;
  min: boolean;
  max: boolean;
  search: boolean;
  searchNumber: boolean;
  /** Which of `search.numbers` the text reads as (its index), when `searchNumber`; -1 otherwise. */
  searchNumberAt: number;
}

/** The filters' values: only ever parameters of the SQL. */
type FilterValues = {
  businessId: string;
  /** The status filter; empty for none. */
  states: string[];
  payerId: string | undefined;
  batchId: string | undefined;
  /** The values of the source filters that compare one (not `any`), in the shape's order. */
  sourceValues: string[];
  from: string | undefined;
  to: string | undefined;
  sentFrom: string | undefined;
  sentTo: string | undefined;
  paidFrom: string | undefined;
  paidTo: string | undefined;
  returnedFrom: string | undefined;
  returnedTo: string | undefined;
  min: number | undefined;
  max: number | undefined;
  /** The search text, as typed: a match's name or e-mail begins with it, in lower case. */
  searchText: string | undefined;
  searchNumber: number | undefined;
};

/** Everything a page query's SQL text depends on. */
interface PageShape {
  filter: FilterShape;
  /** The total from the per-state counts (no rows read), or by counting the matching rows. */
  totalFromCounts: boolean;
  column: string;
  /** The order rows are read in, which a page before an anchor row reverses. */
  walk: Direction;
  /** The order of the page as listed. */
  order: Direction;
  /**
   * A search by creation time, filtered at most by status: its total added up from the per-name
   * counts, its page taken from each matching name's and e-mail's newest rows (ADR 016).
   */
  searchByNames: boolean;
  /** Seek past an anchor row (keyset) instead of skipping rows. */
  keyset: boolean;
  /** The matches are found on a filter's own index and sorted, rather than walked to in order ({@link orderOf}). */
  sortMatches: boolean;
  /** A literal, so PostgreSQL can keep one generic plan for the query (a parameter here makes it re-plan every time). */
  limit: number;
  /** Whether rows are skipped; an offset of 0 is left out for the same reason. */
  skip: boolean;
}

type PageValues = FilterValues & {
  sessionToken: string;
  now: Date;
  /** The states the total adds up from the counts. */
  totalStates: string[];
  anchor: string | undefined;
  offset: number | undefined;
};

/** The total, who may read it, and the page: one row. */
type PageRow = Admission & { total: number | string | null; count: number | string; items: string };

/** A list built from its definition: its page reader, its filter for one-off queries, its export walk. */
export interface HistoryList<Sort extends string> {
  /**
   * One page: filters, search, sort and exact pagination, with the session behind `sessionToken`
   * checked by the same statement (401, 403 or 404, as the endpoint mount answers).
   */
  page(args: { db: Kysely<DB>; businessId: string; sessionToken: string; query: HistoryQuery<Sort> }): Promise<HistoryPage>;
  /**
   * Every row the list's query matches, whole (`select *`, plus `sort_key`: the sort value as
   * text), in its order, in batches by keyset on (sort column, id): memory stays flat however many
   * rows match. The filters are checked before the first batch.
   */
  batches<Row>(args: {
    db: Kysely<DB>;
    businessId: string;
    query: HistoryQuery<Sort>;
    batchSize: number;
  }): AsyncGenerator<(Row & { sort_key: string; id: string })[]>;
}

export function historyList<State extends string, Sort extends string>(def: HistoryListDefinition<State, Sort>): HistoryList<Sort> {
  const T = def.table;
  const C = def.counts;

  /** The view as a literal predicate: each matches its partial index. */
  const viewPredicate = (view: View) => sql<SqlBool>`state ${sql.raw(view === 'draft' ? '=' : '<>')} ${sql.lit(def.draftState)}`;

  /** What a page reads of each row: the item as stored, its state for the actions, and what the page is ordered by. */
  const listColumns = (column: string) => [...new Set(['id', 'state', 'list_item', column])];

  /** Each state's row actions as JSON. */
  const actionsJson = sql<string>`CASE state ${sql.join(
    def.states.map((state) => sql`WHEN ${sql.lit(state)} THEN ${sql.lit(JSON.stringify(def.actions(state)))}`),
    sql` `,
  )} END`;

  /**
   * A page's items as one JSON array, in the list's order, from the stored items: Node neither
   * parses the rows nor writes their JSON, and PostgreSQL only joins texts (ADR 015).
   */
  const itemsJson = (column: string, order: Direction) =>
    sql<string>`'[' || coalesce(string_agg(list_item || ',"actions":' || ${actionsJson} || '}', ',' ORDER BY ${sql.ref(column)} ${sql.raw(order)}, id ${sql.raw(order)}), '') || ']'`;

  const nameOf = sql<string>`lower(${sql.ref(def.search.name)})`;
  const emailOf = sql.ref<string>(def.search.email);

  function statesOf(status: string | undefined): string[] {
    if (!status) return [];
    const wanted = status
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = wanted.filter((s) => !(def.states as readonly string[]).includes(s));
    if (bad.length > 0) {
      throw AppError.validation(`Unknown status: ${bad.join(', ')}.`, { status: `Use any of: ${def.states.join(', ')}.` });
    }
    return wanted;
  }

  function filterOf(businessId: string, query: HistoryQuery<Sort>): { shape: FilterShape; values: FilterValues } {
    if (query.minAmountCents !== undefined && query.maxAmountCents !== undefined && query.minAmountCents > query.maxAmountCents) {
      throw AppError.validation('The smallest amount is larger than the largest.', { minAmountCents: 'Must not be above the largest amount.' });
    }
    if (query.from && query.to && query.from > query.to) {
      throw AppError.validation('The date range ends before it starts.', { from: 'Must not be after the end date.' });
    }
    for (const [start, end, what] of DAY_RANGES) {
      const first = query[start];
      const last = query[end];
      if (first && last && first > last) {
        throw AppError.validation(`The ${what} date range ends before it starts.`, { [start]: 'Must not be after the end date.' });
      }
    }
    const search = query.search || undefined;
    const numbered = search === undefined ? undefined : def.search.numbers.map((n, at) => ({ at, value: n.parse(search) })).find((n) => n.value !== null);
    const searchNumber = numbered?.value ?? null;
    // The source filters given: each with its value, or null for "any record of the kind".
    const sourcesGiven = (def.sources?.filters ?? []).flatMap((f) => {
      const given = (query as unknown as Record<string, unknown>)[f.param];
      if (typeof given !== 'string' || given === '') return [];
      return [{ param: f.param, value: 'id' in f.on && f.on.any !== undefined && given === f.on.any ? null : given }];
    });
    return {
      shape: {
        view: query.view,
        payer: Boolean(query.payerId),
        batch: Boolean(query.batchId && def.batchColumn),
        refunded: (def.refunds && query.refunded) || '',
        sources: sourcesGiven.map((g) => (g.value === null ? `${g.param}:any` : g.param)),
        from: Boolean(query.from),
        to: Boolean(query.to),
        sentFrom: Boolean(query.sentFrom && def.sentColumn),
        sentTo: Boolean(query.sentTo && def.sentColumn),
        paidFrom: Boolean(query.paidFrom && def.payments),
        paidTo: Boolean(query.paidTo && def.payments),
        returnedFrom: Boolean(query.returnedFrom && def.payments),
        returnedTo: Boolean(query.returnedTo && def.payments),
        min: query.minAmountCents !== undefined,
        max: query.maxAmountCents !== undefined,
        search: search !== undefined,
        searchNumber: searchNumber !== null,
        searchNumberAt: numbered?.at ?? -1,
      },
      values: {
        businessId,
        states: statesOf(query.status),
        payerId: query.payerId || undefined,
        batchId: query.batchId || undefined,
        sourceValues: sourcesGiven.flatMap((g) => (g.value === null ? [] : [g.value])),
        from: query.from,
        to: query.to,
        sentFrom: query.sentFrom || undefined,
        sentTo: query.sentTo || undefined,
        paidFrom: query.paidFrom || undefined,
        paidTo: query.paidTo || undefined,
        returnedFrom: query.returnedFrom || undefined,
        returnedTo: query.returnedTo || undefined,
        min: query.minAmountCents,
        max: query.maxAmountCents,
        searchText: search,
        searchNumber: searchNumber ?? undefined,
      },
    };
  }

  /** The row (or rows) of the number a search text reads as: its column, and what else that number needs (the kind whose number it is). */
  function numberIs(s: FilterShape, p: Params<FilterValues>): Expression<SqlBool> {
    const n = def.search.numbers[s.searchNumberAt]!;
    const is = sql<SqlBool>`${sql.ref(n.column)} = ${p.searchNumber}`;
    return n.also ? sql<SqlBool>`(${is} AND ${sql.ref(n.also.column)} = ${sql.lit(n.also.value)})` : is;
  }

  /** The WHERE clause shared by the list, its total and the export. */
  function whereOf(s: FilterShape, p: Params<FilterValues>) {
    // Dates are calendar days of the business's time zone.
    const timeZone = sql<string>`(SELECT time_zone FROM businesses WHERE id = ${p.businessId})`;
    // A day's first instant, and the next day's: a day of 23 or 25 hours is whole.
    const dayStart = (day: Expression<string | undefined>) => sql<Date>`(${day}::date)::timestamp AT TIME ZONE ${timeZone}`;
    const nextDayStart = (day: Expression<string | undefined>) => sql<Date>`((${day}::date) + 1)::timestamp AT TIME ZONE ${timeZone}`;
    /**
     * Rows with a payment processed (or returned) on those days: the payments of those days are
     * found on their own index (business, time) and only their rows checked, however long the list.
     */
    const paymentsOn = (column: string, from: Expression<string | undefined> | null, to: Expression<string | undefined> | null) => {
      const P = def.payments!;
      const at = sql.ref(`pay.${column}`);
      const bounds = [...(from ? [sql`${at} >= ${dayStart(from)}`] : []), ...(to ? [sql`${at} < ${nextDayStart(to)}`] : [])];
      return sql<SqlBool>`id IN (SELECT ${sql.ref(`pay.${P.rowColumn}`)} FROM ${sql.table(P.table)} AS pay WHERE pay.business_id = ${p.businessId} AND ${sql.join(bounds, sql` AND `)})`;
    };
    return (eb: ExpressionBuilder<Tables, string>): Expression<SqlBool> => {
      const and: Expression<SqlBool>[] = [eb('business_id', '=', p.businessId)];
      and.push(viewPredicate(s.view));
      if (p.states.length > 0) and.push(eb('state', 'in', p.states));
      if (s.payer) and.push(eb(def.payerColumn, '=', p.payerId));
      if (s.batch) and.push(eb(def.batchColumn!, '=', p.batchId));
      if (s.refunded) {
        const { refundedColumn, paidColumn } = def.refunds!;
        and.push(eb(refundedColumn, '>', 0));
        if (s.refunded === 'Refunded') and.push(eb(refundedColumn, '>=', eb.ref(paidColumn)));
        if (s.refunded === 'PartiallyRefunded') and.push(eb(refundedColumn, '<', eb.ref(paidColumn)));
      }
      let valueAt = 0;
      for (const given of s.sources) {
        const [param, any] = given.split(':');
        const f = def.sources!.filters.find((x) => x.param === param)!;
        and.push(eb(def.sources!.kindColumn, '=', sql.lit(f.kind)));
        if (any) continue;
        const value = p.sourceValues[valueAt++]!;
        and.push(
          'id' in f.on
            ? eb(def.sources!.idColumn, '=', value)
            : sql<SqlBool>`${sql.ref(def.sources!.recordColumn)} #>> ${sql.lit(`{${f.on.path.join(',')}}`)} = ${value}`,
        );
      }
      if (s.from) and.push(eb('created_at', '>=', sql<Date>`(${p.from}::date)::timestamp AT TIME ZONE ${timeZone}`));
      if (s.to) and.push(eb('created_at', '<', sql<Date>`((${p.to}::date) + 1)::timestamp AT TIME ZONE ${timeZone}`));
      if (s.sentFrom) and.push(eb(def.sentColumn!, '>=', dayStart(p.sentFrom)));
      if (s.sentTo) and.push(eb(def.sentColumn!, '<', nextDayStart(p.sentTo)));
      if (s.paidFrom || s.paidTo) {
        and.push(paymentsOn(def.payments!.processedColumn, s.paidFrom ? p.paidFrom : null, s.paidTo ? p.paidTo : null));
      }
      if (s.returnedFrom || s.returnedTo) {
        and.push(paymentsOn(def.payments!.returnedColumn, s.returnedFrom ? p.returnedFrom : null, s.returnedTo ? p.returnedTo : null));
      }
      if (s.min) and.push(eb(def.amountColumn, '>=', p.min));
      if (s.max) and.push(eb(def.amountColumn, '<=', p.max));
      if (s.search) {
        const or: Expression<SqlBool>[] = [beginsWith(p.searchText, nameOf), beginsWith(p.searchText, emailOf)];
        if (s.searchNumber) or.push(numberIs(s, p));
        and.push(eb.or(or));
      }
      return eb.and(and);
    };
  }

  /** The filter without its search: what every search branch shares. */
  const commonOf = (s: PageShape, p: Params<PageValues>) => whereOf({ ...s.filter, search: false, searchNumber: false }, p);

  /** (sort value, id) beyond the anchor's, in the walking direction; the anchor is looked up in this business only. */
  const beyondAnchor = (s: PageShape, p: Params<PageValues>, column: string = s.column) =>
    sql<SqlBool>`(${sql.ref(column)}, id) ${sql.raw(s.walk === 'desc' ? '<' : '>')} (SELECT ${sql.ref(column)}, id FROM ${sql.table(T)} WHERE business_id = ${p.businessId} AND id = ${p.anchor})`;

  /**
   * The exact total. Filtered only by view and status, it comes from the per-state counts kept by
   * the database (no rows read); a search counts its matches (`m`, {@link searchMatches}); any other
   * filter counts the matching rows, which those filters' indexes keep few.
   */
  function countOf(db: Db, s: PageShape, p: Params<PageValues>) {
    if (s.searchByNames) return searchCount(db, s, p);
    if (s.filter.search) return sql<number>`(SELECT count(*) FROM m)`;
    if (s.totalFromCounts) {
      return db
        .selectFrom(C.byState)
        .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
        .where('business_id', '=', p.businessId)
        .where(p.totalStates.length > 0 ? (e) => e('state', 'in', p.totalStates) : sql<boolean>`false`);
    }
    return db
      .selectFrom(T)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(whereOf(s.filter, p));
  }

  /** The kept counts a search's names and e-mails match: by name, else by e-mail — each row counted once, as {@link searchMatches} lists it. */
  function searchCounts(db: Db, s: PageShape, p: Params<PageValues>, by: 'name' | 'email') {
    const byName = beginsWith(p.searchText, sql.ref<string>('name_key'));
    // The view and the status filter as the list's own WHERE has them (a literal for the view).
    let counts = db.selectFrom(C.search).where('business_id', '=', p.businessId).where(viewPredicate(s.filter.view));
    if (p.states.length > 0) counts = counts.where('state', 'in', p.states);
    return by === 'name' ? counts.where(byName) : counts.where(beginsWith(p.searchText, emailOf)).where(sql<SqlBool>`NOT ${byName}`);
  }

  /** A search's total: its names' and e-mails' rows ({@link searchKeys}), and its reference number's row (at most one). */
  function searchCount(db: Db, s: PageShape, p: Params<PageValues>) {
    const byNumber = s.filter.searchNumber ? sql`+ (SELECT count(*) FROM (${numberMatch(db, s, p, ['id'])}) x)` : sql``;
    return sql<number>`(SELECT coalesce(sum(n), 0) FROM search_names) + (SELECT coalesce(sum(n), 0) FROM search_emails) ${byNumber}`;
  }

  /** The row whose reference number a search is, unless its name or e-mail matches too (listed by those). */
  function numberMatch(db: Db, s: PageShape, p: Params<PageValues>, columns: readonly string[]) {
    return db
      .selectFrom(T)
      .select(columns)
      .where(commonOf(s, p))
      .where(numberIs(s.filter, p))
      .where(sql<SqlBool>`NOT ${beginsWith(p.searchText, nameOf)} AND NOT ${beginsWith(p.searchText, emailOf)}`);
  }

  /**
   * The names (lower-cased) and e-mails a search matches, each with how many rows it has in the
   * states listed (`n`, never 0), as CTEs `search_names` and `search_emails`: from the kept counts.
   */
  function searchKeys(db: Db, s: PageShape, p: Params<PageValues>) {
    const n = sql<number>`sum(n)`;
    const names = searchCounts(db, s, p, 'name')
      .select(['name_key', n.as('n')])
      .groupBy('name_key')
      .having(n, '>', sql.lit(0));
    const emails = searchCounts(db, s, p, 'email')
      .select([def.search.email, n.as('n')])
      .groupBy(def.search.email)
      .having(n, '>', sql.lit(0));
    return sql`search_names AS MATERIALIZED (${names}), search_emails AS MATERIALIZED (${emails}),`;
  }

  /**
   * A search's page by creation time from the names and e-mails it matches: each one's first rows
   * in the walking order (past the anchor row, or as many as the rows skipped and the page need),
   * read in order off its prefix index (ADR 016); the page is the first of those. Every match is
   * in exactly one branch, as in {@link searchMatches}.
   */
  function searchRowsByNames(db: Db, s: PageShape, p: Params<PageValues>) {
    const common = commonOf(s, p);
    const walk = sql.raw(s.walk);
    const perKey = s.skip ? sql<number>`(SELECT ${p.offset}::bigint + ${sql.lit(s.limit)})` : sql.lit(s.limit);
    const first = (match: Expression<SqlBool>) => {
      let rows = db.selectFrom(T).select(['id', 'created_at']).where(common).where(match);
      if (s.keyset) rows = rows.where(beyondAnchor(s, p, 'created_at'));
      return rows.orderBy('created_at', s.walk).orderBy('id', s.walk).limit(perKey);
    };
    const byNumber = s.filter.searchNumber
      ? sql`UNION ALL SELECT id, created_at FROM (${first(sql<SqlBool>`id IN (${numberMatch(db, s, p, ['id'])})`)}) x`
      : sql``;
    const ids = sql`SELECT id FROM (
      SELECT r.id, r.created_at FROM search_names k CROSS JOIN LATERAL (${first(sql<SqlBool>`${nameOf} = k.name_key`)}) r
      UNION ALL
      SELECT r.id, r.created_at FROM search_emails k CROSS JOIN LATERAL (${first(sql<SqlBool>`${emailOf} = k.${emailOf} AND NOT ${beginsWith(p.searchText, nameOf)}`)}) r
      ${byNumber}
    ) m ORDER BY created_at ${walk}, id ${walk} LIMIT ${sql.lit(s.limit)} ${s.skip ? sql`OFFSET ${p.offset}` : sql``}`;
    return db
      .selectFrom(T)
      .select(listColumns(s.column))
      .where('business_id', '=', p.businessId)
      .where(sql<SqlBool>`id IN (${ids})`);
  }

  /** The total and who may read it, as one row `{ signed_in, must_change, member, n }`; no total for one who may not. */
  function totalOf(db: Db, s: PageShape, p: Params<PageValues>) {
    return sql<
      Admission & { n: number | string | null }
    >`SELECT w.signed_in, w.must_change, w.member, CASE WHEN w.member THEN (${countOf(db, s, p)}) END AS n FROM (${admissionOf(p)}) w`;
  }

  /**
   * The rows a search matches, each once: by name, else by e-mail, else by reference number. Each
   * branch is read from its prefix index alone, so a search matching a thousand rows counts and
   * orders them without reading a row (ADR 010); an OR of the three would read every matching row
   * to recheck it.
   */
  function searchMatches(db: Db, s: PageShape, p: Params<PageValues>) {
    const common = commonOf(s, p);
    const columns = s.column === 'created_at' ? ['id', 'created_at'] : ['id', s.column];
    const byName = beginsWith(p.searchText, nameOf);
    const byEmail = beginsWith(p.searchText, emailOf);
    const branch = () => db.selectFrom(T).select(columns).where(common);
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
  function searchRowsOf(db: Db, s: PageShape, p: Params<PageValues>) {
    const beyond = s.keyset ? sql`WHERE ${beyondAnchor(s, p)}` : sql``;
    const ids = sql`SELECT id FROM m ${beyond} ORDER BY ${sql.ref(s.column)} ${sql.raw(s.walk)}, id ${sql.raw(s.walk)} LIMIT ${sql.lit(s.limit)} ${s.skip ? sql`OFFSET ${p.offset}` : sql``}`;
    return db
      .selectFrom(T)
      .select(listColumns(s.column))
      .where('business_id', '=', p.businessId)
      .where(sql<SqlBool>`id IN (${ids})`);
  }

  const admissionOnly = shapedQuery((_: null, p: Params<Pick<PageValues, 'businessId' | 'sessionToken' | 'now'>>) => admissionOf(p));

  /**
   * A page's order by one column, in the walking direction. Filtered by sent, paid or returned days,
   * the matches are found on their own index (the first send's, the payments') and sorted: the
   * order names its NULLS the other way from the list's indexes (the sort columns are never null,
   * so the order is the same), which keeps the planner from walking the list's index in search of
   * them instead — for a day long past, nearly all of it, as its generic plan (blind to the days)
   * chose for a business with 500,000 requests. The cost is that of the filter's total, which
   * counts the same matches.
   */
  function orderOf(s: PageShape, column: string) {
    const nulls = !s.sortMatches ? '' : s.walk === 'desc' ? ' NULLS LAST' : ' NULLS FIRST';
    return sql`${sql.ref(column)} ${sql.raw(s.walk)}${sql.raw(nulls)}`;
  }

  /** One page of rows in the walking direction: after an anchor row, or after skipping `offset` rows. */
  function rowsOf(db: Db, s: PageShape, p: Params<PageValues>) {
    let rows = db.selectFrom(T).select(listColumns(s.column)).where(whereOf(s.filter, p));
    if (s.keyset) rows = rows.where(beyondAnchor(s, p));
    rows = rows.orderBy(orderOf(s, s.column)).orderBy(orderOf(s, 'id')).limit(sql.lit(s.limit));
    return s.skip ? rows.offset(p.offset) : rows;
  }

  /**
   * A page of rows and its total in one round trip: the total-and-admission row with the page's
   * items beside it as one JSON array — read only when the session may (a business the person does
   * not belong to is 404, like one that does not exist; its rows never leave the database).
   */
  const pageWithTotal = shapedQuery((s: PageShape, p: Params<PageValues>, typed) => {
    const db = loose(typed);
    const search = !s.filter.search ? sql`` : s.searchByNames ? searchKeys(db, s, p) : sql`m AS MATERIALIZED (${searchMatches(db, s, p)}),`;
    const rows = !s.filter.search ? rowsOf(db, s, p) : s.searchByNames ? searchRowsByNames(db, s, p) : searchRowsOf(db, s, p);
    return sql<PageRow>`
    WITH ${search}
    t AS MATERIALIZED (${totalOf(db, s, p)})
    SELECT t.signed_in, t.must_change, t.member, t.n AS total, page.count, page.items FROM t
    CROSS JOIN LATERAL (
      SELECT count(*) AS count, ${itemsJson(s.column, s.order)} AS items
      FROM (${rows}) r WHERE t.member
    ) page`;
  });

  /**
   * The ids of a page far down the list, walking `s.walk` and skipping `skip` rows (an SQL
   * expression, which may depend on the total). By creation time with at most a status filter, the
   * days are added up from the walking end until the one holding the page's first row (CTE
   * `<cte>_day`), and only that day's index entries before it are skipped — for the whole history
   * view, only its hour's; in any other order or with other filters, the covering index is walked.
   * Either way only the page's rows are read whole. The whole history view adds up one total a
   * day; a status filter or the drafts, their states' counts.
   */
  function farWalk(db: Db, s: PageShape, p: Params<PageValues>, skip: Expression<number>, cte: string) {
    const walk = db.selectFrom(T).select('id').where(whereOf(s.filter, p)).orderBy(orderOf(s, s.column)).orderBy(orderOf(s, 'id')).limit(sql.lit(s.limit));
    if (!(s.column === 'created_at' && s.totalFromCounts)) return { with: null, ids: walk.offset(skip) };
    const dir = sql.raw(s.walk);
    const desc = s.walk === 'desc';
    const wholeHistory = s.filter.view === 'history' && p.states.length === 0;
    const days = wholeHistory
      ? db.selectFrom(C.historyDays).select(['day', 'n']).where('business_id', '=', p.businessId)
      : db
          .selectFrom(C.byDayAndState)
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
    // The whole history view narrows the day to its hour: at most an hour's rows are walked.
    const h = sql.table(`${cte}_hour`);
    const hour = sql`${h} AS (
      SELECT hour, through - n AS before FROM (
        SELECT hour, n, (SELECT before FROM ${d}) + sum(n) OVER (ORDER BY hour ${dir}) AS through FROM ${sql.table(C.historyHours)}
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
  const farPage = shapedQuery((s: PageShape, p: Params<PageValues>, typed) => {
    const db = loose(typed);
    const rows = (ids: ReturnType<typeof farWalk>['ids']) =>
      db.selectFrom(T).select(listColumns(s.column)).where('business_id', '=', p.businessId).where('id', 'in', ids);
    const forward = farWalk(db, s, p, p.offset, 'd_forward');
    if (forward.with !== null) {
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

  async function pageRow(db: Kysely<DB>, shape: PageShape, values: PageValues): Promise<{ items: string; count: number; total: number }> {
    const row = (await db.executeQuery(pageWithTotal(db, shape, values))).rows[0];
    admit(row);
    return { items: row!.items, count: Number(row!.count), total: Number(row!.total ?? 0) };
  }

  /** A page by its number far down the list (see {@link farPage}). */
  async function farPageOf(db: Kysely<DB>, shape: PageShape, values: PageValues, query: HistoryQuery<Sort>): Promise<{ items: string; total: number }> {
    const row = (await db.executeQuery(farPage(db, shape, { ...values, offset: (query.page - 1) * query.pageSize }))).rows[0];
    admit(row);
    return { items: row!.items, total: Number(row!.total ?? 0) };
  }

  /**
   * A page is found one of these ways, cheapest first:
   * - keyset (`after` / `before` a row of the neighbouring page): an index seek to that row, then
   *   one page of index entries — the same cost at page 20,000 as at page 2;
   * - near the start, a plain index walk (`OFFSET` up to {@link DIRECT_OFFSET_LIMIT});
   * - further down, by creation time (the default order) and at most a status filter, the page is
   *   found by adding up days and hours; in any other order or with other filters, on the covering
   *   index walked from the nearer end, and only its rows read whole (a deferred join); either way
   *   in one statement with the total (see {@link farPage});
   * - a search by creation time, with at most a status filter, from the names and e-mails it
   *   matches: its total from their kept counts, its page from each one's newest rows
   *   (ADR 016, {@link searchRowsByNames}); any other search from all of its matches.
   * Each query is built once per shape (ADR 010): a repeated request neither builds nor plans SQL.
   */
  async function page({
    db,
    businessId,
    sessionToken,
    query,
  }: {
    db: Kysely<DB>;
    businessId: string;
    sessionToken: string;
    query: HistoryQuery<Sort>;
  }): Promise<HistoryPage> {
    let filter: ReturnType<typeof filterOf>;
    try {
      if (query.after && query.before) {
        throw AppError.validation('Page after one row or before another, not both.', { before: 'Leave out either after or before.' });
      }
      filter = filterOf(businessId, query);
    } catch (error) {
      // Someone who may not read the list hears 401, 403 or 404 first, as from the endpoint mount.
      admit((await db.executeQuery(admissionOnly(db, null, { businessId, sessionToken, now: new Date() }))).rows[0]);
      throw error;
    }
    const byStatusAtMost =
      !filter.shape.payer &&
      !filter.shape.batch &&
      !filter.shape.refunded &&
      filter.shape.sources.length === 0 &&
      !filter.shape.from &&
      !filter.shape.to &&
      !filter.shape.sentFrom &&
      !filter.shape.sentTo &&
      !filter.shape.paidFrom &&
      !filter.shape.paidTo &&
      !filter.shape.returnedFrom &&
      !filter.shape.returnedTo &&
      !filter.shape.min &&
      !filter.shape.max;
    const wanted: readonly string[] = filter.values.states.length > 0 ? filter.values.states : def.states;
    const values: PageValues = {
      ...filter.values,
      sessionToken,
      now: new Date(),
      totalStates: wanted.filter((s) => (query.view === 'draft' ? s === def.draftState : s !== def.draftState)),
      anchor: query.after ?? query.before,
      offset: undefined,
    };
    const column = def.sortColumns[query.sortBy];
    const direction = query.sortDirection;
    const base = {
      filter: filter.shape,
      totalFromCounts: byStatusAtMost && !filter.shape.search,
      searchByNames: byStatusAtMost && filter.shape.search && column === 'created_at',
      column,
      order: direction,
      limit: query.pageSize,
      sortMatches:
        filter.shape.sentFrom || filter.shape.sentTo || filter.shape.paidFrom || filter.shape.paidTo || filter.shape.returnedFrom || filter.shape.returnedTo,
    };
    const result = (itemsJson: string, total: number): HistoryPage => ({ itemsJson, page: query.page, pageSize: query.pageSize, total });

    if (values.anchor && query.page > 1) {
      const shape: PageShape = { ...base, walk: query.after ? direction : flip(direction), keyset: true, skip: false };
      const row = await pageRow(db, shape, values);
      // A page that comes out empty or short before the end (its anchor row was deleted, or rows
      // moved) is read by its number instead.
      const expected = Math.min(query.pageSize, Math.max(0, row.total - (query.page - 1) * query.pageSize));
      if (row.count === expected) return result(row.items, row.total);
      if (filter.shape.search) {
        const offset = (query.page - 1) * query.pageSize;
        const byNumber = await pageRow(db, { ...shape, walk: direction, keyset: false, skip: offset > 0 }, { ...values, offset });
        return result(byNumber.items, byNumber.total);
      }
      const far = await farPageOf(db, { ...shape, walk: direction, keyset: false, skip: true }, values, query);
      return result(far.items, far.total);
    }

    const offset = (query.page - 1) * query.pageSize;
    // A search's matches are few and read from its index, so any of its pages comes in one statement.
    if (offset <= DIRECT_OFFSET_LIMIT || filter.shape.search) {
      const row = await pageRow(db, { ...base, walk: direction, keyset: false, skip: offset > 0 }, { ...values, offset });
      return result(row.items, row.total);
    }
    const far = await farPageOf(db, { ...base, walk: direction, keyset: false, skip: true }, values, query);
    return result(far.items, far.total);
  }

  async function* batches<Row>({
    db: typed,
    businessId,
    query,
    batchSize,
  }: {
    db: Kysely<DB>;
    businessId: string;
    query: HistoryQuery<Sort>;
    batchSize: number;
  }): AsyncGenerator<(Row & { sort_key: string; id: string })[]> {
    const db = loose(typed);
    const { shape, values } = filterOf(businessId, query);
    const params = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v.map((e) => sql.val(e)) : sql.val(v)]));
    const where = whereOf(shape, params as unknown as Params<FilterValues>);
    const column = def.sortColumns[query.sortBy];
    const direction = query.sortDirection;
    let after: { key: string; id: string } | null = null;
    for (;;) {
      // The sort value travels as text: exact for every column (a JavaScript Date would drop a
      // timestamp's microseconds and skip or repeat rows at a batch edge).
      let select = db
        .selectFrom(T)
        .selectAll()
        .select(sql<string>`${sql.ref(column)}::text`.as('sort_key'))
        .where(where);
      if (after) {
        // The next batch starts past the last row sent, in the list's order (row comparison).
        select = select.where(sql<SqlBool>`(${sql.ref(column)}, id) ${sql.raw(direction === 'desc' ? '<' : '>')} (${after.key}, ${after.id})`);
      }
      const rows = (await select.orderBy(column, direction).orderBy('id', direction).limit(batchSize).execute()) as (Row & { sort_key: string; id: string })[];
      if (rows.length === 0) return;
      yield rows;
      const last = rows[rows.length - 1]!;
      after = { key: last.sort_key, id: last.id };
      if (rows.length < batchSize) return;
    }
  }

  return { page, batches };
}
