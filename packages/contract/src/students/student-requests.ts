import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { okResponse, PageQuery } from '../common/lists';
import { IdempotencyHeaders, PaymentRequestInput, PaymentRequestResponse } from '../payment-requests/schemas';
import { AREA } from '../common/areas';

/* ------------------------------------------- a request to pay for one student (ADR 036) */

/** Who is billed: the student's first guardian, or both (one request, e-mailed to both with the same link). */
export const StudentBillTo = z.enum(['guardian', 'both'], { error: 'Choose whom to bill: the first guardian or both.' });
export type StudentBillTo = z.infer<typeof StudentBillTo>;

/** A month period typed as `YYYY-MM` ("2026-12" → "December 2026"); any other text is kept as the period's label. */
export const MONTH_PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

// The single request's fields without its payer: the student's guardians are the payers.
const { payerId: _payerId, ...requestFields } = PaymentRequestInput.shape;

export const StudentRequestInput = z
  .object({
    ...requestFields,
    billTo: StudentBillTo.default('guardian'),
    /** A program the student is enrolled in (active enrollment), or none. */
    programId: z.preprocess((v) => (v === '' ? null : v), z.string().max(64).nullable().optional()),
    /** `YYYY-MM` for a month, or a label such as "Term 1 2026–27"; none for a request of no period. */
    period: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z
        .string()
        .trim()
        .max(50, 'Use at most 50 characters for the period.')
        .regex(/^\P{Cc}*$/u, 'The period cannot contain control characters.')
        .nullable()
        .optional(),
    ),
  })
  .refine((r) => r.mode !== 'schedule' || Boolean(r.sendAt), { message: 'Choose when to send it.', path: ['sendAt'] })
  .refine((r) => !r.expiresOn || r.expiresOn >= r.dueDate, { message: 'The expiry cannot be before the due date.', path: ['expiresOn'] });
export type StudentRequestInput = z.input<typeof StudentRequestInput>;
export type StudentRequestValues = z.output<typeof StudentRequestInput>;

/**
 * The line a student's request shows the payer (its e-mail, text message and pay page): the
 * student's first and last name, the program and the period — nothing else about the student.
 * "For Mia Lopez — Piano, December 2026".
 */
export function studentRequestLine(r: { studentName: string | null; programName: string | null; period: string | null }): string | null {
  if (!r.studentName) return null;
  const what = [r.programName, r.period].filter((p): p is string => Boolean(p)).join(', ');
  return what ? `For ${r.studentName} — ${what}` : `For ${r.studentName}`;
}

/* ------------------------------------------------------------- students' balances */

/** A month, `YYYY-MM`. */
const month = z.string().regex(MONTH_PERIOD, 'Enter a month as YYYY-MM.');

export const StudentBalancesQuery = PageQuery.extend({
  /** The month whose periods are counted; the business's current month by default. Leave out with `from`/`to`. */
  period: month.optional(),
  /** A range of months instead of one (both inclusive). */
  from: month.optional(),
  to: month.optional(),
  grade: z.string().trim().max(50).optional(),
  sortBy: z.enum(['name', 'studentNumber', 'grade', 'billed', 'paid', 'outstanding']).default('name'),
  sortDirection: z.enum(['asc', 'desc']).default('asc'),
});
export type StudentBalancesQuery = z.input<typeof StudentBalancesQuery>;

/**
 * Which requests a balance counts: a student's requests that were sent and are still owed or paid
 * (Sent, Resent, Accepted, Paid, PartiallyPaid, Error). A draft or a scheduled request is not
 * billed yet; a withdrawn, cancelled, declined or expired one is no longer owed.
 */
export const BILLED_STATES = ['Sent', 'Resent', 'Accepted', 'Paid', 'PartiallyPaid', 'Error'] as const;

export const StudentBalance = z.object({
  studentId: z.string(),
  studentNumber: z.string(),
  name: z.string(),
  grade: z.string(),
  status: z.enum(['active', 'Disabled']),
  /** How many counted requests. */
  requests: z.number().int(),
  billedCents: z.number().int(),
  paidCents: z.number().int(),
  /** What was refunded of what was paid (ADR 051): given back, it does not reopen what is owed. */
  refundedCents: z.number().int(),
  /** billed − paid. */
  outstandingCents: z.number().int(),
});
export type StudentBalance = z.infer<typeof StudentBalance>;

export const StudentBalances = z.object({
  /** The months counted, `YYYY-MM`, and their label ("December 2026", or "November 2026 – January 2027"). */
  from: z.string(),
  to: z.string(),
  label: z.string(),
  items: z.array(StudentBalance),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  /** Over every student the query matches (not only this page). */
  totals: z.object({ billedCents: z.number().int(), paidCents: z.number().int(), refundedCents: z.number().int(), outstandingCents: z.number().int() }),
});
export type StudentBalances = z.infer<typeof StudentBalances>;

export const StudentRequestParams = z.object({ id: z.string().min(1).max(64), studentId: z.string().min(1).max(64) });

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.studentBilling;
const notApproved: NotApprovedMessages = {
  pending: 'Requests to pay can be created and sent once your business is approved.',
  disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
};

export const studentRequestEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/students/:studentId/payment-requests',
    summary: 'A request to pay for one student: billed to the first guardian, or to both (one request, the same link to each)',
    description: 'With an Idempotency-Key: the same key and body get the stored answer; a different body is 422; a twin still running is 409.',
    tag,
    access: 'business:operate',
    rules: ['studentTemplate', 'approved'],
    notApproved,
    params: StudentRequestParams,
    headers: IdempotencyHeaders,
    body: StudentRequestInput,
    status: 201,
    response: PaymentRequestResponse,
    errors: [404, 409, 422],
  }),
  balances: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/students/balances',
    summary: 'Each student’s billed, paid and outstanding for a month (or a range of months), with a total',
    tag,
    access: 'business:read',
    rules: ['studentTemplate'],
    params: BusinessIdParams,
    query: StudentBalancesQuery,
    response: okResponse(StudentBalances),
  }),
  balancesCsv: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/students/balances/export.csv',
    summary: 'CSV export of the same query as the balances, with a total line',
    tag,
    access: 'business:read',
    rules: ['studentTemplate'],
    params: BusinessIdParams,
    query: StudentBalancesQuery,
    response: { description: 'One student a line under a header row, then the total', contentTypes: ['text/csv'], text: true },
  }),
};
