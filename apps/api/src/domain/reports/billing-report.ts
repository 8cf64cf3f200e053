import { sql, type Kysely } from 'kysely';
import { RequestState, formatDay, type BillingReport, type ReportBucket, type ReportGroupBy, type ReportHour } from '@tay/contract';
import type { DB } from '../../db/schema';
import { addDays } from '../payment-requests/request-record';
import { addDay, eachDay, emptyFigures, figuresOf, kindsOf, methodsOf, mondayOf, monthLabel, monthStart, readReportDays } from './report-days';

type ReportStatusCount = BillingReport['byStatus'][number];

export interface BillingReportInput {
  db: Kysely<DB>;
  business: { id: string; timeZone: string };
  /** Checked by the contract: `to` on or after `from`, at most 731 days. */
  query: { from: string; to: string; groupBy: ReportGroupBy };
}

/**
 * A billing report over calendar days of the business's time zone (issue 23, ADR 039): the
 * figures of each day, week (Monday to Sunday, cut to the range) or month from the rollup, the
 * totals, the requests billed by their status now, collections by method and kind, and for a
 * single day its hours from the raw rows (that day's rows only, through their indexes).
 */
export async function billingReport({ db, business, query }: BillingReportInput): Promise<BillingReport> {
  const { from, to, groupBy } = query;
  const days = await readReportDays(db, business.id, from, to);
  const buckets: ReportBucket[] = [];
  for (const day of eachDay(from, to)) {
    const start = groupBy === 'day' ? day : groupBy === 'week' ? mondayOf(day) : monthStart(day);
    let bucket = buckets.at(-1);
    if (!bucket || bucket.from !== (start < from ? from : start)) {
      bucket = { ...emptyFigures(), from: start < from ? from : start, to: day, label: bucketLabel(groupBy, start) };
      buckets.push(bucket);
    }
    bucket.to = day;
    addDay(bucket, days.get(day));
  }
  return {
    from,
    to,
    groupBy,
    timeZone: business.timeZone,
    totals: figuresOf(days.values()),
    byStatus: await statusCounts(db, business.id, from, to),
    byMethod: methodsOf(days.values()),
    byKind: kindsOf(days.values()),
    buckets,
    hours: from === to ? await reportHours(db, business, from) : [],
  };
}

function bucketLabel(groupBy: ReportGroupBy, start: string): string {
  if (groupBy === 'day') return formatDay(start);
  if (groupBy === 'week') return `Week of ${formatDay(start)}`;
  return monthLabel(start);
}

/** Requests billed in the range by their status now, in the state machine's order; none left out but empty ones. */
async function statusCounts(db: Kysely<DB>, businessId: string, from: string, to: string): Promise<ReportStatusCount[]> {
  const rows = await db
    .selectFrom('report_day_states')
    .select(['state', sql<number>`sum(n)::bigint`.as('count'), sql<number>`sum(cents)::bigint`.as('cents')])
    .where('business_id', '=', businessId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('state')
    .execute();
  const byState = new Map(rows.map((row) => [row.state, row]));
  return RequestState.options.flatMap((status) => {
    const row = byState.get(status);
    return row && (row.count !== 0 || row.cents !== 0) ? [{ status, count: row.count, cents: row.cents }] : [];
  });
}

/**
 * One day's hours on the business's clock: 24, or 23 and 25 on the days daylight saving time
 * starts and ends (the repeated hour reads "01:00 (2nd)"). Requests billed (first sent) and
 * payments collected (processed) in each, from that day's raw rows.
 */
async function reportHours(db: Kysely<DB>, business: { id: string; timeZone: string }, day: string): Promise<ReportHour[]> {
  const { rows } = await sql<{ start: Date; clock: string; billed_count: number; billed_cents: number; collected_count: number; collected_cents: number }>`
    WITH bounds AS (
      SELECT (${day}::date::timestamp AT TIME ZONE ${business.timeZone}) AS s, (${addDays(day, 1)}::date::timestamp AT TIME ZONE ${business.timeZone}) AS e
    ), hours AS (
      -- A day has at most 25 hours. The LIMIT also tells the planner so: generate_series is
      -- estimated at 1,000 rows, which put the statement over PostgreSQL's JIT threshold and
      -- compiled it on every call (~400 ms instead of ~2 ms, bench/RESULTS.md "reports").
      SELECT h AS start, least(h + interval '1 hour', e) AS stop FROM bounds, generate_series(s, e - interval '1 microsecond', interval '1 hour') AS h
      LIMIT 25
    )
    SELECT h.start, to_char(h.start AT TIME ZONE ${business.timeZone}, 'HH24:MI') AS clock,
      r.n AS billed_count, r.cents AS billed_cents, p.n AS collected_count, p.cents AS collected_cents
    FROM hours h
    CROSS JOIN LATERAL (
      SELECT count(*)::bigint AS n, coalesce(sum(amount_cents), 0)::bigint AS cents FROM payment_requests
      WHERE business_id = ${business.id} AND first_sent_at >= h.start AND first_sent_at < h.stop
    ) r
    CROSS JOIN LATERAL (
      SELECT count(*)::bigint AS n, coalesce(sum(amount_cents), 0)::bigint AS cents FROM payments
      WHERE business_id = ${business.id} AND processed_at >= h.start AND processed_at < h.stop
    ) p
    ORDER BY h.start`.execute(db);
  const seen = new Set<string>();
  return rows.map((row) => {
    const label = seen.has(row.clock) ? `${row.clock} (2nd)` : row.clock;
    seen.add(row.clock);
    return {
      start: new Date(row.start).toISOString(),
      label,
      billedCount: row.billed_count,
      billedCents: row.billed_cents,
      collectedCount: row.collected_count,
      collectedCents: row.collected_cents,
    };
  });
}
