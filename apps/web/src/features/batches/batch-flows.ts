import {
  paths,
  type Batch,
  type BatchKind,
  paymentRequestEndpoints,
  payoutEndpoints,
  studentEndpoints,
  studentBillingEndpoints,
  patientStatementEndpoints,
  patientEndpoints,
} from '@tay/contract';
import type { AccessEntry } from '../../lib/endpoint-access';
import { downloadBatchTemplate } from '../../lib/batch-template';

/**
 * One bulk flow of the portal: its kind of batch and the four pages of its routes (the list,
 * upload, map, review). The batch pages are shared by every flow (ADR 032); each flow only names
 * its words and routes.
 */
export interface BatchFlow {
  kind: BatchKind;
  title: string;
  /** What one valid row becomes ("request to pay"), and many ("requests to pay"). */
  madeOne: string;
  made: string;
  /** The endpoint of what the flow makes: who may use the flow, and why not, is asked of it. */
  access: AccessEntry;
  paths: { list: string; upload: string; map: string; review: string };
  /** Where what a batch made is listed, filtered to it. */
  resultsHref: (batchId: string) => string;
  /** Where one thing a row made opens. */
  madeHref: (id: string) => string;
  /** Who a row names: "payer", "receiver" (and with a capital, the review's column). */
  party: string;
  partyTitle: string;
  /** The landing's button: "New bulk request". */
  newLabel: string;
  /** The review's total: "Total to request". */
  totalLabel: string;
  /** Whether the map step offers new parties from the file (payers can be created, receivers cannot). */
  createsParties: boolean;
  /** Whether a batch can be scheduled for a time (payouts carry their own pay date per row). */
  canSchedule: boolean;
  /** The upload page's "What the file holds". */
  fileHolds: string[];
  /** The review's columns beyond the party and the amount: a field's key and its heading. */
  detailFields: { key: string; header: string }[];
  /** The submit step's words. */
  submit: { button: string; confirmTitle: string; confirm: string; after: (what: string) => string; done: string };
  /** What sending the same file twice would do: "ask your payers twice". */
  twice: string;
  /** What the review's send line says of the valid rows: "will be sent", "will be added". */
  willBe?: string;
  /** Whether rows carry an amount (false: a student import makes students, not money; no amount column or total). */
  amounts?: boolean;
  /** The link to what a batch made, once sent; "See them in the transaction history" unless said. */
  resultsLabel?: string;
  /**
   * For a kind whose rows are sent in groups (patient billing: one statement per patient): the
   * review's figure of the groups. `madeOne`/`made` then name a group, and the counts of what is
   * made are the batch's `groups`.
   */
  groups?: { label: string; hint: string; sentHint: string };
}

export const REQUEST_BATCH_FLOW: BatchFlow = {
  twice: 'ask your payers twice',
  kind: 'requests',
  title: 'Bulk Request to Pay',
  madeOne: 'request to pay',
  made: 'requests to pay',
  access: paymentRequestEndpoints.create,
  paths: {
    list: paths.payments.bulkRtp,
    upload: paths.payments.requestImport,
    map: paths.payments.bulkImport,
    review: paths.payments.bulkReview,
  },
  resultsHref: (batchId) => `${paths.payments.history}?batchId=${encodeURIComponent(batchId)}`,
  madeHref: (id) => `${paths.payments.history}?transid=${encodeURIComponent(id)}`,
  party: 'payer',
  partyTitle: 'Payer',
  newLabel: 'New bulk request',
  totalLabel: 'Total to request',
  createsParties: true,
  canSchedule: true,
  fileHolds: [
    "Who pays: the payer's e-mail or reference, or first name, last name and e-mail for a new payer.",
    'The amount (125.50 or $1,234.50) and the due date (2026-12-31, 12/31/2026 or Dec 31, 2026).',
    'Optional: memo, reference, expiry date, allow partial payment (yes/no), channel (email or sms).',
  ],
  detailFields: [
    { key: 'dueDate', header: 'Due' },
    { key: 'reference', header: 'Reference' },
  ],
  submit: {
    button: 'Submit and send',
    confirmTitle: 'Send them now?',
    confirm: 'Send now',
    after: (what) => `${what} go out now, each to its payer.`,
    done: 'sending has started.',
  },
};

