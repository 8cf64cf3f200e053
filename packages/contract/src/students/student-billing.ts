import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { okResponse } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { IdempotencyHeaders } from '../payment-requests/schemas';
import { monthPeriod, type BillingPeriod } from './periods';
import { StudentBillTo } from './student-requests';
import { AREA } from '../common/areas';

/* ------------------------------------- Program Billing and Request to Pay Multiple Students (ADR 036) */

export const STUDENT_BILL_TO_LABELS: Record<StudentBillTo, string> = { guardian: 'The first guardian', both: 'Both guardians' };

/** At most this many students in one Request to Pay Multiple Students. */
export const MAX_BULK_STUDENTS = 5000;
/** At most this many programs billed at once. */
export const MAX_BILLED_PROGRAMS = 100;
/** A period is at most a year long. */
export const MAX_PERIOD_DAYS = 366;

const id = (what: string) =>
  z
    .string({ error: `Choose ${what}.` })
    .trim()
    .min(1, `Choose ${what}.`)
    .max(64, 'Use at most 64 characters.');

/** A billing period as sent: its first and last days and its name ("December 2026", "Term 1"). */
export const BillingPeriodInput = z
  .object({
    start: boundedDay('The first day', { invalid: 'Enter the first day of the period.' }),
    end: boundedDay('The last day', { invalid: 'Enter the last day of the period.' }),
    label: z
      .string({ error: 'Name the period, like December 2026 or Term 1.' })
      .trim()
      .min(1, 'Name the period, like December 2026 or Term 1.')
      .max(100, 'Use at most 100 characters.'),
  })
  .superRefine((p, ctx) => {
    if (p.end < p.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'The last day cannot be before the first day.' });
    else if ((Date.parse(p.end) - Date.parse(p.start)) / 86_400_000 + 1 > MAX_PERIOD_DAYS)
      ctx.addIssue({ code: 'custom', path: ['end'], message: `A period is at most ${MAX_PERIOD_DAYS} days long.` });
  });
export type BillingPeriodInput = z.infer<typeof BillingPeriodInput>;

/** A month as sent ("2026-12"): the calendar month (`monthPeriod`). */
const MonthInput = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month, like 2026-12.')
  .refine((m) => m >= '1900-01' && m <= '2099-12', 'Choose a month from 1900 to 2099.');

/** The period of a body: `period` (dates and a name) or `month`; the month becomes its calendar month. */
const periodFields = { period: BillingPeriodInput.optional(), month: MonthInput.optional() };
function checkPeriod(b: { period?: BillingPeriod | undefined; month?: string | undefined }, ctx: z.RefinementCtx) {
  if (!b.period && !b.month) ctx.addIssue({ code: 'custom', path: ['period'], message: 'Choose a month, or enter the period with its dates.' });
  if (b.period && b.month) ctx.addIssue({ code: 'custom', path: ['month'], message: 'Choose a month or dates, not both.' });
}
const periodOf = (b: { period?: BillingPeriod | undefined; month?: string | undefined }): BillingPeriod => b.period ?? monthPeriod(`${b.month!}-01`);

const dueDate = boundedDay('Due date', { invalid: 'Enter the due date.' });
const memo = z.string().trim().max(500, 'Use at most 500 characters.');
const programIds = z
  .array(id('a program'), { error: 'Choose at least one program.' })
  .min(1, 'Choose at least one program.')
  .max(MAX_BILLED_PROGRAMS, `Choose at most ${MAX_BILLED_PROGRAMS} programs.`)
  .refine((ids) => new Set(ids).size === ids.length, 'A program is chosen twice.');
const amountCents = z
  .number({ error: 'Enter the amount in cents.' })
  .int('Enter the amount in whole cents.')
  .positive('Enter an amount above $0.00.')
  .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.');

