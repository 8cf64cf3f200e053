import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { AREA } from '../common/areas';

/* ------------------------------------------------------------ programs (ADR 036) */

export const ProgramFrequency = z.enum(['one_time', 'monthly', 'term']);
export type ProgramFrequency = z.infer<typeof ProgramFrequency>;
export const PROGRAM_FREQUENCY_LABELS: Record<ProgramFrequency, string> = { one_time: 'One time', monthly: 'Monthly', term: 'Per term' };

export const ProgramStatus = z.enum(['active', 'Disabled']);
export type ProgramStatus = z.infer<typeof ProgramStatus>;
export const PROGRAM_STATUS_LABELS: Record<ProgramStatus, string> = { active: 'Active', Disabled: 'Disabled' };

export const EnrollmentStatus = z.enum(['active', 'Withdrawn']);
export type EnrollmentStatus = z.infer<typeof EnrollmentStatus>;
export const ENROLLMENT_STATUS_LABELS: Record<EnrollmentStatus, string> = { active: 'Active', Withdrawn: 'Withdrawn' };

export const PROGRAM_FIELD_LIMITS = { name: 100, description: 500, capacity: 100_000 } as const;
/** How many students one enroll may name. */
export const MAX_ENROLL_STUDENTS = 500;

export const ProgramAction = z.enum(['Edit', 'Students', 'Enroll', 'Activate', 'Deactivate', 'Delete']);
export type ProgramAction = z.infer<typeof ProgramAction>;

/** Row actions: Enroll while active; Delete only while no enrollment (even withdrawn) names the program. */
export function programActions(status: ProgramStatus, enrollmentsEver: number): ProgramAction[] {
  return [
    'Edit',
    'Students',
    ...(status === 'active' ? (['Enroll', 'Deactivate'] as const) : (['Activate'] as const)),
    ...(enrollmentsEver === 0 ? (['Delete'] as const) : []),
  ];
}

/** Places left, or null for no limit. */
export function placesLeft(capacity: number | null, enrolledCount: number): number | null {
  return capacity === null ? null : Math.max(0, capacity - enrolledCount);
}

/** "Piano has 3 places left; 5 students were chosen." */
export function capacityMessage(programName: string, left: number, chosen: number): string {
  const places = left === 1 ? '1 place' : `${left} places`;
  return `${programName} has ${places} left; ${chosen} ${chosen === 1 ? 'student was' : 'students were'} chosen.`;
}

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const ProgramInput = z
  .object({
    name: z
      .string({ error: 'Enter the program name.' })
      .trim()
      .min(1, 'Enter the program name.')
      .max(PROGRAM_FIELD_LIMITS.name, `Use at most ${PROGRAM_FIELD_LIMITS.name} characters.`),
    description: z
      .string({ error: 'The description must be text.' })
      .trim()
      .max(PROGRAM_FIELD_LIMITS.description, `Use at most ${PROGRAM_FIELD_LIMITS.description} characters.`)
      .default(''),
    feeCents: z
      .number({ error: 'Enter the fee.' })
      .int('Enter the fee in whole cents.')
      .min(1, 'The fee must be more than $0.00.')
      .max(MAX_AMOUNT_CENTS, 'The fee is above the $10,000,000.00 limit.'),
    frequency: z.enum(ProgramFrequency.options, { error: 'Choose how often the program is billed: one time, monthly or per term.' }),
    startDate: boundedDay('Start date', { invalid: 'Enter the start date.' }),
    endDate: z.preprocess(emptyToNull, boundedDay('End date', { invalid: 'Enter a valid end date, or leave it empty.' }).nullable().default(null)),
    capacity: z.preprocess(
      emptyToNull,
      z
        .number({ error: 'Enter the capacity as a number, or leave it empty for no limit.' })
        .int('Enter a whole number of places.')
        .min(1, 'The capacity must be at least 1, or empty for no limit.')
        .max(PROGRAM_FIELD_LIMITS.capacity, `The capacity can be at most ${PROGRAM_FIELD_LIMITS.capacity}.`)
        .nullable()
        .default(null),
    ),
    prorate: z.boolean({ error: 'Choose whether to prorate.' }).default(false),
  })
  .refine((p) => !p.endDate || p.endDate >= p.startDate, { message: 'The end date cannot be before the start date.', path: ['endDate'] });
export type ProgramInput = z.input<typeof ProgramInput>;
export type ProgramValues = z.output<typeof ProgramInput>;

