import type { BillingReport, ReportBucket, ReportFigures, ReportHour, ReportOverview } from '@tay/contract';

/** Report answers for the analytics pages' tests, as the API gives them (every figure its own number, so a swap shows). */

export function figures(over: Partial<ReportFigures> = {}): ReportFigures {
  return {
    billedCount: 3,
    billedCents: 45_000,
    collectedCount: 2,
    collectedCents: 30_000,
    returnedCount: 1,
    returnedCents: 5_000,
    refundedCount: 1,
    refundedCents: 2_500,
    disputedCount: 1,
    disputedCents: 1_200,
    feesCents: 871,
    netCents: 20_429,
    outstandingCents: 15_000,
    ...over,
  };
}

export function bucket(day: string, label: string, over: Partial<ReportFigures> = {}): ReportBucket {
  return { from: day, to: day, label, ...figures(over) };
}

/** The hours of a day on the business's clock, every one empty but those given. */
export function hours(count: number, filled: Record<number, Partial<ReportHour>> = {}): ReportHour[] {
  return Array.from({ length: count }, (_, i) => ({
    start: new Date(Date.UTC(2026, 10, 24, 5 + i)).toISOString(),
    label: `${String(i).padStart(2, '0')}:00`,
    billedCount: 0,
    billedCents: 0,
    collectedCount: 0,
    collectedCents: 0,
    ...filled[i],
  }));
}

export function report(over: Partial<BillingReport> = {}): BillingReport {
  return {
    from: '2026-11-24',
    to: '2026-11-24',
    groupBy: 'day',
    timeZone: 'America/New_York',
    totals: figures(),
    byStatus: [
      { status: 'Paid', count: 2, cents: 30_000 },
      { status: 'Sent', count: 1, cents: 15_000 },
    ],
    byMethod: [
      { method: 'card', count: 1, cents: 20_000 },
      { method: 'bank_account', count: 1, cents: 10_000 },
    ],
    byKind: [{ kind: 'request', count: 2, cents: 30_000 }],
    buckets: [bucket('2026-11-24', 'Nov 24, 2026')],
    hours: [],
    ...over,
  };
}

export const EMPTY_FIGURES = figures({
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
});

export function overview(over: Partial<ReportOverview> = {}): ReportOverview {
  return {
    timeZone: 'America/New_York',
    today: '2026-11-24',
    thisMonth: {
      month: '2026-11',
      label: 'November 2026',
      figures: figures({ collectedCents: 120_000, outstandingCents: 40_000, feesCents: 3_480, netCents: 116_520 }),
    },
    lastMonth: {
      month: '2026-10',
      label: 'October 2026',
      figures: figures({ collectedCents: 100_000, outstandingCents: 50_000, feesCents: 2_900, netCents: 97_100 }),
    },
    daily: Array.from({ length: 90 }, (_, i) => {
      const date = new Date(Date.UTC(2026, 7, 27 + i)).toISOString().slice(0, 10);
      return { date, collectedCents: i === 89 ? 12_345 : 0, collectedCount: i === 89 ? 1 : 0 };
    }),
    byMethod: [
      { method: 'card', count: 3, cents: 90_000 },
      { method: 'bank_account', count: 1, cents: 30_000 },
    ],
    byKind: [
      { kind: 'request', count: 2, cents: 80_000 },
      { kind: 'qr', count: 2, cents: 40_000 },
    ],
    topPayers: [
      { payerId: 'pyr_1', name: 'Avery Payer', email: 'avery@example.com', count: 2, cents: 80_000 },
      { payerId: null, name: 'Walk-in customer', email: '', count: 1, cents: 10_000 },
    ],
    onTime: { paidCount: 12, onTimeCount: 10 },
    ...over,
  };
}
