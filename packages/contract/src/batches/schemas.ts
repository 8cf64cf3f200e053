import { z } from 'zod';
import { FieldErrors } from '../common/errors';
import { EARLIEST_DAY, LATEST_DAY } from '../common/dates';
import { boundedDateTime } from '../common/day-schemas';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { formatMoney, MAX_AMOUNT_CENTS, parseMoney } from '../common/money';
import { PATIENT_BATCH_FIELDS, PATIENT_BATCH_TEMPLATE, PATIENT_BILLING_BATCH_FIELDS, PATIENT_BILLING_BATCH_TEMPLATE } from '../patients/batch-fields';
import { STUDENT_BATCH_FIELDS, STUDENT_BATCH_TEMPLATE, STUDENT_BILLING_BATCH_FIELDS, STUDENT_BILLING_BATCH_TEMPLATE } from '../students/batch-fields';

/* -------------------------------------------------------------- bulk batches */

/**
 * A bulk batch (docs/product.md §10): a file of rows, each checked, reviewed and then sent as one
 * unit by the batch engine (ADR 032). The kinds share the engine; each declares its fields.
 */
export const BATCH_KINDS = ['requests', 'payouts', 'students', 'student-billing', 'patients', 'patient-billing'] as const;
export const BatchKind = z.enum(BATCH_KINDS);
export type BatchKind = z.infer<typeof BatchKind>;

/** `Draft` (in review) → `Submitted` → `Processed` | `Error` (some rows failed; each says why). */
export const BatchState = z.enum(['Draft', 'Submitted', 'Processed', 'Error']);
export type BatchState = z.infer<typeof BatchState>;

/**
 * Where the work of a batch is: `uploaded` (no mapping checked yet), `validating`, `validated`
 * (every row has its outcome), `sending`, `done`.
 */
export const BatchPhase = z.enum(['uploaded', 'validating', 'validated', 'sending', 'done']);
export type BatchPhase = z.infer<typeof BatchPhase>;

export const MAX_BATCH_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_BATCH_ROWS = 100_000;
export const BATCH_SAMPLE_ROWS = 5;

/** A row's outcome: checked good (`valid`) or not (`invalid`), then `sent` or `failed` once submitted. */
export const BatchRowStatus = z.enum(['pending', 'valid', 'invalid', 'sent', 'failed']);
export type BatchRowStatus = z.infer<typeof BatchRowStatus>;

/** Who pays on a request row: an existing payer (by e-mail or reference), or one the row creates. */
export const BatchPayerMode = z.enum(['existing', 'create']);
export type BatchPayerMode = z.infer<typeof BatchPayerMode>;

export interface BatchField {
  key: string;
  label: string;
  /** Needed for every row (`always`), or only with that payer mode. */
  required?: 'always' | BatchPayerMode;
  /** What the template shows and the map step explains. */
  hint: string;
  /** Header names (letters and digits only, lower case) that mean this field. */
  synonyms: readonly string[];
  /** Only with this payer mode. */
  mode?: BatchPayerMode;
}

export const REQUEST_BATCH_FIELDS = [
  {
    key: 'email',
    label: 'Payer e-mail',
    required: 'create',
    hint: "The payer's e-mail address",
    synonyms: ['email', 'emailaddress', 'payeremail', 'mail', 'emailid'],
  },
  {
    key: 'payerReference',
    label: 'Payer reference',
    hint: "The payer's reference in Tay (instead of the e-mail)",
    synonyms: ['payerreference', 'payerref', 'customerid', 'accountnumber', 'payerid'],
    mode: 'existing',
  },
  {
    key: 'firstName',
    label: 'First name',
    required: 'create',
    hint: 'For a new payer',
    synonyms: ['firstname', 'first', 'givenname', 'fname'],
    mode: 'create',
  },
  {
    key: 'lastName',
    label: 'Last name',
    required: 'create',
    hint: 'For a new payer',
    synonyms: ['lastname', 'last', 'surname', 'familyname', 'lname'],
    mode: 'create',
  },
  { key: 'amount', label: 'Amount', required: 'always', hint: '125.50 or $1,234.50', synonyms: ['amount', 'amountdue', 'total', 'sum', 'price', 'amountusd'] },
  { key: 'memo', label: 'Memo', hint: 'What it is for (shown to the payer)', synonyms: ['memo', 'description', 'for', 'note', 'notes'] },
  {
    key: 'reference',
    label: 'Reference',
    hint: 'Your reference for this request',
    synonyms: ['reference', 'ref', 'invoice', 'invoicenumber', 'yourreference'],
  },
  {
    key: 'dueDate',
    label: 'Due date',
    required: 'always',
    hint: '2026-12-31, 12/31/2026 or Dec 31, 2026',
    synonyms: ['duedate', 'due', 'dueon', 'paymentdue'],
  },
  {
    key: 'expiresOn',
    label: 'Expiry date',
    hint: 'Blank: the due date plus your default expiry',
    synonyms: ['expirydate', 'expiresOn', 'expires', 'expireson', 'expiry', 'expirationdate'],
  },
  {
    key: 'allowPartial',
    label: 'Allow partial payment',
    hint: 'yes or no (blank: no)',
    synonyms: ['allowpartial', 'partial', 'allowpartialpayment', 'partialpayment'],
  },
  { key: 'channel', label: 'Channel', hint: 'email or sms (blank: email)', synonyms: ['channel', 'sendby', 'via', 'delivery'] },
] as const satisfies readonly BatchField[];

