import { z } from 'zod';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { formatDay } from '../common/dates';
import { boundedDay } from '../common/day-schemas';
import { PageQuery } from '../common/lists';
import { formatMoney, MAX_AMOUNT_CENTS } from '../common/money';
import { IdempotencyHeaders, PaymentRequestInput, PaymentRequestListResponse, PaymentRequestResponse } from '../payment-requests/schemas';
import { STATEMENT_LIMITS, statementLineErrors, statementTotals, type StatementLineCents } from './statement-lines';

/* ------------------------------------------ a statement for one patient (ADR 037) */

const amount = (label: string) =>
  z
    .number({ error: `Enter the ${label} in cents.` })
    .int(`The ${label} is whole cents.`)
    .max(MAX_AMOUNT_CENTS, `The ${label} is above the $10,000,000.00 limit.`);

/**
 * One line of a statement as typed, amounts in whole cents: what was billed, what insurance paid,
 * the adjustment (a write-off or discount) and, when given, the patient responsibility, which must
 * then add up (billed − insurance paid − adjustment). The service date defaults to the statement's
 * date of service.
 */
export const StatementLineInput = z.object({
  serviceDate: boundedDay('Service date').nullable().optional(),
  description: z
    .string({ error: 'Describe the service.' })
    .trim()
    .min(1, 'Describe the service.')
    .max(STATEMENT_LIMITS.description, `Use at most ${STATEMENT_LIMITS.description} characters for the description.`)
    .regex(/^\P{Cc}*$/u, 'The description cannot contain control characters.'),
  billedCents: amount('billed amount'),
  insurancePaidCents: amount('insurance paid').default(0),
  adjustmentCents: amount('adjustment').default(0),
  responsibilityCents: amount('patient responsibility').nullable().optional(),
});
export type StatementLineInput = z.input<typeof StatementLineInput>;

// The single request's fields without its payer (the patient's guarantor) and amount (the lines' total).
const { payerId: _payerId, amountCents: _amountCents, ...requestFields } = PaymentRequestInput.shape;

export const PatientStatementInput = z
  .object({
    ...requestFields,
    /** The day of the visit; not in the future (checked in the business's time zone by the API). */
    dateOfService: boundedDay('Date of service'),
    lines: z
      .array(StatementLineInput)
      .min(1, 'Add at least one line to the statement.')
      .max(STATEMENT_LIMITS.lines, `A statement has at most ${STATEMENT_LIMITS.lines} lines.`),
    /** "Allow a payment plan (partial payments)". */
    allowPartial: z.boolean().default(false),
  })
  .refine((r) => r.mode !== 'schedule' || Boolean(r.sendAt), { message: 'Choose when to send it.', path: ['sendAt'] })
  .refine((r) => !r.expiresOn || r.expiresOn >= r.dueDate, { message: 'The expiry cannot be before the due date.', path: ['expiresOn'] })
  .superRefine((r, ctx) => {
    let valid = true;
    r.lines.forEach((line, i) => {
      const errors = statementLineErrors({ ...line, responsibilityCents: line.responsibilityCents ?? null });
      for (const [field, message] of Object.entries(errors)) {
        valid = false;
        ctx.addIssue({ code: 'custom', message: `Line ${i + 1}: ${message}`, path: ['lines', i, field] });
      }
    });
    if (!valid) return;
    const total = statementTotals(statementLines(r.lines, r.dateOfService)).responsibilityCents;
    if (total <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'The patient owes nothing on this statement: its lines net to $0.00 after insurance and adjustments.',
        path: ['lines'],
      });
    } else if (total > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: 'custom', message: `The amount due (${formatMoney(total)}) is above the $10,000,000.00 limit.`, path: ['lines'] });
    }
  });
export type PatientStatementInput = z.input<typeof PatientStatementInput>;
export type PatientStatementValues = z.output<typeof PatientStatementInput>;

/** A line as stored and shown: its service date filled in and its responsibility computed. */
export interface StatementLineValues extends StatementLineCents {
  serviceDate: string;
  description: string;
}

/** The lines as stored: each line's service date (the date of service by default) and its patient responsibility. */
export function statementLines(lines: readonly z.output<typeof StatementLineInput>[], dateOfService: string): StatementLineValues[] {
  return lines.map((l) => ({
    serviceDate: l.serviceDate ?? dateOfService,
    description: l.description,
    billedCents: l.billedCents,
    insurancePaidCents: l.insurancePaidCents,
    adjustmentCents: l.adjustmentCents,
    responsibilityCents: l.billedCents - l.insurancePaidCents - l.adjustmentCents,
  }));
}

/**
 * What a statement tells the payer of the patient (its e-mail, text message and pay page): the
 * patient's first name and the date of service — never their last name, date of birth or MRN.
 * "Statement for Ana — date of service Nov 20, 2026".
 */
export function patientStatementLine(r: { patientFirstName: string | null; dateOfService: string | null }): string | null {
  if (!r.patientFirstName) return null;
  return r.dateOfService ? `Statement for ${r.patientFirstName} — date of service ${formatDay(r.dateOfService)}` : `Statement for ${r.patientFirstName}`;
}

export const PatientStatementParams = z.object({ id: z.string().min(1).max(64), clientId: z.string().min(1).max(64) });

/* ---------------------------------------------------------------- endpoints */

const tag = 'Healthcare statements';
const notApproved: NotApprovedMessages = {
  pending: 'Statements can be created and sent once your business is approved.',
  disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
};

export const patientStatementEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/healthcare-clients/:clientId/statements',
    summary: "A statement for one patient: a request to pay billed to the patient's guarantor, carrying the statement's lines",
    description: 'With an Idempotency-Key: the same key and body get the stored answer; a different body is 422; a twin still running is 409.',
    tag,
    access: 'business:operate',
    rules: ['approved', 'healthCareTemplate'],
    notApproved,
    params: PatientStatementParams,
    headers: IdempotencyHeaders,
    body: PatientStatementInput,
    status: 201,
    response: PaymentRequestResponse,
    errors: [404, 409, 422],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/healthcare-clients/:clientId/statements',
    summary: "A patient's statements, newest first (the view is written to the patient's audit trail)",
    tag,
    access: 'business:read',
    rules: ['approved', 'healthCareTemplate'],
    notApproved,
    params: PatientStatementParams,
    query: PageQuery.pick({ page: true, pageSize: true }),
    response: PaymentRequestListResponse,
    errors: [404],
  }),
};