/** Bulk payouts (ADR 035): rows name receivers; the payouts wait for approval as one batch. */
export const PAYOUT_BATCH_FLOW: BatchFlow = {
  twice: 'pay your receivers twice',
  kind: 'payouts',
  title: 'Send a Payment - Multiple Receivers',
  madeOne: 'payout',
  made: 'payouts',
  access: payoutEndpoints.create,
  paths: {
    list: paths.payouts.bulkRtp,
    upload: paths.payouts.bulkUpload,
    map: paths.payouts.bulkMap,
    review: paths.payouts.bulkReview,
  },
  resultsHref: (batchId) => `${paths.payouts.transactions}?batchId=${encodeURIComponent(batchId)}`,
  madeHref: (id) => `${paths.payouts.transactions}?payoutId=${encodeURIComponent(id)}`,
  party: 'receiver',
  partyTitle: 'Receiver',
  newLabel: 'New bulk payout',
  totalLabel: 'Total to pay out',
  createsParties: false,
  canSchedule: false,
  fileHolds: [
    "Who is paid: the receiver's e-mail or reference (receivers who have entered their bank account).",
    'The amount (40.00 or $1,234.50).',
    'Optional: memo, pay date (2026-12-31, 12/31/2026 or Dec 31, 2026; blank: as soon as approved).',
  ],
  detailFields: [
    { key: 'memo', header: 'Memo' },
    { key: 'payOn', header: 'Pay date' },
  ],
  submit: {
    button: 'Submit payouts',
    confirmTitle: 'Submit these payouts?',
    confirm: 'Submit',
    after: (what) =>
      `${what} are submitted. Each is paid to its receiver's bank account once approved; if your business needs no second approver they are approved at once, as far as the available balance covers them.`,
    done: 'the payouts are being made.',
  },
};

/** Importing students with their guardians (ADR 036): each row makes a student; guardians are matched to payers by e-mail. */
export const STUDENT_IMPORT_FLOW: BatchFlow = {
  twice: 'add the same students twice (the second time their student ids are taken, so those rows fail)',
  willBe: 'will be added',
  kind: 'students',
  title: 'Import Students',
  madeOne: 'student',
  made: 'students',
  access: studentEndpoints.create,
  paths: {
    list: paths.entity.studentImports,
    upload: paths.entity.studentImport,
    map: paths.entity.studentImportMap,
    review: paths.entity.studentImportReview,
  },
  resultsHref: () => paths.entity.students,
  madeHref: (id) => `${paths.entity.studentEdit}?studentId=${encodeURIComponent(id)}`,
  party: 'student',
  partyTitle: 'Student',
  newLabel: 'Import students',
  totalLabel: 'Students to add',
  createsParties: false,
  canSchedule: false,
  amounts: false,
  resultsLabel: 'See them in Manage Students',
  fileHolds: [
    "The student: the school's student id, first and last name; optional grade or group and date of birth (2014-05-31, 05/31/2014 or May 31, 2014).",
    "The first guardian's e-mail: a payer with that e-mail is used; otherwise their first and last name (and optional mobile) make a new payer.",
    'Optional: a second guardian, the same way. A guardian of several students is one payer, never a copy.',
  ],
  detailFields: [
    { key: 'studentNumber', header: 'Student id' },
    { key: 'grade', header: 'Grade' },
    { key: 'guardian2Email', header: 'Second guardian' },
  ],
  submit: {
    button: 'Import students',
    confirmTitle: 'Import these students?',
    confirm: 'Import',
    after: (what) => `${what} are added now, with their guardians; guardians who are not payers yet become payers.`,
    done: 'the students are being added.',
  },
};