export const Program = z.object({
  programId: z.string(),
  name: z.string(),
  description: z.string(),
  feeCents: z.number().int(),
  frequency: ProgramFrequency,
  startDate: z.string(),
  endDate: z.string().nullable(),
  capacity: z.number().int().nullable(),
  prorate: z.boolean(),
  status: ProgramStatus,
  enrolledCount: z.number().int(),
  /** null: no limit. */
  placesLeft: z.number().int().nullable(),
  createdAt: z.string(),
  actions: z.array(ProgramAction),
});
export type Program = z.infer<typeof Program>;

export const ProgramListQuery = PageQuery.extend({
  status: ProgramStatus.optional(),
  frequency: ProgramFrequency.optional(),
  sortBy: z.enum(['name', 'fee', 'startDate', 'createdAt']).default('createdAt'),
});
export type ProgramListQuery = z.input<typeof ProgramListQuery>;

export const ProgramIdParams = z.object({ id: z.string().min(1).max(64), programId: z.string().min(1).max(64) });
export const ProgramResponse = okResponse(Program);
export const ProgramListResponse = listResponse(Program);
export type ProgramList = z.infer<typeof ProgramListResponse>['data'];

/* ------------------------------------------------------------ enrollments */

export const EnrollmentGuardian = z.object({ payerId: z.string(), name: z.string(), email: z.string() });

export const Enrollment = z.object({
  enrollmentId: z.string(),
  programId: z.string(),
  programName: z.string(),
  studentId: z.string(),
  /** The school's own student id. */
  studentNumber: z.string(),
  studentName: z.string(),
  grade: z.string(),
  /** The first guardian (billed by default). */
  guardian: EnrollmentGuardian.nullable(),
  startDate: z.string(),
  /** The last day billed for, once withdrawn. */
  endDate: z.string().nullable(),
  status: EnrollmentStatus,
  createdAt: z.string(),
});
export type Enrollment = z.infer<typeof Enrollment>;

export const EnrollmentListQuery = PageQuery.extend({
  status: EnrollmentStatus.optional(),
  sortBy: z.enum(['name', 'studentNumber', 'grade', 'startDate', 'createdAt']).default('name'),
  sortDirection: z.enum(['asc', 'desc']).default('asc'),
});
export type EnrollmentListQuery = z.input<typeof EnrollmentListQuery>;

