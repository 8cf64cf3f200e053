import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { AREA } from '../common/areas';

/* ------------------------------------------------- billing cycles (ADR 036) */

/**
 * `monthly`: every month on `dayOfMonth` (1–28), the run on that day of month M bills the
 * calendar month M. `term` and `custom`: the listed periods, each run at the business's midnight
 * of its first day.
 */
export const BillingSchedule = z.enum(['monthly', 'term', 'custom'], { error: 'Choose monthly, per term or custom dates.' });
export type BillingSchedule = z.infer<typeof BillingSchedule>;

export const BILLING_SCHEDULE_LABELS: Record<BillingSchedule, string> = { monthly: 'Monthly', term: 'Per term', custom: 'Custom dates' };

export const BillingCycleStatus = z.enum(['active', 'Disabled']);
export type BillingCycleStatus = z.infer<typeof BillingCycleStatus>;
export const BILLING_CYCLE_STATUS_LABELS: Record<BillingCycleStatus, string> = { active: 'Active', Disabled: 'Disabled' };

/**
 * What a run did: `Running` (its batch is being submitted), `Drafted` (its batch waits in review),
 * `Submitted` (sent as a batch), `Empty` (no enrollment to bill), `Error` (made, but the batch could
 * not be submitted: it waits in review; the run says why).
 */
export const BillingRunState = z.enum(['Running', 'Drafted', 'Submitted', 'Empty', 'Error']);
export type BillingRunState = z.infer<typeof BillingRunState>;

export const BillingRunTrigger = z.enum(['schedule', 'manual']);
export type BillingRunTrigger = z.infer<typeof BillingRunTrigger>;
export const BILLING_RUN_TRIGGER_LABELS: Record<BillingRunTrigger, string> = { schedule: 'Scheduled', manual: 'Run now' };

export const BILLING_CYCLE_LIMITS = { name: 100, periodLabel: 60, periods: 60, programs: 50 } as const;

export const BillingCycleAction = z.enum(['Edit', 'Run now', 'Activate', 'Deactivate', 'Delete']);
export type BillingCycleAction = z.infer<typeof BillingCycleAction>;

/** Row actions: Run now only while active; Delete only while it never ran. */
export function billingCycleActions(status: BillingCycleStatus, runsCount: number): BillingCycleAction[] {
  return ['Edit', ...(status === 'active' ? (['Run now', 'Deactivate'] as const) : (['Activate'] as const)), ...(runsCount === 0 ? (['Delete'] as const) : [])];
}

export const BillingCyclePeriodInput = z
  .object({
    start: boundedDay('The start date', { invalid: 'Enter the start date.' }),
    end: boundedDay('The end date', { invalid: 'Enter the end date.' }),
    label: z
      .string({ error: 'Name the period, such as Term 1 2026–27.' })
      .trim()
      .min(1, 'Name the period, such as Term 1 2026–27.')
      .max(BILLING_CYCLE_LIMITS.periodLabel, `Use at most ${BILLING_CYCLE_LIMITS.periodLabel} characters.`),
  })
  .refine((p) => p.end >= p.start, { message: 'The end date must be on or after the start date.', path: ['end'] });
export type BillingCyclePeriodInput = z.input<typeof BillingCyclePeriodInput>;

