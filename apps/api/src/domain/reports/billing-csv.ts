import { csvDollars, csvRow, type BillingReport, type ReportFigures, type ReportHour } from '@tay/contract';
import { billingReport, type BillingReportInput } from './billing-report';

/** The report's table as the page shows it: the period, then each figure (amounts in dollars). */
export const BILLING_CSV_HEADER = [
  'Period',
  'Requests billed',
  'Billed (USD)',
  'Payments',
  'Collected (USD)',
  'Returned (USD)',
  'Refunded (USD)',
  'Disputed (USD)',
  'Fees (USD)',
  'Net (USD)',
  'Outstanding (USD)',
];

const dollars = csvDollars;

function figureCells(f: ReportFigures): Parameters<typeof csvRow>[0] {
  return [
    f.billedCount,
    dollars(f.billedCents),
    f.collectedCount,
    dollars(f.collectedCents),
    dollars(f.returnedCents),
    dollars(f.refundedCents),
    dollars(f.disputedCents),
    dollars(f.feesCents),
    dollars(f.netCents),
    dollars(f.outstandingCents),
  ];
}

/** An hour of a one-day report: what its table shows (billed and collected); the other figures are the day's only. */
function hourCells(h: ReportHour): Parameters<typeof csvRow>[0] {
  return [h.billedCount, dollars(h.billedCents), h.collectedCount, dollars(h.collectedCents), '', '', '', '', '', ''];
}

/**
 * Exactly the tables shown, then the totals: one row per day, week or month of the report; a
 * one-day report (the daily page) is shown by hour, so its rows are its hours ("Nov 27, 2026
 * 14:00"; 23 or 25 of them on a clock change).
 */
export function billingReportCsvText(report: BillingReport): string {
  const day = report.from === report.to ? report.buckets[0] : undefined;
  const rows =
    day && report.hours.length > 0
      ? report.hours.map((h) => csvRow([`${day.label} ${h.label}`, ...hourCells(h)]))
      : report.buckets.map((bucket) => csvRow([bucket.label, ...figureCells(bucket)]));
  const lines = [csvRow(BILLING_CSV_HEADER), ...rows, csvRow(['Total', ...figureCells(report.totals)])];
  return `\ufeff${lines.map((line) => `${line}\r\n`).join('')}`;
}

/** The CSV export (`…/reports/billing.csv`, or `…/billing` with `Accept: text/csv`). */
export async function* billingReportCsv(input: BillingReportInput): AsyncGenerator<string> {
  yield billingReportCsvText(await billingReport(input));
}

export function billingReportFileName(report: Pick<BillingReport, 'from' | 'to'>, extension: 'csv' | 'pdf'): string {
  return report.from === report.to ? `billing-report-${report.from}.${extension}` : `billing-report-${report.from}-to-${report.to}.${extension}`;
}
