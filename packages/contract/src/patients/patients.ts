import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { EARLIEST_DAY } from '../common/dates';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { okResponse, PageQuery } from '../common/lists';
import { AREA } from '../common/areas';

/* ------------------------------------------------- patients (the healthcare template, ADR 037) */

/** `active` can be billed; `Disabled` (the practice turned them off) cannot. */
export const PatientStatus = z.enum(['active', 'Disabled']);
export type PatientStatus = z.infer<typeof PatientStatus>;

export const PATIENT_STATUS_LABELS: Record<PatientStatus, string> = { active: 'Active', Disabled: 'Disabled' };

/** Who pays a patient's statements: the patient themself, or another person. */
export const GuarantorRelationship = z.enum(['self', 'parent', 'spouse', 'child', 'other'], {
  error: 'Choose who pays: the patient (self), a parent, a spouse, a child or another person.',
});
export type GuarantorRelationship = z.infer<typeof GuarantorRelationship>;

export const GUARANTOR_RELATIONSHIP_LABELS: Record<GuarantorRelationship, string> = {
  self: 'The patient (self)',
  parent: 'Parent',
  spouse: 'Spouse',
  child: 'Child',
  other: 'Other person',
};

export const PATIENT_FIELD_LIMITS = { mrn: 64, firstName: 100, lastName: 100, email: 254 } as const;

/** The first day a date of birth may be (the earliest day any date of Tay takes). */
export const EARLIEST_BIRTH_DATE = EARLIEST_DAY;

export const PatientAction = z.enum(['Edit', 'Request to Pay', 'Transactions', 'Activate', 'Deactivate', 'Delete']);
export type PatientAction = z.infer<typeof PatientAction>;

/** Row actions: Request to Pay only while active; Delete only while no payment request names the patient. */
export function patientActions(status: PatientStatus, requestsCount: number): PatientAction[] {
  return [
    'Edit',
    ...(status === 'active' ? (['Request to Pay'] as const) : []),
    'Transactions',
    status === 'active' ? 'Deactivate' : 'Activate',
    ...(requestsCount === 0 ? (['Delete'] as const) : []),
  ];
}