export const BillingCycleInput = z
  .object({
    name: z
      .string({ error: 'Enter the name of the cycle.' })
      .trim()
      .min(1, 'Enter the name of the cycle.')
      .max(BILLING_CYCLE_LIMITS.name, `Use at most ${BILLING_CYCLE_LIMITS.name} characters.`),
    schedule: BillingSchedule,
    dayOfMonth: z
      .number({ error: 'Choose a day of the month from 1 to 28.' })
      .int('Choose a day of the month from 1 to 28.')
      .min(1, 'Choose a day of the month from 1 to 28.')
      .max(28, 'Choose a day of the month from 1 to 28.')
      .nullable()
      .optional(),
    periods: z
      .array(BillingCyclePeriodInput, { error: 'List the periods to bill.' })
      .max(BILLING_CYCLE_LIMITS.periods, `List at most ${BILLING_CYCLE_LIMITS.periods} periods.`)
      .optional(),
    programIds: z
      .array(z.string({ error: 'Choose a program.' }).trim().min(1, 'Choose a program.').max(64, 'Choose a program.'), {
        error: 'Choose at least one program.',
      })
      .min(1, 'Choose at least one program.')
      .max(BILLING_CYCLE_LIMITS.programs, `Choose at most ${BILLING_CYCLE_LIMITS.programs} programs.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Choose each program once.'),
    autoSubmit: z.boolean({ error: 'Say whether a run submits its batch at once.' }).default(false),
  })
  .superRefine((value, ctx) => {
    if (value.schedule === 'monthly') {
      if (value.dayOfMonth === null || value.dayOfMonth === undefined) {
        ctx.addIssue({ code: 'custom', message: 'Choose a day of the month from 1 to 28.', path: ['dayOfMonth'] });
      }
      return;
    }
    const periods = value.periods ?? [];
    if (periods.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'Add at least one period, with its start and end dates.', path: ['periods'] });
      return;
    }
    for (let i = 1; i < periods.length; i++) {
      const before = periods[i - 1]!;
      const period = periods[i]!;
      if (period.start <= before.end) {
        ctx.addIssue({
          code: 'custom',
          message: `${period.label} must start after ${before.label} ends: list the periods in order, without overlaps.`,
          path: ['periods', i, 'start'],
        });
      }
    }
    const labels = new Set<string>();
    periods.forEach((p, i) => {
      const key = p.label.toLowerCase();
      if (labels.has(key)) ctx.addIssue({ code: 'custom', message: 'Give each period its own name.', path: ['periods', i, 'label'] });
      labels.add(key);
    });
  })
  .transform((value) => ({
    ...value,
    dayOfMonth: value.schedule === 'monthly' ? value.dayOfMonth! : null,
    periods: value.schedule === 'monthly' ? [] : (value.periods ?? []),
  }));
export type BillingCycleInput = z.input<typeof BillingCycleInput>;
export type BillingCycleValues = z.output<typeof BillingCycleInput>;

export const BillingCyclePeriod = z.object({ start: z.string(), end: z.string(), label: z.string() });
export type BillingCyclePeriod = z.infer<typeof BillingCyclePeriod>;

export const BillingRun = z.object({
  runId: z.string(),
  cycleId: z.string(),
  period: BillingCyclePeriod,
  state: BillingRunState,
  /** Requests the run's batch makes (its valid rows). */
  requests: z.number().int(),
  totalCents: z.number().int(),
  batchId: z.string().nullable(),
  /** The batch's own state (Draft, Submitted, Processed, Error); null when there is none (an empty run, a discarded batch). */
  batchState: z.string().nullable(),
  trigger: BillingRunTrigger,
  error: z.string().nullable(),
  startedBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BillingRun = z.infer<typeof BillingRun>;

export const BillingCycle = z.object({
  cycleId: z.string(),
  name: z.string(),
  schedule: BillingSchedule,
  dayOfMonth: z.number().int().nullable(),
  periods: z.array(BillingCyclePeriod),
  programs: z.array(z.object({ programId: z.string(), name: z.string(), status: z.string() })),
  autoSubmit: z.boolean(),
  status: BillingCycleStatus,
  /** The business's calendar day of the next run (its midnight); null when no period is left. */
  nextRunOn: z.string().nullable(),
  /** The period the next run bills. */
  nextPeriod: BillingCyclePeriod.nullable(),
  lastRunAt: z.string().nullable(),
  lastRun: BillingRun.nullable(),
  runsCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(BillingCycleAction),
});
export type BillingCycle = z.infer<typeof BillingCycle>;

/** One cycle with its latest runs (newest first). */
export const BillingCycleDetail = BillingCycle.extend({ runs: z.array(BillingRun) });
export type BillingCycleDetail = z.infer<typeof BillingCycleDetail>;

export const BillingCycleListQuery = PageQuery.extend({
  status: BillingCycleStatus.optional(),
  schedule: BillingSchedule.optional(),
  programId: z.string().max(64).optional(),
  sortBy: z.enum(['name', 'nextRunOn', 'createdAt']).default('createdAt'),
});
export type BillingCycleListQuery = z.input<typeof BillingCycleListQuery>;

export const BillingRunListQuery = PageQuery.omit({ search: true }).extend({ state: BillingRunState.optional() });
export type BillingRunListQuery = z.input<typeof BillingRunListQuery>;

export const BillingCycleIdParams = z.object({ id: z.string().min(1).max(64), cycleId: z.string().min(1).max(64) });

export const BillingCycleResponse = okResponse(BillingCycleDetail);
export const BillingCycleListResponse = listResponse(BillingCycle);
export type BillingCycleList = z.infer<typeof BillingCycleListResponse>['data'];
export const BillingRunListResponse = listResponse(BillingRun);
export type BillingRunList = z.infer<typeof BillingRunListResponse>['data'];
/** Run now: the run made, and the cycle after it. */
export const BillingRunResponse = okResponse(z.object({ run: BillingRun, cycle: BillingCycleDetail }));
export type BillingRunOutcome = z.infer<typeof BillingRunResponse>['data'];

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.billingCycles;
const base = '/api/businesses/:id/billing-cycles';
const notApproved: NotApprovedMessages = {
  pending: 'Billing cycles can be set up once your business is approved.',
  disabled: 'This business is disabled, so it cannot bill students. Contact Tay support.',
};
const rules = ['studentTemplate', 'approved'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

const command = (name: 'activate' | 'deactivate', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:cycleId/${name}`,
    summary,
    ...operate,
    params: BillingCycleIdParams,
    response: BillingCycleResponse,
    errors: [404, 409],
  });

export const billingCycleEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Billing cycles, searched, filtered, sorted and paged',
    ...read,
    params: BusinessIdParams,
    query: BillingCycleListQuery,
    response: BillingCycleListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: BillingCycleListQuery,
    response: { description: 'The billing cycles, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Add a billing cycle: a schedule, the programs it bills, whether a run submits at once',
    ...operate,
    params: BusinessIdParams,
    body: BillingCycleInput,
    status: 201,
    response: BillingCycleResponse,
    errors: [422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:cycleId`,
    summary: 'One billing cycle with its latest runs',
    ...read,
    params: BillingCycleIdParams,
    response: BillingCycleResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:cycleId`,
    summary: 'Edit a billing cycle; its next run follows the new schedule (periods already run stay billed)',
    ...operate,
    params: BillingCycleIdParams,
    body: BillingCycleInput,
    response: BillingCycleResponse,
    errors: [404, 422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:cycleId`,
    summary: 'Delete a billing cycle that never ran',
    ...operate,
    params: BillingCycleIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  activate: command('activate', 'Run the cycle again on its schedule, from today on'),
  deactivate: command('deactivate', 'Stop the cycle running'),
  run: defineEndpoint({
    method: 'POST',
    path: `${base}/:cycleId/run`,
    summary: 'Run now: bill the current period (409 when this cycle billed it already)',
    ...operate,
    params: BillingCycleIdParams,
    response: BillingRunResponse,
    errors: [404, 409],
  }),
  runs: defineEndpoint({
    method: 'GET',
    path: `${base}/:cycleId/runs`,
    summary: 'What each run of the cycle made, newest first',
    ...read,
    params: BillingCycleIdParams,
    query: BillingRunListQuery,
    response: BillingRunListResponse,
    errors: [404],
  }),
};