/**
 * Student billing (ADR 036): rows name students by the school's id; each makes one request to pay
 * to the student's first guardian (or both). Request to Pay Multiple Students uploads such a file,
 * or makes the batch from the students picked; Program Billing makes it from enrollments.
 */
export const STUDENT_BILLING_FLOW: BatchFlow = {
  twice: 'bill the same students twice',
  kind: 'student-billing',
  title: 'Request to Pay Multiple Students',
  madeOne: 'request to pay',
  made: 'requests to pay',
  access: studentBillingEndpoints.create,
  paths: {
    list: paths.entity.bulkStudentsHistory,
    upload: paths.entity.bulkStudentsUpload,
    map: paths.entity.bulkStudentsMap,
    review: paths.entity.bulkStudentsReview,
  },
  resultsHref: (batchId) => `${paths.entity.billingTransactions}?batchId=${encodeURIComponent(batchId)}`,
  madeHref: (id) => `${paths.payments.history}?transid=${encodeURIComponent(id)}`,
  party: 'guardian',
  partyTitle: 'Student (guardian)',
  newLabel: 'Upload a CSV',
  totalLabel: 'Total to request',
  createsParties: false,
  canSchedule: true,
  resultsLabel: 'See them in Billing Transactions',
  fileHolds: [
    "The student: the school's student id of an active student with a guardian.",
    "The due date (2026-12-31, 12/31/2026 or Dec 31, 2026) and the amount (125.50 or $1,234.50), or the program's name to bill its fee.",
    'Optional: program, period (December 2026, or a period named in a billing cycle), memo, bill guardian or both.',
  ],
  detailFields: [
    { key: 'studentNumber', header: 'Student id' },
    { key: 'program', header: 'Program' },
    { key: 'period', header: 'Period' },
    { key: 'dueDate', header: 'Due' },
  ],
  submit: {
    button: 'Submit and send',
    confirmTitle: 'Send them now?',
    confirm: 'Send now',
    after: (what) => `${what} go out now, each e-mailed to the student's guardian (both, where the row says so).`,
    done: 'sending has started.',
  },
};

/** Program Billing and Payment: the same batch pages, reviewed at the program billing route. */
export const PROGRAM_BILLING_FLOW: BatchFlow = {
  ...STUDENT_BILLING_FLOW,
  title: 'Program Billing and Payment',
  paths: { ...STUDENT_BILLING_FLOW.paths, list: paths.entity.programBilling, review: paths.entity.programBillingReview },
  newLabel: 'Bill programs',
};

/**
 * Patient billing (ADR 037): one row per charge line, named by the patient's MRN; the charges of a
 * patient make ONE statement (one request to pay to the patient's guarantor, for the sum of the
 * patient responsibility). A patient's statement goes whole or not at all.
 */
