import type { Kysely } from 'kysely';
import type { ReportOverview, ReportTopPayer } from '@tay/contract';
import type { DB } from '../../db/schema';
import { addDays, todayIn } from '../payment-requests/request-record';
import { eachDay, figuresOf, kindsOf, methodsOf, monthEnd, monthLabel, monthStart, readReportDays } from './report-days';

/** How many payers the overview names, and how many days its chart shows. */
const TOP_PAYERS = 5;
const DAILY_DAYS = 90;

/**
 * The analytics landing (issue 23): this month against last month, what was collected on each of
 * the last 90 days, this month's collections by method and kind, its top payers and the share of
 * requests paid on time. Months and days are the business's (its time zone); everything comes from
 * the rollup (migration 0042), about 150 day rows and one month's payers.
 */
export async function reportOverview({
  db,
  business,
  now = new Date(),
}: {
  db: Kysely<DB>;
  business: { id: string; timeZone: string };
  now?: Date;
}): Promise<ReportOverview> {
  const today = todayIn(business.timeZone, now);
  const thisMonth = monthStart(today);
  const lastMonth = monthStart(addDays(thisMonth, -1));
  const dailyFrom = addDays(today, -(DAILY_DAYS - 1));
  const readFrom = dailyFrom < lastMonth ? dailyFrom : lastMonth;
  const days = await readReportDays(db, business.id, readFrom, monthEnd(today));
  const within = (from: string, to: string) => [...days.values()].filter((d) => d.day >= from && d.day <= to);
  const thisMonthDays = within(thisMonth, monthEnd(thisMonth));

  const topPayers = await db
    .selectFrom('report_payer_months')
    .select(['payer_id', 'name', 'email', 'n', 'cents'])
    .where('business_id', '=', business.id)
    .where('month', '=', thisMonth)
    .where('cents', '>', 0)
    .orderBy('cents', 'desc')
    .orderBy('n', 'desc')
    .orderBy('payer_key')
    .limit(TOP_PAYERS)
    .execute();

  return {
    timeZone: business.timeZone,
    today,
    thisMonth: { month: thisMonth.slice(0, 7), label: monthLabel(thisMonth), figures: figuresOf(thisMonthDays) },
    lastMonth: { month: lastMonth.slice(0, 7), label: monthLabel(lastMonth), figures: figuresOf(within(lastMonth, monthEnd(lastMonth))) },
    daily: eachDay(dailyFrom, today).map((date) => {
      const day = days.get(date);
      return { date, collectedCents: day?.collected_cents ?? 0, collectedCount: day?.collected_count ?? 0 };
    }),
    byMethod: methodsOf(thisMonthDays),
    byKind: kindsOf(thisMonthDays),
    topPayers: topPayers.map((row): ReportTopPayer => ({ payerId: row.payer_id, name: row.name, email: row.email, count: row.n, cents: row.cents })),
    onTime: {
      paidCount: thisMonthDays.reduce((sum, d) => sum + d.paid_count, 0),
      onTimeCount: thisMonthDays.reduce((sum, d) => sum + d.paid_on_time_count, 0),
    },
  };
}