export const EnrollBody = z.object({
  studentIds: z
    .array(
      z.string({ error: 'Each student id must be text.' }).trim().min(1, 'A student id cannot be empty.').max(64, 'A student id is at most 64 characters.'),
      {
        error: 'Choose the students to enroll.',
      },
    )
    .min(1, 'Choose at least one student.')
    .max(MAX_ENROLL_STUDENTS, `Enroll at most ${MAX_ENROLL_STUDENTS} students at once.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each student can be chosen once.'),
  startDate: boundedDay('Start date', { invalid: 'Enter the start date.' }),
});
export type EnrollBody = z.input<typeof EnrollBody>;

export const EnrollResult = z.object({ enrolled: z.number().int(), program: Program, enrollments: z.array(Enrollment) });
export type EnrollResult = z.infer<typeof EnrollResult>;

export const WithdrawBody = z.object({ endDate: boundedDay('End date', { invalid: 'Enter the end date.' }) });
export type WithdrawBody = z.input<typeof WithdrawBody>;

export const EnrollmentIdParams = ProgramIdParams.extend({ enrollmentId: z.string().min(1).max(64) });
const StudentEnrollmentsParams = z.object({ id: z.string().min(1).max(64), studentId: z.string().min(1).max(64) });

export const StudentEnrollBody = z.object({
  programId: z.string({ error: 'Choose a program.' }).trim().min(1, 'Choose a program.').max(64, 'Choose a program.'),
  startDate: boundedDay('Start date', { invalid: 'Enter the start date.' }),
});
export type StudentEnrollBody = z.input<typeof StudentEnrollBody>;

/** A student the enroll page can pick, with why they cannot be (already enrolled, Disabled). */
export const EnrollCandidate = z.object({
  studentId: z.string(),
  studentNumber: z.string(),
  name: z.string(),
  grade: z.string(),
  status: z.enum(['active', 'Disabled']),
  enrolled: z.boolean(),
  guardian: EnrollmentGuardian.nullable(),
});
export type EnrollCandidate = z.infer<typeof EnrollCandidate>;

export const EnrollCandidateQuery = PageQuery.extend({
  grade: z.string().trim().max(50).optional(),
  sortBy: z.enum(['name', 'studentNumber', 'grade']).default('name'),
  sortDirection: z.enum(['asc', 'desc']).default('asc'),
});
export type EnrollCandidateQuery = z.input<typeof EnrollCandidateQuery>;

export const EnrollCandidatesResponse = okResponse(
  z.object({ items: z.array(EnrollCandidate), page: z.number(), pageSize: z.number(), total: z.number(), grades: z.array(z.string()) }),
);
export type EnrollCandidates = z.infer<typeof EnrollCandidatesResponse>['data'];

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.programs;
const base = '/api/businesses/:id/programs';
const notApproved: NotApprovedMessages = {
  pending: 'Programs and enrollments can be changed once your business is approved. Finish and submit your business setup first.',
  disabled: 'Your business is disabled, so its programs and enrollments cannot be changed. Contact Tay support to enable it again.',
};
const read = { tag, access: 'business:read', rules: ['studentTemplate'] } as const;
const operate = { tag, access: 'business:operate', rules: ['studentTemplate', 'approved'], notApproved } as const;
const csv = (what: string) => ({ description: `The ${what}, one per line, under a header row`, contentTypes: ['text/csv'], text: true }) as const;

const programCommand = (name: 'activate' | 'deactivate', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:programId/${name}`,
    summary,
    ...operate,
    params: ProgramIdParams,
    response: ProgramResponse,
    errors: [404, 409],
  });

export const programEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Programs, searched, filtered (status, frequency), sorted and paged',
    ...read,
    params: BusinessIdParams,
    query: ProgramListQuery,
    response: ProgramListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: ProgramListQuery,
    response: csv('programs'),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Add a program',
    ...operate,
    params: BusinessIdParams,
    body: ProgramInput,
    status: 201,
    response: ProgramResponse,
    errors: [409],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:programId`,
    summary: 'One program',
    ...read,
    params: ProgramIdParams,
    response: ProgramResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:programId`,
    summary: 'Edit a program; a new fee applies to what is billed next',
    ...operate,
    params: ProgramIdParams,
    body: ProgramInput,
    response: ProgramResponse,
    errors: [404, 409],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:programId`,
    summary: 'Delete a program no enrollment names (deactivate it otherwise)',
    ...operate,
    params: ProgramIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  activate: programCommand('activate', 'Let a Disabled program take enrollments and be billed again'),
  deactivate: programCommand('deactivate', 'Stop a program taking enrollments and being billed'),
  enrollments: defineEndpoint({
    method: 'GET',
    path: `${base}/:programId/enrollments`,
    summary: 'The students of a program: searched, filtered by status, sorted and paged',
    ...read,
    params: ProgramIdParams,
    query: EnrollmentListQuery,
    response: listResponse(Enrollment),
    errors: [404],
  }),
  exportEnrollments: defineEndpoint({
    method: 'GET',
    path: `${base}/:programId/enrollments/export`,
    summary: 'CSV export of the same query as the program’s students',
    ...read,
    params: ProgramIdParams,
    query: EnrollmentListQuery,
    response: csv('enrollments'),
    errors: [404],
  }),
  candidates: defineEndpoint({
    method: 'GET',
    path: `${base}/:programId/enrollments/candidates`,
    summary: 'The business’s students to pick from when enrolling, each saying whether it is enrolled already',
    ...read,
    params: ProgramIdParams,
    query: EnrollCandidateQuery,
    response: EnrollCandidatesResponse,
    errors: [404],
  }),
  enroll: defineEndpoint({
    method: 'POST',
    path: `${base}/:programId/enrollments`,
    summary: 'Enroll many students at once, all or none, within the program’s places',
    ...operate,
    params: ProgramIdParams,
    body: EnrollBody,
    status: 201,
    response: okResponse(EnrollResult),
    errors: [404, 409],
  }),
  withdraw: defineEndpoint({
    method: 'POST',
    path: `${base}/:programId/enrollments/:enrollmentId/withdraw`,
    summary: 'Withdraw a student from a program; the end date is the last day billed for',
    ...operate,
    params: EnrollmentIdParams,
    body: WithdrawBody,
    response: okResponse(Enrollment),
    errors: [404, 409],
  }),
  studentEnrollments: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/students/:studentId/enrollments',
    summary: 'A student’s enrollments, active first',
    ...read,
    params: StudentEnrollmentsParams,
    response: okResponse(z.object({ items: z.array(Enrollment) })),
    errors: [404],
  }),
  enrollStudent: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/students/:studentId/enrollments',
    summary: 'Enroll one student in a program',
    ...operate,
    params: StudentEnrollmentsParams,
    body: StudentEnrollBody,
    status: 201,
    response: okResponse(Enrollment),
    errors: [404, 409],
  }),
};