export const PATIENT_BILLING_FLOW: BatchFlow = {
  twice: 'bill the same charges twice',
  kind: 'patient-billing',
  title: 'Request to Pay Multiple Patients',
  madeOne: 'statement',
  made: 'statements',
  access: patientStatementEndpoints.create,
  paths: {
    list: paths.entity.healthcareBulk,
    upload: paths.entity.healthcareBulkUpload,
    map: paths.entity.healthcareBulkMap,
    review: paths.entity.healthcareBulkReview,
  },
  resultsHref: (batchId) => `${paths.payments.history}?batchId=${encodeURIComponent(batchId)}`,
  madeHref: (id) => `${paths.payments.history}?transid=${encodeURIComponent(id)}`,
  party: 'patient',
  partyTitle: 'Patient (guarantor)',
  newLabel: 'New bulk statement',
  totalLabel: 'Total to request',
  createsParties: false,
  canSchedule: true,
  fileHolds: [
    "One row per charge: the patient's MRN, the date of service (2026-11-20, 11/20/2026 or Nov 20, 2026, not in the future), what was done and the billed amount (250.00 or $1,234.50).",
    'Optional: insurance paid and adjustment (blank: 0), the patient responsibility (blank: billed − insurance paid − adjustment; when given it must add up), memo, payment plan (yes: the guarantor may pay in parts, the default; no on any of the patient’s rows: in full), due date (blank: 30 days from the day it is sent).',
    "The rows of one patient make one statement to their guarantor, for the sum of their patient responsibility; they need not be next to each other. A statement goes whole or not at all: while one of its rows has an error, the others wait. Its rows must agree on the due date and memo (blank rows take the other rows').",
  ],
  detailFields: [
    { key: 'dateOfService', header: 'Service date' },
    { key: 'description', header: 'Description' },
    { key: 'billed', header: 'Billed' },
    { key: 'insurancePaid', header: 'Insurance paid' },
    { key: 'adjustment', header: 'Adjustment' },
    { key: 'dueDate', header: 'Due' },
  ],
  groups: { label: 'Statements', hint: 'One per patient, with all their charges', sentHint: 'Sent, one per patient' },
  submit: {
    button: 'Submit and send',
    confirmTitle: 'Send these statements now?',
    confirm: 'Send now',
    after: (what) => `${what} go out now, each e-mailed to the patient's guarantor with its charges (the patient's first name only, never the date of birth).`,
    done: 'sending has started.',
  },
};

/** Importing patients with their guarantors (ADR 037): each row makes a patient; guarantors are matched to payers by e-mail. */
export const PATIENT_IMPORT_FLOW: BatchFlow = {
  twice: 'add the same patients twice (the second time their MRNs are taken, so those rows fail)',
  willBe: 'will be added',
  kind: 'patients',
  title: 'Import Patients',
  madeOne: 'patient',
  made: 'patients',
  access: patientEndpoints.create,
  paths: {
    list: paths.entity.healthcareClientImports,
    upload: paths.entity.healthcareClientImport,
    map: paths.entity.healthcareClientImportMap,
    review: paths.entity.healthcareClientImportReview,
  },
  resultsHref: () => paths.entity.healthcareClients,
  madeHref: (id) => `${paths.entity.healthcareClientEdit}?clientId=${encodeURIComponent(id)}`,
  party: 'patient',
  partyTitle: 'Patient',
  newLabel: 'Import patients',
  totalLabel: 'Patients to add',
  createsParties: false,
  canSchedule: false,
  amounts: false,
  resultsLabel: 'See them in Manage Clients',
  fileHolds: [
    "The patient: the practice's MRN, first and last name, and date of birth (1984-05-31, 05/31/1984 or May 31, 1984).",
    "Who pays (the guarantor): self (the patient, the default), parent, spouse, child or other, and their e-mail. A payer with that e-mail is used; otherwise a new payer is made — with the patient's names for self, or the guarantor's first and last name (and optional mobile).",
    'A guarantor of several patients is one payer, never a copy. An MRN already taken, or repeated in the file, is flagged on its row.',
  ],
  detailFields: [
    { key: 'mrn', header: 'MRN' },
    { key: 'guarantorRelationship', header: 'Guarantor' },
    { key: 'guarantorEmail', header: 'Guarantor e-mail' },
  ],
  submit: {
    button: 'Import patients',
    confirmTitle: 'Import these patients?',
    confirm: 'Import',
    after: (what) => `${what} are added now, with their guarantors; guarantors who are not payers yet become payers.`,
    done: 'the patients are being added.',
  },
};

/** How many things the valid (or sent) rows make: one each, or one per group where a kind groups its rows (patient billing: a statement per patient). */
export function madeCount(batch: Pick<Batch, 'counts' | 'groups'>, which: 'valid' | 'sent'): number {
  return batch.groups ? batch.groups[which] : batch.counts[which];
}

/** The kind's template (header and example rows) as a CSV file the browser saves. */
export const downloadTemplate = downloadBatchTemplate;

/** "1 request to pay", "2,000 requests to pay". */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