export const ProgramBillingPreviewBody = z
  .object({ programIds, dueDate: dueDate.optional(), ...periodFields })
  .superRefine(checkPeriod)
  .transform(({ month: _month, ...b }) => ({ ...b, period: periodOf({ ...b, month: _month }) }));
export type ProgramBillingPreviewBody = z.input<typeof ProgramBillingPreviewBody>;

/** One change to the preview before the batch is made: another amount, or the student left out. */
export const ProgramBillingAdjustment = z.union([
  z.object({ enrollmentId: id('an enrollment'), skip: z.literal(true) }).strict(),
  z.object({ enrollmentId: id('an enrollment'), amountCents }).strict(),
]);
export type ProgramBillingAdjustment = z.infer<typeof ProgramBillingAdjustment>;

export const ProgramBillingBody = z
  .object({
    programIds,
    dueDate,
    memo: memo.optional(),
    billTo: StudentBillTo.default('guardian'),
    adjustments: z
      .array(ProgramBillingAdjustment, { error: 'Send the adjustments as a list.' })
      .max(MAX_BULK_STUDENTS, `At most ${MAX_BULK_STUDENTS} adjustments.`)
      .refine((a) => new Set(a.map((x) => x.enrollmentId)).size === a.length, 'An enrollment is adjusted twice.')
      .default([]),
    ...periodFields,
  })
  .superRefine(checkPeriod)
  .transform(({ month: _month, ...b }) => ({ ...b, period: periodOf({ ...b, month: _month }) }));
export type ProgramBillingBody = z.input<typeof ProgramBillingBody>;

/** One line of the preview: an active enrollment that overlaps the period, and what it would be billed. */
export const ProgramBillingLine = z.object({
  enrollmentId: z.string(),
  student: z.object({ studentId: z.string(), studentNumber: z.string(), name: z.string(), grade: z.string(), status: z.string() }),
  /** The first guardian (who pays); null when the student has none. */
  guardian: z.object({ payerId: z.string(), name: z.string(), email: z.string() }).nullable(),
  secondGuardian: z.object({ payerId: z.string(), name: z.string(), email: z.string() }).nullable(),
  program: z.object({ programId: z.string(), name: z.string(), feeCents: z.number(), prorate: z.boolean() }),
  enrollmentStart: z.string(),
  enrollmentEnd: z.string().nullable(),
  amountCents: z.number(),
  /** Days enrolled within the period, of the period's days; `prorated` when the amount is a share of the fee. */
  days: z.number(),
  periodDays: z.number(),
  prorated: z.boolean(),
  /** The request that billed this enrollment's period already: this line would be refused. */
  alreadyBilled: z.object({ requestId: z.string(), referenceNumber: z.string() }).nullable(),
  /** Why this line cannot be billed as it is (no guardian, deactivated), or null. */
  problem: z.string().nullable(),
});
export type ProgramBillingLine = z.infer<typeof ProgramBillingLine>;

export const ProgramBillingPreview = z.object({
  period: z.object({ start: z.string(), end: z.string(), label: z.string() }),
  lines: z.array(ProgramBillingLine),
  /** What would be billed: the lines not already billed and without a problem. */
  totals: z.object({ count: z.number(), totalCents: z.number(), alreadyBilled: z.number(), problems: z.number() }),
});
export type ProgramBillingPreview = z.infer<typeof ProgramBillingPreview>;
export const ProgramBillingPreviewResponse = okResponse(ProgramBillingPreview);

/** A student-billing batch made and checked: it waits in review. */
export const StudentBillingBatchResult = z.object({
  batchId: z.string(),
  rows: z.number(),
  valid: z.number(),
  invalid: z.number(),
  totalCents: z.number(),
});
export type StudentBillingBatchResult = z.infer<typeof StudentBillingBatchResult>;
export const StudentBillingBatchResponse = okResponse(StudentBillingBatchResult);

