import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { boundedDay } from '../common/day-schemas';
import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { okResponse, PageQuery } from '../common/lists';
import { AREA } from '../common/areas';

/* ------------------------------------------------------------- students (ADR 036) */

/** `active` can be billed; `Disabled` (the business turned them off) cannot. */
export const StudentStatus = z.enum(['active', 'Disabled']);
export type StudentStatus = z.infer<typeof StudentStatus>;

export const STUDENT_STATUS_LABELS: Record<StudentStatus, string> = { active: 'Active', Disabled: 'Disabled' };

export const STUDENT_FIELD_LIMITS = { studentNumber: 64, firstName: 100, lastName: 100, grade: 50, email: 254 } as const;

export const StudentAction = z.enum(['Edit', 'Request to Pay', 'Enrollment', 'Transactions', 'Activate', 'Deactivate', 'Delete']);
export type StudentAction = z.infer<typeof StudentAction>;

/** Row actions: Delete only while no payment request names the student. */
export function studentActions(status: StudentStatus, requestsCount: number): StudentAction[] {
  return [
    'Edit',
    ...(status === 'active' ? (['Request to Pay'] as const) : []),
    'Enrollment',
    'Transactions',
    status === 'active' ? 'Deactivate' : 'Activate',
    ...(requestsCount === 0 ? (['Delete'] as const) : []),
  ];
}

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Use at most ${max} characters.`);

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A student's guardian, as sent: an existing payer (`payerId`), or a new payer's details. */
export const GuardianInput = z
  .object({
    payerId: z.preprocess(blankToUndefined, z.string().trim().max(64, 'Use at most 64 characters.').optional()),
    firstName: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Use at most 100 characters.').optional()),
    lastName: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Use at most 100 characters.').optional()),
    email: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.email('Enter a valid e-mail address.'))
        .pipe(z.string().max(STUDENT_FIELD_LIMITS.email, `Use at most ${STUDENT_FIELD_LIMITS.email} characters.`))
        .optional(),
    ),
    mobile: z.preprocess(
      (v) => (v === null ? undefined : blankToUndefined(v)),
      z
        .string()
        .trim()
        .regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number, such as +14155550123.')
        .optional(),
    ),
  })
  .superRefine((g, ctx) => {
    if (g.payerId) return;
    if (!g.firstName) ctx.addIssue({ code: 'custom', path: ['firstName'], message: "Enter the guardian's first name, or choose an existing payer." });
    if (!g.lastName) ctx.addIssue({ code: 'custom', path: ['lastName'], message: "Enter the guardian's last name, or choose an existing payer." });
    if (!g.email) ctx.addIssue({ code: 'custom', path: ['email'], message: "Enter the guardian's e-mail address, or choose an existing payer." });
  });
export type GuardianInput = z.input<typeof GuardianInput>;
export type GuardianValues = z.output<typeof GuardianInput>;

export const StudentInput = z
  .object({
    studentNumber: requiredText('student id', STUDENT_FIELD_LIMITS.studentNumber),
    firstName: requiredText('first name', STUDENT_FIELD_LIMITS.firstName),
    lastName: requiredText('last name', STUDENT_FIELD_LIMITS.lastName),
    grade: z.string().trim().max(STUDENT_FIELD_LIMITS.grade, `Use at most ${STUDENT_FIELD_LIMITS.grade} characters.`).optional().default(''),
    /** Not in the future (checked against the business's today). */
    dateOfBirth: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      boundedDay('The date of birth', { invalid: 'Enter the date of birth as YYYY-MM-DD.', upperBound: false }).nullable().optional(),
    ),
    guardians: z
      .array(GuardianInput, { error: 'Add the student’s guardian.' })
      .min(1, 'Add at least one guardian: the payer billed for the student.')
      .max(2, 'A student has at most two guardians.'),
  })
  .superRefine((s, ctx) => {
    const [a, b] = s.guardians;
    if (!a || !b) return;
    if ((a.payerId && a.payerId === b.payerId) || (a.email && a.email === b.email)) {
      ctx.addIssue({ code: 'custom', path: ['guardians', 1, b.payerId ? 'payerId' : 'email'], message: 'The second guardian is the same as the first.' });
    }
  });
export type StudentInput = z.input<typeof StudentInput>;
export type StudentValues = z.output<typeof StudentInput>;

export const StudentGuardian = z.object({
  payerId: z.string(),
  /** 1: billed by default; 2: the second guardian. */
  position: z.number().int(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  status: z.string(),
});
export type StudentGuardian = z.infer<typeof StudentGuardian>;

export const StudentEnrollmentSummary = z.object({
  enrollmentId: z.string(),
  programId: z.string(),
  programName: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  status: z.enum(['active', 'Withdrawn']),
});
export type StudentEnrollmentSummary = z.infer<typeof StudentEnrollmentSummary>;

export const Student = z.object({
  studentId: z.string(),
  studentNumber: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** "First Last". */
  name: z.string(),
  grade: z.string(),
  dateOfBirth: z.string().nullable(),
  status: StudentStatus,
  guardians: z.array(StudentGuardian),
  /** Every enrollment, the active ones first. */
  enrollments: z.array(StudentEnrollmentSummary),
  /** The names of the programs the student is enrolled in now. */
  programs: z.array(z.string()),
  /** Payment requests made for the student (Delete only at 0). */
  requestsCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(StudentAction),
});
export type Student = z.infer<typeof Student>;

export const StudentSortBy = z.enum(['name', 'studentNumber', 'grade', 'status', 'createdAt']);
export type StudentSortBy = z.infer<typeof StudentSortBy>;

export const StudentListQuery = PageQuery.extend({
  grade: z.string().trim().max(STUDENT_FIELD_LIMITS.grade).optional(),
  /** Students with an active enrollment in this program. */
  programId: z.string().trim().min(1).max(64).optional(),
  status: StudentStatus.optional(),
  sortBy: StudentSortBy.default('createdAt'),
});
export type StudentListQuery = z.input<typeof StudentListQuery>;

export const StudentIdParams = z.object({ id: z.string().min(1).max(64), studentId: z.string().min(1).max(64) });

export const StudentResponse = okResponse(Student);
export const StudentListResponse = okResponse(
  z.object({
    items: z.array(Student),
    page: z.number(),
    pageSize: z.number(),
    total: z.number(),
    /** Every grade the business's students have, for the filter. */
    grades: z.array(z.string()),
  }),
);
export type StudentList = z.infer<typeof StudentListResponse>['data'];

/* ---------------------------------------------------------------- endpoints */

const tag = AREA.students;
const base = '/api/businesses/:id/students';
const notApproved: NotApprovedMessages = {
  pending: 'Students can be added once your business is approved.',
  disabled: 'This business is disabled, so its students cannot be changed. Contact Tay support.',
};
const rules = ['approved', 'studentTemplate'] as const;
const read = { tag, access: 'business:read', rules, notApproved } as const;
const operate = { tag, access: 'business:operate', rules, notApproved } as const;

const command = (name: 'activate' | 'deactivate', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:studentId/${name}`,
    summary,
    ...operate,
    params: StudentIdParams,
    response: StudentResponse,
    errors: [404, 409],
  });

export const studentEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Students, searched (name, student id, guardian e-mail), filtered (grade, program, status), sorted and paged',
    ...read,
    params: BusinessIdParams,
    query: StudentListQuery,
    response: StudentListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    ...read,
    params: BusinessIdParams,
    query: StudentListQuery,
    response: { description: 'The students, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Add a student with one or two guardians (existing payers, or new ones made with the student)',
    ...operate,
    params: BusinessIdParams,
    body: StudentInput,
    status: 201,
    response: StudentResponse,
    errors: [404, 409],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:studentId`,
    summary: 'One student with their guardians and enrollments',
    ...read,
    params: StudentIdParams,
    response: StudentResponse,
    errors: [404],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:studentId`,
    summary: 'Edit a student and their guardians',
    ...operate,
    params: StudentIdParams,
    body: StudentInput,
    response: StudentResponse,
    errors: [404, 409],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:studentId`,
    summary: 'Delete a student no payment request names (with their guardian links and enrollments)',
    ...operate,
    params: StudentIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [404, 409],
  }),
  activate: command('activate', 'Let a Disabled student be billed again'),
  deactivate: command('deactivate', 'Stop a student being billed'),
};