/** "••/••/1984": what lists, exports and pickers show of a date of birth (YYYY-MM-DD). */
export function maskDateOfBirth(dateOfBirth: string): string {
  const year = /^(\d{4})-\d{2}-\d{2}/.exec(dateOfBirth)?.[1];
  return year ? `••/••/${year}` : '••/••/••••';
}

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Use at most ${max} characters.`);

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const PatientEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid e-mail address.'))
  .pipe(z.string().max(PATIENT_FIELD_LIMITS.email, `Use at most ${PATIENT_FIELD_LIMITS.email} characters.`));

export const PatientMobile = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number, such as +14155550123.');

/**
 * The guarantor, as sent. `self`: the patient pays — an existing payer (`payerId`), or a payer
 * with the patient's names and this e-mail. Another person: an existing payer, or a new one
 * (names and e-mail). An e-mail a payer of the business has is that payer, never a copy.
 */
export const GuarantorInput = z
  .object({
    relationship: GuarantorRelationship,
    payerId: z.preprocess(blankToUndefined, z.string().trim().max(64, 'Use at most 64 characters.').optional()),
    firstName: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Use at most 100 characters.').optional()),
    lastName: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Use at most 100 characters.').optional()),
    email: z.preprocess(blankToUndefined, PatientEmail.optional()),
    mobile: z.preprocess((v) => (v === null ? undefined : blankToUndefined(v)), PatientMobile.optional()),
  })
  .superRefine((g, ctx) => {
    if (g.payerId) return;
    if (g.relationship === 'self') {
      if (!g.email) ctx.addIssue({ code: 'custom', path: ['email'], message: "Enter the patient's e-mail address, or choose an existing payer." });
      return;
    }
    if (!g.firstName) ctx.addIssue({ code: 'custom', path: ['firstName'], message: "Enter the guarantor's first name, or choose an existing payer." });
    if (!g.lastName) ctx.addIssue({ code: 'custom', path: ['lastName'], message: "Enter the guarantor's last name, or choose an existing payer." });
    if (!g.email) ctx.addIssue({ code: 'custom', path: ['email'], message: "Enter the guarantor's e-mail address, or choose an existing payer." });
  });
export type GuarantorInput = z.input<typeof GuarantorInput>;
export type GuarantorValues = z.output<typeof GuarantorInput>;

/** A date of birth: a real day from 1900 on (not in the future: checked against the business's today). */
export const DateOfBirth = z
  .string({ error: 'Enter the date of birth.' })
  .trim()
  .min(1, 'Enter the date of birth.')
  // From 1900 on (EARLIEST_BIRTH_DATE): the earliest day `boundedDay` takes.
  .pipe(boundedDay('The date of birth', { invalid: 'Enter the date of birth as YYYY-MM-DD.', upperBound: false }));

export const PatientInput = z.object({
  mrn: requiredText('patient id (MRN)', PATIENT_FIELD_LIMITS.mrn),
  firstName: requiredText('first name', PATIENT_FIELD_LIMITS.firstName),
  lastName: requiredText('last name', PATIENT_FIELD_LIMITS.lastName),
  dateOfBirth: DateOfBirth,
  guarantor: GuarantorInput,
});
export type PatientInput = z.input<typeof PatientInput>;
export type PatientValues = z.output<typeof PatientInput>;

export const PatientGuarantor = z.object({
  payerId: z.string(),
  name: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  relationship: GuarantorRelationship,
  /** The payer's status: a Disabled payer cannot be billed. */
  status: z.string(),
});
export type PatientGuarantor = z.infer<typeof PatientGuarantor>;

export const Patient = z.object({
  clientId: z.string(),
  mrn: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** "First Last". */
  name: z.string(),
  /** In full only on the single (audited) read; null in lists and exports. */
  dateOfBirth: z.string().nullable(),
  /** "••/••/1984", always. */
  dateOfBirthMasked: z.string(),
  guarantor: PatientGuarantor,
  status: PatientStatus,
  /** Statements (requests with lines) made for the patient. */
  statementsCount: z.number().int(),
  /** Payment requests naming the patient (Delete only at 0). */
  requestsCount: z.number().int(),
  /** Still owed on the patient's sent requests, in cents. */
  outstandingCents: z.number().int(),
  /** Refunded of what the patient's requests collected (ADR 051); a refund does not reopen what was owed. */
  refundedCents: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(PatientAction),
});
export type Patient = z.infer<typeof Patient>;

export const PatientSortBy = z.enum(['name', 'mrn', 'status', 'createdAt']);
export type PatientSortBy = z.infer<typeof PatientSortBy>;

export const PatientListQuery = PageQuery.extend({
  status: PatientStatus.optional(),
  relationship: GuarantorRelationship.optional(),
  sortBy: PatientSortBy.default('createdAt'),
});
export type PatientListQuery = z.input<typeof PatientListQuery>;

export const PatientIdParams = z.object({ id: z.string().min(1).max(64), clientId: z.string().min(1).max(64) });

/**
 * `?purpose=edit`: the read is the edit form's (recorded as such). `?purpose=statement`: the
 * statement form's, for the patient it bills — answered without the date of birth (null, as in
 * the list) and recorded as a view of the patient's statements.
 */
export const PatientGetQuery = z.object({ purpose: z.enum(['record', 'edit', 'statement']).default('record') });

/** `export`: the record was in a CSV export of the patients (one row per patient it held). */
export const PatientViewWhat = z.enum(['record', 'edit', 'statements', 'export']);
export type PatientViewWhat = z.infer<typeof PatientViewWhat>;

export const PATIENT_VIEW_LABELS: Record<PatientViewWhat, string> = {
  record: 'Viewed the record',
  edit: 'Opened the edit form',
  statements: 'Viewed the statements',
  export: 'Exported with the patient list',
};

/** One view of a patient's record: who, what, when. */
export const PatientView = z.object({
  viewId: z.string(),
  userId: z.string().nullable(),
  /** The person as shown at the time. */
  actor: z.string(),
  what: PatientViewWhat,
  viewedAt: z.string(),
  ipAddress: z.string().nullable(),
});
export type PatientView = z.infer<typeof PatientView>;

export const PatientViewsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type PatientViewsQuery = z.input<typeof PatientViewsQuery>;

export const PatientResponse = okResponse(Patient);
export const PatientListResponse = okResponse(z.object({ items: z.array(Patient), page: z.number(), pageSize: z.number(), total: z.number() }));
export type PatientList = z.infer<typeof PatientListResponse>['data'];
export const PatientViewsResponse = okResponse(z.object({ items: z.array(PatientView), page: z.number(), pageSize: z.number(), total: z.number() }));
export type PatientViews = z.infer<typeof PatientViewsResponse>['data'];

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.patients;
const base = '/api/businesses/:id/healthcare-clients';
const notApproved: NotApprovedMessages = {
  pending: 'Patients can be added once your business is approved.',
  disabled: 'This business is disabled, so its patients cannot be changed. Contact Tay support.',
};
const rules = ['approved', 'healthCareTemplate'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

const command = (name: 'activate' | 'deactivate', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:clientId/${name}`,
    summary,
    ...operate,
    params: PatientIdParams,
    response: PatientResponse,
    errors: [404, 409],
  });

export const patientEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Patients, searched (name, MRN, guarantor e-mail), filtered (status, guarantor), sorted and paged; dates of birth masked',
    ...read,
    params: BusinessIdParams,
    query: PatientListQuery,
    response: PatientListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary:
      "CSV export of the same query as the list (dates of birth masked); recorded as an 'export' view of each record it holds and a patients.exported entry in the audit log (who, when, how many, which filters)",
    ...read,
    params: BusinessIdParams,
    query: PatientListQuery,
    response: { description: 'The patients, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Add a patient with their guarantor (the patient, an existing payer, or a new one made with the patient)',
    ...operate,
    params: BusinessIdParams,
    body: PatientInput,
    status: 201,
    response: PatientResponse,
    errors: [404, 409],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:clientId`,
    summary: "One patient's full record; the view is recorded (who, when) in the record's views and the audit log",
    ...read,
    params: PatientIdParams,
    query: PatientGetQuery,
    response: PatientResponse,
    errors: [404],
  }),
  views: defineEndpoint({
    method: 'GET',
    path: `${base}/:clientId/views`,
    summary: "Who viewed the patient's record, what and when, newest first",
    ...read,
    params: PatientIdParams,
    query: PatientViewsQuery,
    response: PatientViewsResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:clientId`,
    summary: 'Edit a patient and their guarantor',
    ...operate,
    params: PatientIdParams,
    body: PatientInput,
    response: PatientResponse,
    errors: [404, 409],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:clientId`,
    summary: 'Delete a patient no payment request names',
    ...operate,
    params: PatientIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  activate: command('activate', 'Let a Disabled patient be billed again'),
  deactivate: command('deactivate', 'Stop a patient being billed'),
};