/** Request to Pay Multiple Students: the same request for each student chosen. */
export const StudentBillingBody = z
  .object({
    studentIds: z
      .array(id('a student'), { error: 'Choose at least one student.' })
      .min(1, 'Choose at least one student.')
      .max(MAX_BULK_STUDENTS, `Choose at most ${MAX_BULK_STUDENTS.toLocaleString('en-US')} students at once.`)
      .refine((ids) => new Set(ids).size === ids.length, 'A student is chosen twice.'),
    amountCents,
    memo: memo.min(1, 'Enter what the request is for.'),
    dueDate,
    billTo: StudentBillTo.default('guardian'),
    programId: id('a program').nullable().optional(),
    period: BillingPeriodInput.nullable().optional(),
    month: MonthInput.nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.period && b.month) ctx.addIssue({ code: 'custom', path: ['month'], message: 'Choose a month or dates, not both.' });
  })
  .transform(({ month, period, ...rest }) => ({ ...rest, period: period ?? (month ? monthPeriod(`${month}-01`) : null) }));
export type StudentBillingBody = z.input<typeof StudentBillingBody>;

/** The students the bulk page picks from: every active student matching the filters. */
export const BillableStudentsQuery = z.object({
  grade: z.string().trim().max(50).optional(),
  programId: z.string().trim().max(64).optional(),
  search: z.string().trim().max(100).optional(),
});
export type BillableStudentsQuery = z.infer<typeof BillableStudentsQuery>;

export const BillableStudent = z.object({
  studentId: z.string(),
  studentNumber: z.string(),
  name: z.string(),
  grade: z.string(),
  guardians: z.array(z.object({ payerId: z.string(), name: z.string(), email: z.string() })),
  programs: z.array(z.object({ programId: z.string(), name: z.string() })),
});
export type BillableStudent = z.infer<typeof BillableStudent>;
export const BillableStudentsResponse = okResponse(
  z.object({
    items: z.array(BillableStudent),
    total: z.number(),
    grades: z.array(z.string()),
    programs: z.array(z.object({ programId: z.string(), name: z.string() })),
  }),
);

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.studentBilling;
const notApproved: NotApprovedMessages = {
  pending: 'Students can be billed once your business is approved.',
  disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
};
const rules = ['studentTemplate', 'approved'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

export const studentBillingEndpoints = {
  programBillingPreview: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/program-billing/preview',
    summary: 'Program Billing: who would be billed what for the programs and the period (nothing is saved)',
    description:
      'One line per active enrollment overlapping the period, with the amount (prorated when the program says so and the enrollment covers part of the period) and the request that billed it already, if any.',
    ...read,
    params: BusinessIdParams,
    body: ProgramBillingPreviewBody,
    response: ProgramBillingPreviewResponse,
    errors: [404, 422],
  }),
  programBilling: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/program-billing',
    summary: 'Program Billing: the preview, with its adjustments and skips, as a student-billing batch in review',
    description:
      'With an Idempotency-Key: the same key and body get the stored answer (one batch). Each line becomes a row of a Draft batch of kind `student-billing`, already checked; an enrollment whose period was billed is a row with that error.',
    ...operate,
    params: BusinessIdParams,
    headers: IdempotencyHeaders,
    body: ProgramBillingBody,
    status: 201,
    response: StudentBillingBatchResponse,
    errors: [404, 409, 422],
  }),
  billableStudents: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/student-billing/students',
    summary: 'Request to Pay Multiple Students: every active student matching the grade, program and search',
    ...read,
    params: BusinessIdParams,
    query: BillableStudentsQuery,
    response: BillableStudentsResponse,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/student-billing',
    summary: 'Request to Pay Multiple Students: one request per student as a student-billing batch in review',
    description: 'With an Idempotency-Key: the same key and body get the stored answer (one batch).',
    ...operate,
    params: BusinessIdParams,
    headers: IdempotencyHeaders,
    body: StudentBillingBody,
    status: 201,
    response: StudentBillingBatchResponse,
    errors: [404, 422],
  }),
};