/**
 * The error key of a payout row left out because no owner or admin has reviewed its receiver yet
 * (one a member or a check-in added): the review page offers an owner or admin to include it,
 * which reviews the receiver and checks the row again.
 */
export const RECEIVER_REVIEW_ERROR_KEY = 'receiverReview';

/** A payout row (ADR 035): a receiver of the business by e-mail or reference, what to pay them and when. */
export const PAYOUT_BATCH_FIELDS = [
  {
    key: 'email',
    label: 'Receiver e-mail',
    hint: "The receiver's e-mail address",
    synonyms: ['email', 'emailaddress', 'receiveremail', 'payeeemail', 'mail', 'emailid'],
  },
  {
    key: 'receiverReference',
    label: 'Receiver reference',
    hint: "The receiver's reference in Tay (instead of the e-mail)",
    synonyms: ['receiverreference', 'receiverref', 'reference', 'ref', 'payeeid', 'receiverid', 'employeeid', 'vendorid'],
  },
  { key: 'amount', label: 'Amount', required: 'always', hint: '40.00 or $1,234.50', synonyms: ['amount', 'total', 'sum', 'pay', 'amountusd', 'payout'] },
  { key: 'memo', label: 'Memo', hint: 'What it is for (the receiver sees it)', synonyms: ['memo', 'description', 'for', 'note', 'notes'] },
  {
    key: 'payOn',
    label: 'Pay date',
    hint: 'Blank: as soon as it is approved; or 2026-12-31, 12/31/2026, Dec 31, 2026',
    synonyms: ['paydate', 'payon', 'date', 'paymentdate', 'sendon', 'senddate'],
  },
] as const satisfies readonly BatchField[];

export const BATCH_FIELDS: Record<BatchKind, readonly BatchField[]> = {
  requests: REQUEST_BATCH_FIELDS,
  payouts: PAYOUT_BATCH_FIELDS,
  students: STUDENT_BATCH_FIELDS,
  'student-billing': STUDENT_BILLING_BATCH_FIELDS,
  patients: PATIENT_BATCH_FIELDS,
  'patient-billing': PATIENT_BILLING_BATCH_FIELDS,
};

/** The downloadable template of a kind: its header and example rows. */
export const BATCH_TEMPLATES: Record<BatchKind, { fileName: string; rows: string[][] }> = {
  requests: {
    fileName: 'bulk-request-template.csv',
    rows: [
      ['Email', 'First name', 'Last name', 'Amount', 'Memo', 'Reference', 'Due date', 'Expiry date', 'Allow partial', 'Channel'],
      ['ana.lopez@example.com', 'Ana', 'Lopez', '125.50', 'December tuition', 'DEC-0001', '2026-12-31', '', 'no', 'email'],
      ['sam.lee@example.com', 'Sam', 'Lee', '$1,234.50', 'Team fees', 'DEC-0002', '12/31/2026', '01/31/2027', 'yes', 'email'],
    ],
  },
  payouts: {
    fileName: 'bulk-payout-template.csv',
    rows: [
      ['Email', 'Amount', 'Memo', 'Pay date'],
      ['ana.lopez@example.com', '40.00', 'Event staff, December 5', ''],
      ['sam.lee@example.com', '$1,234.50', 'December commission', '12/31/2026'],
    ],
  },
  students: STUDENT_BATCH_TEMPLATE,
  'student-billing': STUDENT_BILLING_BATCH_TEMPLATE,
  patients: PATIENT_BATCH_TEMPLATE,
  'patient-billing': PATIENT_BILLING_BATCH_TEMPLATE,
};

/** Which column of the file (by its header) holds each field, and who pays. */
export const BatchMapping = z.object({
  payer: BatchPayerMode.default('existing'),
  columns: z.record(z.string().max(64), z.string().max(200)),
});
export type BatchMapping = z.output<typeof BatchMapping>;
export type BatchMappingInput = z.input<typeof BatchMapping>;

function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The mapping a person most likely means, from the header names: each column for at most one
 * field, the first match wins. A file with first and last names is read as payers to create.
 */
