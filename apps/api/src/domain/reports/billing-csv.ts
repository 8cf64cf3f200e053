import { csvRow, type BillingReport, type ReportFigures } from '@tay/contract';
import { billingReport, type BillingReportInput } from './billing-report';

/** The report's table as the page shows it: the period, then each figure (amounts in dollars). */
export const BILLING_CSV_HEADER = [
  'Period',
  'Requests billed',
  'Billed (USD)',
  'Payments',
  'Collected (USD)',
  'Returned (USD)',
  'Fees (USD)',
  'Net (USD)',
  'Outstanding (USD)',
];

const dollars = (cents: number) => (cents / 100).toFixed(2);

function figureCells(f: ReportFigures): (string | number)[] {
  return [
    f.billedCount,
    dollars(f.billedCents),
    f.collectedCount,
    dollars(f.collectedCents),
    dollars(f.returnedCents),
    dollars(f.feesCents),
    dollars(f.netCents),
    dollars(f.outstandingCents),
  ];
}

/** One row per day, week or month of the report, then the totals: exactly the table shown. */
export function billingReportCsvText(report: BillingReport): string {
  const lines = [
    csvRow(BILLING_CSV_HEADER),
    ...report.buckets.map((bucket) => csvRow([bucket.label, ...figureCells(bucket)])),
    csvRow(['Total', ...figureCells(report.totals)]),
  ];
  return `\ufeff${lines.map((line) => `${line}\r\n`).join('')}`;
}

/** The CSV export (`…/reports/billing.csv`, or `…/billing` with `Accept: text/csv`). */
export async function* billingReportCsv(input: BillingReportInput): AsyncGenerator<string> {
  yield billingReportCsvText(await billingReport(input));
}

export function billingReportFileName(report: Pick<BillingReport, 'from' | 'to'>, extension: 'csv' | 'pdf'): string {
  return report.from === report.to ? `billing-report-${report.from}.${extension}` : `billing-report-${report.from}-to-${report.to}.${extension}`;
}
