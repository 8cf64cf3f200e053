import { monthlyRunDay, monthPeriod, nextMonthPeriod, type BillingPeriod } from '@tay/contract';

/**
 * When a billing cycle runs and what each run bills (ADR 036), as calendar days of the business.
 * A monthly cycle runs on its `dayOfMonth` of month M and bills the calendar month M; a term or
 * custom cycle runs at the start of each listed period and bills that period.
 */
export interface CycleSchedule {
  schedule: 'monthly' | 'term' | 'custom';
  dayOfMonth: number | null;
  periods: BillingPeriod[];
}

/** The period the run on `runDay` bills (null: nothing is billed on that day). */
export function periodOfRun(cycle: CycleSchedule, runDay: string): BillingPeriod | null {
  if (cycle.schedule === 'monthly') return monthPeriod(runDay);
  return cycle.periods.find((p) => p.start === runDay) ?? null;
}

/** The run day of a period of the cycle. */
export function runDayOf(cycle: CycleSchedule, period: BillingPeriod): string {
  return cycle.schedule === 'monthly' ? monthlyRunDay(period.start, cycle.dayOfMonth!) : period.start;
}

/** The period after `period` (null: none is left). */
export function periodAfter(cycle: CycleSchedule, period: Pick<BillingPeriod, 'start'>): BillingPeriod | null {
  if (cycle.schedule === 'monthly') return nextMonthPeriod(period.start);
  return cycle.periods.find((p) => p.start > period.start) ?? null;
}

/**
 * The next run from `today` on (today included), skipping the periods already run (`ran`: their
 * first days). A monthly cycle made on the 15th with day 1 runs first on the 1st of next month;
 * the month under way is billed by Run now.
 */
export function nextRunFrom(cycle: CycleSchedule, today: string, ran: ReadonlySet<string>): string | null {
  let period: BillingPeriod | null = cycle.schedule === 'monthly' ? monthPeriod(today) : (cycle.periods.find((p) => runDayOf(cycle, p) >= today) ?? null);
  // At most a few hundred steps: a monthly cycle skips only months already run.
  for (let guard = 0; period && guard < 1200; guard++) {
    if (runDayOf(cycle, period) >= today && !ran.has(period.start)) return runDayOf(cycle, period);
    period = periodAfter(cycle, period);
  }
  return null;
}

/**
 * The period Run now bills: the one holding `today`; for term and custom cycles between periods,
 * the next one (null when none is left).
 */
export function currentPeriod(cycle: CycleSchedule, today: string): BillingPeriod | null {
  if (cycle.schedule === 'monthly') return monthPeriod(today);
  return cycle.periods.find((p) => p.start <= today && today <= p.end) ?? cycle.periods.find((p) => p.start > today) ?? null;
}

/**
 * When a request made by a run is due: the first day of its period, or the day of the run when
 * that is later (a run caught up after downtime, or Run now in the middle of the period) — never a
 * day already past when the request is made.
 */
export function dueDateOf(period: Pick<BillingPeriod, 'start'>, runDay: string): string {
  return period.start > runDay ? period.start : runDay;
}