export function suggestBatchMapping(kind: BatchKind, headers: readonly string[]): BatchMapping {
  const columns: Record<string, string> = {};
  const used = new Set<number>();
  for (const field of BATCH_FIELDS[kind]) {
    const index = headers.findIndex((h, i) => !used.has(i) && field.synonyms.map(headerKey).includes(headerKey(h)));
    if (index >= 0) {
      used.add(index);
      columns[field.key] = headers[index]!;
    }
  }
  const payer: BatchPayerMode = columns.firstName && columns.lastName && columns.email ? 'create' : 'existing';
  return { payer, columns };
}

/* ------------------------------------------------------------- reading cells */

/** `125.5`, `$1,234.50`, `1234` → cents; null for anything else. */
export function parseAmountCell(text: string): number | null {
  const trimmed = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/\s*(USD)$/i, '');
  return parseMoney(trimmed);
}

/** Whether a cell is an amount written negative (-5, $-5, (5.00)): it is asked to be above $0.00, not called unreadable. */
export function isNegativeAmount(text: string): boolean {
  const t = text.trim();
  const inner = /^\((.*)\)$/.exec(t)?.[1] ?? /^-\s*(.*)$/.exec(t)?.[1] ?? /^\$\s*-\s*(.*)$/.exec(t)?.[1];
  return inner !== undefined && parseAmountCell(inner) !== null && parseAmountCell(inner)! > 0;
}

/**
 * An amount cell of a bulk row, or a form's amount as typed, with one message for what is wrong:
 * blank, unreadable, negative or zero, or above the limit (the business's highest amount, at most
 * $10,000,000.00). `cents` is the amount when there is no error.
 */
