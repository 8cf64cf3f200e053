import type { Kysely, Selectable } from 'kysely';
import { ReportKind, ReportMethod, type BillingReport, type ReportFigures } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { ReportDaysTable } from '../../db/schema/reports';
import { addDays } from '../payment-requests/request-record';

/**
 * Reading the reports' rollup (`report_days`, migration 0042, ADR 039): one row per business and
 * calendar day of its time zone, so a report over two years reads at most 731 rows.
 */
export type ReportDay = Selectable<ReportDaysTable>;
type ReportMethodCount = BillingReport['byMethod'][number];
type ReportKindCount = BillingReport['byKind'][number];

/** The rollup's rows of a business from `from` to `to` (both included), by day. */
export async function readReportDays(db: Kysely<DB>, businessId: string, from: string, to: string): Promise<Map<string, ReportDay>> {
  const rows = await db
    .selectFrom('report_days')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute();
  return new Map(rows.map((row) => [row.day, row]));
}

export function emptyFigures(): ReportFigures {
  return {
    billedCount: 0,
    billedCents: 0,
    collectedCount: 0,
    collectedCents: 0,
    returnedCount: 0,
    returnedCents: 0,
    refundedCount: 0,
    refundedCents: 0,
    disputedCount: 0,
    disputedCents: 0,
    feesCents: 0,
    netCents: 0,
    outstandingCents: 0,
  };
}

/** Adds a day's row to running figures; net is collected − returned − refunded − disputed − fees. */
export function addDay(figures: ReportFigures, day: ReportDay | undefined): ReportFigures {
  if (!day) return figures;
  figures.billedCount += day.billed_count;
  figures.billedCents += day.billed_cents;
  figures.collectedCount += day.collected_count;
  figures.collectedCents += day.collected_cents;
  figures.returnedCount += day.returned_count;
  figures.returnedCents += day.returned_cents;
  figures.refundedCount += day.refunded_count;
  figures.refundedCents += day.refunded_cents;
  figures.disputedCount += day.disputed_count;
  figures.disputedCents += day.disputed_cents;
  figures.feesCents += day.fee_cents;
  figures.outstandingCents += day.outstanding_cents;
  figures.netCents = figures.collectedCents - figures.returnedCents - figures.refundedCents - figures.disputedCents - figures.feesCents;
  return figures;
}

export function figuresOf(days: Iterable<ReportDay>): ReportFigures {
  let figures = emptyFigures();
  for (const day of days) figures = addDay(figures, day);
  return figures;
}

const METHOD_COLUMNS = { card: ['card_count', 'card_cents'], bank_account: ['bank_count', 'bank_cents'] } as const;
const KIND_COLUMNS = {
  request: ['request_count', 'request_cents'],
  invoice: ['invoice_count', 'invoice_cents'],
  qr: ['qr_count', 'qr_cents'],
  student: ['student_count', 'student_cents'],
  patient: ['patient_count', 'patient_cents'],
} as const;

/** Collected by method, every method in the contract's order (a method with nothing reads 0). */
export function methodsOf(days: Iterable<ReportDay>): ReportMethodCount[] {
  const out = ReportMethod.options.map((method) => ({ method, count: 0, cents: 0 }));
  for (const day of days) {
    for (const entry of out) {
      const [count, cents] = METHOD_COLUMNS[entry.method];
      entry.count += day[count];
      entry.cents += day[cents];
    }
  }
  return out;
}

/** Collected by what it paid, every kind in the contract's order. */
export function kindsOf(days: Iterable<ReportDay>): ReportKindCount[] {
  const out = ReportKind.options.map((kind) => ({ kind, count: 0, cents: 0 }));
  for (const day of days) {
    for (const entry of out) {
      const [count, cents] = KIND_COLUMNS[entry.kind];
      entry.count += day[count];
      entry.cents += day[cents];
    }
  }
  return out;
}

/** Every calendar day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The Monday of the week `day` is in (weeks run Monday to Sunday). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The last day of the month `day` is in. */
export function monthEnd(day: string): string {
  return addDays(monthStart(addDays(monthStart(day), 31)), -1);
}

const MONTH_LABEL = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "November 2026" for any day of that month. */
export function monthLabel(day: string): string {
  return MONTH_LABEL.format(new Date(`${monthStart(day)}T00:00:00Z`));
}
