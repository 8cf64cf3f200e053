import { z } from 'zod';
import { boundedDay } from '../common/day-schemas';
import { RequestState } from '../payment-requests/schemas';

/**
 * Billing reports (issue 23, ADR 039). Every figure is in the business's calendar days (its
 * time zone): a payment at 23:30 in New York is on that day. The figures come from a rollup kept
 * in the same transaction as the money moves (`report_days`), and agree with the raw rows:
 * - billed: requests sent in the period (their first send; drafts and scheduled ones are not billed yet), by amount;
 * - collected: payments processed in the period (card or bank account), by amount, whatever happened later;
 * - returned: payments returned in the period (an ACH return, a chargeback), by amount;
 * - refunded: refunds that succeeded in the period (ADR 051), by amount, whenever their payment was collected;
 * - disputed: disputes opened in the period (ADR 051), by count and amount, less what disputes won in it gave back;
 * - fees: the fees of payments collected in the period and of the disputes opened in it, less the fees given back on returns, refunds and won disputes in it;
 * - net: collected − returned − refunded − disputed − fees (what reached the business and stayed);
 * - outstanding: what the requests billed in the period still owe now (open requests' amount less paid).
 */

/** A custom report covers at most two years (731 days: a leap day included). */
export const REPORT_MAX_DAYS = 731;
export const REPORT_RANGE_TOO_LONG = 'A report covers at most two years: choose a To date within 731 days of the From date.';
export const REPORT_RANGE_REVERSED = 'The To date must be on or after the From date.';

export const ReportGroupBy = z.enum(['day', 'week', 'month']);
export type ReportGroupBy = z.infer<typeof ReportGroupBy>;

/** How money came in. QR code payments are a kind (below), paid by card or bank account. */
export const ReportMethod = z.enum(['card', 'bank_account']);
export type ReportMethod = z.infer<typeof ReportMethod>;
export const REPORT_METHOD_LABELS: Record<ReportMethod, string> = { card: 'Card', bank_account: 'Bank account' };

/** What a collected payment paid: a plain request, an invoice, a QR code, student or patient billing. */
export const ReportKind = z.enum(['request', 'invoice', 'qr', 'student', 'patient']);
export type ReportKind = z.infer<typeof ReportKind>;
export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  request: 'Requests to pay',
  invoice: 'Invoices',
  qr: 'QR codes',
  student: 'Student billing',
  patient: 'Patient billing',
};

export const ReportFigures = z.object({
  billedCount: z.number().int(),
  billedCents: z.number().int(),
  collectedCount: z.number().int(),
  collectedCents: z.number().int(),
  returnedCount: z.number().int(),
  returnedCents: z.number().int(),
  refundedCount: z.number().int(),
  refundedCents: z.number().int(),
  disputedCount: z.number().int(),
  disputedCents: z.number().int(),
  feesCents: z.number().int(),
  netCents: z.number().int(),
  outstandingCents: z.number().int(),
});
export type ReportFigures = z.infer<typeof ReportFigures>;

/** One row of a report's chart and table: a day, a week (Monday to Sunday, cut to the range) or a month. */
export const ReportBucket = ReportFigures.extend({
  /** The bucket's first day in the range (`YYYY-MM-DD`). */
  from: z.string(),
  /** The bucket's last day in the range (`YYYY-MM-DD`). */
  to: z.string(),
  /** "Nov 24, 2026", "Week of Nov 23, 2026", "November 2026". */
  label: z.string(),
});
export type ReportBucket = z.infer<typeof ReportBucket>;

/** One hour of a single day's report, on the business's clock (a DST day has 23 or 25). */
export const ReportHour = z.object({
  /** The hour's start (ISO, UTC). */
  start: z.string(),
  /** "00:00", "01:00"… on the business's clock; the repeated hour of a fall-back day reads "01:00 (2nd)". */
  label: z.string(),
  billedCount: z.number().int(),
  billedCents: z.number().int(),
  collectedCount: z.number().int(),
  collectedCents: z.number().int(),
});
export type ReportHour = z.infer<typeof ReportHour>;

export const ReportCount = z.object({ count: z.number().int(), cents: z.number().int() });
export const ReportStatusCount = ReportCount.extend({ status: RequestState });
export const ReportMethodCount = ReportCount.extend({ method: ReportMethod });
export const ReportKindCount = ReportCount.extend({ kind: ReportKind });

export const BillingReport = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: ReportGroupBy,
  /** The business's time zone (IANA): the days of the report are its calendar days. */
  timeZone: z.string(),
  totals: ReportFigures,
  /** Requests billed in the range by their status now (count, amount). */
  byStatus: z.array(ReportStatusCount),
  /** Payments collected in the range by method. */
  byMethod: z.array(ReportMethodCount),
  /** Payments collected in the range by what they paid. */
  byKind: z.array(ReportKindCount),
  buckets: z.array(ReportBucket),
  /** A one-day report's hours (23, 24 or 25); empty for longer ranges. */
  hours: z.array(ReportHour),
});
export type BillingReport = z.infer<typeof BillingReport>;
export const BillingReportResponse = z.object({ status: z.literal('Success'), data: BillingReport });

export const BillingReportQuery = z
  .object({
    from: boundedDay('From date'),
    to: boundedDay('To date'),
    groupBy: ReportGroupBy.default('day'),
  })
  .superRefine((q, ctx) => {
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RANGE_REVERSED });
    else if (reportDays(q.from, q.to) > REPORT_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RANGE_TOO_LONG });
  });
export type BillingReportQuery = z.input<typeof BillingReportQuery>;

/** The number of calendar days from `from` to `to`, both included (`YYYY-MM-DD`). */
export function reportDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export const ReportTopPayer = z.object({
  /** Null for anonymous QR code payments (no payer record). */
  payerId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  count: z.number().int(),
  cents: z.number().int(),
});
export type ReportTopPayer = z.infer<typeof ReportTopPayer>;

export const ReportMonth = z.object({
  /** `YYYY-MM` */
  month: z.string(),
  /** "November 2026" */
  label: z.string(),
  figures: ReportFigures,
});

/** GET /api/businesses/:id/reports/overview — the analytics landing. */
export const ReportOverview = z.object({
  timeZone: z.string(),
  /** Today on the business's clock (`YYYY-MM-DD`). */
  today: z.string(),
  thisMonth: ReportMonth,
  lastMonth: ReportMonth,
  /** Collected per day over the 90 days ending today (90 entries, oldest first). */
  daily: z.array(z.object({ date: z.string(), collectedCents: z.number().int(), collectedCount: z.number().int() })),
  /** This month's collections by method and by kind. */
  byMethod: z.array(ReportMethodCount),
  byKind: z.array(ReportKindCount),
  /** This month's five payers who paid the most (net of returns). */
  topPayers: z.array(ReportTopPayer),
  /** Requests fully paid this month, and how many of them by their due date (on the business's clock). */
  onTime: z.object({ paidCount: z.number().int(), onTimeCount: z.number().int() }),
});
export type ReportOverview = z.infer<typeof ReportOverview>;
export const ReportOverviewResponse = z.object({ status: z.literal('Success'), data: ReportOverview });