export function amountCellProblem(
  text: string,
  { ceilingCents = MAX_AMOUNT_CENTS, blank = 'Enter an amount.' }: { ceilingCents?: number; blank?: string } = {},
): {
  cents: number | null;
  error: string | null;
} {
  const t = text.trim();
  if (t === '') return { cents: null, error: blank };
  if (isNegativeAmount(t)) return { cents: null, error: 'Enter an amount above $0.00.' };
  const cents = parseAmountCell(t);
  if (cents === null) return { cents: null, error: `"${t}" is not an amount. Write it like 125.50 or $1,234.50.` };
  if (cents <= 0) return { cents: null, error: 'Enter an amount above $0.00.' };
  if (cents > ceilingCents) {
    return {
      cents: null,
      error:
        ceilingCents >= MAX_AMOUNT_CENTS
          ? `The amount is above the ${formatMoney(MAX_AMOUNT_CENTS)} limit.`
          : `The amount is above this business's highest amount, ${formatMoney(ceilingCents)}.`,
    };
  }
  return { cents, error: null };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function day(year: number, month: number, date: number): string | null {
  const check = new Date(Date.UTC(year, month - 1, date));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  return iso >= EARLIEST_DAY && iso <= LATEST_DAY ? iso : null;
}

/** `2026-12-31`, `12/31/2026`, `Dec 31, 2026` (and `December 31, 2026`) → `2026-12-31`; null otherwise. */
export function parseDateCell(text: string): string | null {
  const value = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (m) return day(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (m) return day(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase());
    const name = m[1]!.toLowerCase();
    const full = new Date(Date.UTC(2000, month, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }).toLowerCase();
    if (month < 0 || (name.length > 3 && !full.startsWith(name))) return null;
    return day(Number(m[3]), month + 1, Number(m[2]));
  }
  return null;
}

/** yes/no, true/false, y/n, 1/0 (blank: no) → boolean; null otherwise. */
export function parseYesNoCell(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (['', 'no', 'n', 'false', '0', 'f'].includes(value)) return false;
  if (['yes', 'y', 'true', '1', 't'].includes(value)) return true;
  return null;
}

/** email / e-mail / sms / text (blank: email) → the request channel; null otherwise. */
export function parseChannelCell(text: string): 'email' | 'sms' | null {
  const value = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (value === '' || value === 'email' || value === 'mail') return 'email';
  if (value === 'sms' || value === 'text' || value === 'textmessage') return 'sms';
  return null;
}

/* ---------------------------------------------------------------- the API */

export const BatchIdParams = z.object({ id: z.string().min(1).max(64), batchId: z.string().min(1).max(64) });
/** An event of Manage Events (payouts), for "Pay checked-in receivers". */
export const EventIdParams = z.object({ id: z.string().min(1).max(64), eventId: z.string().min(1).max(64) });
export const BatchRowParams = BatchIdParams.extend({ row: z.coerce.number().int().min(1).max(100_000_000) });

export const BatchUploadQuery = z.object({
  kind: BatchKind,
  fileName: z
    .string()
    .trim()
    .min(1, 'Name the file (fileName).')
    .max(255, 'The file name is longer than 255 characters.')
    .regex(/^\P{Cc}*$/u, 'The file name cannot contain control characters.'),
});

export const BatchCounts = z.object({
  rows: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});
export type BatchCounts = z.infer<typeof BatchCounts>;

export const Batch = z.object({
  batchId: z.string(),
  kind: BatchKind,
  fileName: z.string(),
  fileBytes: z.number().int(),
  /** The e-mail of the person who uploaded it. */
  uploadedBy: z.string(),
  createdAt: z.string(),
  state: BatchState,
  phase: BatchPhase,
  /** The file's header row. */
  columns: z.array(z.string()),
  /** The cells of the file's first rows (at most BATCH_SAMPLE_ROWS), for the map step's preview. */
  sample: z.array(z.array(z.string())),
  mapping: BatchMapping,
  /** An earlier batch of the business with exactly the same file (SHA-256), or null. */
  duplicateOf: z.string().nullable(),
  counts: BatchCounts,
  /** The sum of the valid rows' amounts: what will be (or was) requested. */
  totalCents: z.number().int(),
  /** The sum of the rows that were sent. */
  sentCents: z.number().int(),
  /**
   * Only for a kind whose rows are sent in groups (patient billing: a patient's charges make one
   * statement): the groups of the valid rows (what submitting makes) and the requests sent.
   */
  groups: z.object({ valid: z.number().int(), sent: z.number().int() }).optional(),
  /** Of the work under way (validating or sending): rows done of rows to do. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** For a scheduled submission: when the requests go out (ISO). */
  sendAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  processedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Batch = z.infer<typeof Batch>;
export const BatchResponse = okResponse(Batch);

export const BatchRow = z.object({
  /** The line of the file where the row starts (the header is line 1): how the file's author finds it. */
  row: z.number().int(),
  status: BatchRowStatus,
  /** The row's values by field, as written in the file (or as fixed). */
  fields: z.record(z.string(), z.string()),
  /** One message per invalid field; `row` for the row as a whole (a repeat, a failure to send). */
  errors: FieldErrors,
  amountCents: z.number().int().nullable(),
  payerName: z.string().nullable(),
  /** What the row made, once sent: the request (or, in a payouts batch, the payout). */
  requestId: z.string().nullable(),
  referenceNumber: z.string().nullable(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const BatchRowFilter = z.enum(['all', 'valid', 'invalid', 'sent', 'failed']);
export type BatchRowFilter = z.infer<typeof BatchRowFilter>;
export const BatchRowsQuery = PageQuery.pick({ page: true, pageSize: true }).extend({ status: BatchRowFilter.default('all') });
export type BatchRowsQuery = z.input<typeof BatchRowsQuery>;
export const BatchRowListResponse = listResponse(BatchRow);

export const BatchListQuery = PageQuery.pick({ page: true, pageSize: true }).extend({ kind: BatchKind.optional() });
export type BatchListQuery = z.input<typeof BatchListQuery>;
export const BatchListResponse = listResponse(Batch);

export const BatchMappingBody = z.object({ mapping: BatchMapping });
export type BatchMappingBody = z.input<typeof BatchMappingBody>;

/** Several rows of a Draft dropped together: by their lines, or every row with errors. */
export const BatchRowsDropBody = z.union(
  [
    z.object({ rows: z.array(z.number().int().min(2)).min(1, 'Choose at least one row.').max(1000, 'Drop at most 1,000 rows at a time.') }),
    z.object({ status: z.literal('invalid') }),
  ],
  { error: 'Name the rows to drop ({ rows: [lines] }), or { status: "invalid" } for every row with errors.' },
);
export type BatchRowsDropBody = z.input<typeof BatchRowsDropBody>;

export const BatchRowFixBody = z.object({ fields: z.record(z.string().max(64), z.string().max(2000)) });
export type BatchRowFixBody = z.input<typeof BatchRowFixBody>;
export const BatchRowFixed = z.object({ row: BatchRow, batch: Batch });
export const BatchRowFixedResponse = okResponse(BatchRowFixed);

export const BatchSubmitBody = z
  .object({
    mode: z.enum(['send', 'schedule']),
    /** For `schedule`: when the requests go out (ISO date-time with offset, in the future). */
    sendAt: boundedDateTime('Send time').nullable().optional(),
  })
  .refine((b) => b.mode !== 'schedule' || Boolean(b.sendAt), { message: 'Choose when to send them.', path: ['sendAt'] });
export type BatchSubmitBody = z.input<typeof BatchSubmitBody>;

export const BATCH_STATE_LABELS: Record<BatchState, string> = {
  Draft: 'In review',
  Submitted: 'Submitted',
  Processed: 'Processed',
  Error: 'Error',
};
