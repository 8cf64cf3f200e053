import '@mantine/charts/styles.css';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Box } from '@mantine/core';
import { formatMoney, type ReportBucket, type ReportHour } from '@tay/contract';

/**
 * The reports' charts (Recharts through @mantine/charts). Each is a picture of a table on the
 * same page, which says the same figures to a screen reader: the chart is hidden from assistive
 * technology and has no keyboard stops of its own (`accessibilityLayer` off).
 */

const money = (cents: number) => formatMoney(Math.round(cents));
/** Axis ticks in whole dollars: "$1,200" reads better on a narrow axis than "$1,200.00". */
const axisMoney = (cents: number) => money(cents).replace(/\.00$/, '');

const BILLED = { name: 'billedCents', label: 'Billed', color: 'blue.6' };
const COLLECTED = { name: 'collectedCents', label: 'Collected', color: 'teal.6' };

/** Billed and collected per period: a report's days, weeks or months, or a day's hours. */
function BilledCollectedChart({ rows, h }: { rows: readonly { label: string; billedCents: number; collectedCents: number }[]; h: number }) {
  return (
    <Box aria-hidden="true" data-testid="report-chart">
      <BarChart
        h={h}
        data={rows.map((r) => ({ label: r.label, billedCents: r.billedCents, collectedCents: r.collectedCents }))}
        dataKey="label"
        series={[BILLED, COLLECTED]}
        valueFormatter={money}
        yAxisProps={{ tickFormatter: axisMoney, width: 80 }}
        withLegend
        tickLine="y"
        accessibilityLayer={false}
      />
    </Box>
  );
}

/** Billed and collected per day, week or month. */
export function BucketsChart({ buckets }: { buckets: readonly ReportBucket[] }) {
  return <BilledCollectedChart rows={buckets} h={260} />;
}

/** A day's billed and collected by hour of the business's clock (23, 24 or 25 hours). */
export function HoursChart({ hours }: { hours: readonly ReportHour[] }) {
  return <BilledCollectedChart rows={hours} h={240} />;
}

/** Collected per day over the overview's 90 days. */
export function DailyCollectedChart({ days }: { days: readonly { label: string; collectedCents: number }[] }) {
  return (
    <Box aria-hidden="true" data-testid="report-chart">
      <AreaChart
        h={240}
        data={days.map((d) => ({ label: d.label, collectedCents: d.collectedCents }))}
        dataKey="label"
        series={[COLLECTED]}
        valueFormatter={money}
        yAxisProps={{ tickFormatter: axisMoney, width: 80 }}
        curveType="monotone"
        tickLine="y"
        withDots={false}
        accessibilityLayer={false}
      />
    </Box>
  );
}

export interface Share {
  name: string;
  cents: number;
  color: string;
}

/** How this month's collections split (by method, by kind); its legend is the table beside it. */
export function SharesChart({ shares }: { shares: readonly Share[] }) {
  return (
    <Box aria-hidden="true" data-testid="report-chart">
      <DonutChart
        size={160}
        thickness={26}
        data={shares.map((s) => ({ name: s.name, value: s.cents, color: s.color }))}
        valueFormatter={money}
        accessibilityLayer={false}
        // Recharts makes a pie's sectors a tab stop of their own; the table beside it says the same.
        pieProps={{ rootTabIndex: -1 }}
      />
    </Box>
  );
}
