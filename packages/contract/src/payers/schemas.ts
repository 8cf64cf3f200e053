import { z } from 'zod';
import { FieldErrors } from '../common/errors';
import { listResponse, PageQuery } from '../common/lists';

/* ------------------------------------------------------------------ payers */

export const PayerStatus = z.enum(['active', 'Disabled']);
export type PayerStatus = z.infer<typeof PayerStatus>;
export const VerificationState = z.enum(['unverified', 'verified']);
export type VerificationState = z.infer<typeof VerificationState>;

/** The longest each payer field may be, in characters: the API refuses more, the form takes no more. */
export const PAYER_FIELD_LIMITS = { firstName: 100, lastName: 100, companyName: 200, email: 320, reference: 64 } as const;

export const payerName = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`);
const name = payerName;

/** A payer as the merchant enters it: a person (first/last name) or a company. */
export const PayerInput = z
  .object({
    firstName: name(PAYER_FIELD_LIMITS.firstName).optional().default(''),
    lastName: name(PAYER_FIELD_LIMITS.lastName).optional().default(''),
    companyName: name(PAYER_FIELD_LIMITS.companyName).optional().default(''),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email('Enter a valid e-mail address.'))
      .pipe(z.string().max(PAYER_FIELD_LIMITS.email, `Use at most ${PAYER_FIELD_LIMITS.email} characters.`)),
    mobileNumber: z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number.')
      .nullable()
      .optional(),
    reference: name(PAYER_FIELD_LIMITS.reference).nullable().optional(),
  })
  .refine((p) => (p.firstName && p.lastName) || p.companyName, {
    message: 'Enter a first and last name, or a company name.',
    path: ['firstName'],
  });
export type PayerInput = z.input<typeof PayerInput>;

export const Payer = z.object({
  payerId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  displayName: z.string(),
  email: z.string(),
  mobileNumber: z.string().nullable(),
  reference: z.string().nullable(),
  status: PayerStatus,
  verification: VerificationState,
  verificationSentAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  /** Every request to pay naming the payer, drafts included: while there is one, the payer cannot be deleted. */
  transactionCount: z.number().int(),
  /** The requests the payer's Transactions page lists: every state but Draft. */
  historyCount: z.number().int(),
  /** Drafts naming the payer: not sent, not in the history, but they keep the payer from being deleted. */
  draftCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Payer = z.infer<typeof Payer>;

/** Payer row actions (docs/product.md §4). */
export type PayerAction = 'Edit' | 'Request to Pay' | 'Transactions' | 'Activate' | 'Deactivate' | 'Resend verification' | 'Re-verify' | 'Delete';

export function payerActions(payer: Pick<Payer, 'status' | 'verification' | 'transactionCount'>): PayerAction[] {
  const actions: PayerAction[] = ['Edit'];
  if (payer.status === 'active') actions.push('Request to Pay');
  actions.push('Transactions', payer.status === 'active' ? 'Deactivate' : 'Activate');
  actions.push(payer.verification === 'unverified' ? 'Resend verification' : 'Re-verify');
  if (payer.transactionCount === 0) actions.push('Delete');
  return actions;
}

export const PayerListQuery = PageQuery.extend({
  status: PayerStatus.optional(),
  verification: VerificationState.optional(),
  sortBy: z.enum(['name', 'email', 'createdAt', 'status']).default('createdAt'),
});
export type PayerListQuery = z.input<typeof PayerListQuery>;

/* ------------------------------------------------------------ the API's shapes */

export const PayerIdParams = z.object({ id: z.string().min(1).max(64), payerId: z.string().min(1).max(64) });

export const PayerResponse = z.object({ status: z.literal('Success'), data: Payer });
export const PayerListResponse = listResponse(Payer);
export const PayerDeletedResponse = z.object({ status: z.literal('Success'), data: z.object({ payerId: z.string() }) });

/**
 * PATCH …/payers/:payerId: an absent field keeps its value, `null` clears an optional one. The
 * result must still be a valid `PayerInput` (a name or a company, a valid e-mail).
 */
export const PayerUpdateBody = z
  .object({
    firstName: name(PAYER_FIELD_LIMITS.firstName).optional(),
    lastName: name(PAYER_FIELD_LIMITS.lastName).optional(),
    companyName: name(PAYER_FIELD_LIMITS.companyName).optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email('Enter a valid e-mail address.'))
      .pipe(z.string().max(PAYER_FIELD_LIMITS.email, `Use at most ${PAYER_FIELD_LIMITS.email} characters.`))
      .optional(),
    mobileNumber: z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number.')
      .nullable()
      .optional(),
    reference: name(PAYER_FIELD_LIMITS.reference).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change.' });
export type PayerUpdateBody = z.input<typeof PayerUpdateBody>;

/** What lists and the typeahead show: the company, or "First Last" (migration 0004). */
export function payerDisplayName(p: { firstName?: string | null; lastName?: string | null; companyName?: string | null }): string {
  const company = (p.companyName ?? '').trim();
  if (company) return company;
  return [p.firstName, p.lastName]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

/* ------------------------------------------------------------ history */

/** What happened to a payer, as the audit trail recorded it (migration 0018). */
export const PayerHistoryAction = z.enum([
  'created',
  'imported',
  'updated',
  'activated',
  'deactivated',
  'verification_sent',
  'reverification_requested',
  'verified',
]);
export type PayerHistoryAction = z.infer<typeof PayerHistoryAction>;

export const PayerHistoryEvent = z.object({
  eventId: z.string(),
  action: PayerHistoryAction,
  /** Who did it: a person's e-mail, `operations`, or `payer` when the payer did it. */
  actor: z.string(),
  /** What happened, in words, for the timeline. */
  text: z.string(),
  createdAt: z.string(),
});
export type PayerHistoryEvent = z.infer<typeof PayerHistoryEvent>;

/** The newest events first; at most `PAYER_HISTORY_LIMIT` of them. */
export const PAYER_HISTORY_LIMIT = 200;
export const PayerHistoryResponse = z.object({ status: z.literal('Success'), data: z.object({ items: z.array(PayerHistoryEvent), more: z.boolean() }) });
export type PayerHistory = z.infer<typeof PayerHistoryResponse>['data'];

/* ---------------------------------------------------------- typeahead */

/** GET /api/directory/payers/beginsWith (docs/product.md §7 segments "directory" and "beginsWith"). */
export const PayerTypeaheadQuery = z.object({
  businessId: z.string().min(1).max(64),
  q: z.string().trim().min(1, 'Type at least one character.').max(100),
  limit: z.coerce.number().int().min(1).max(25).default(10),
  /** `true`: deactivated payers too (list filters look at their history; new requests never). */
  includeDisabled: z.stringbool().optional().default(false),
});
export type PayerTypeaheadQuery = z.input<typeof PayerTypeaheadQuery>;

export const PayerSuggestion = Payer.pick({
  payerId: true,
  displayName: true,
  email: true,
  mobileNumber: true,
  reference: true,
  verification: true,
}).extend({
  /** Only with `includeDisabled`, where active and deactivated payers come mixed. */
  status: Payer.shape.status.optional(),
});
export type PayerSuggestion = z.infer<typeof PayerSuggestion>;
export const PayerTypeaheadResponse = z.object({ status: z.literal('Success'), data: z.array(PayerSuggestion) });

/* ------------------------------------------------------- verification */

export const PayerVerifyParams = z.object({
  token: z.string().min(1).max(200),
});

export const PayerVerification = z.object({
  payerName: z.string(),
  businessName: z.string(),
  verifiedAt: z.string(),
  /** The link had already been used: nothing changed. */
  alreadyVerified: z.boolean(),
});
export type PayerVerification = z.infer<typeof PayerVerification>;
export const PayerVerificationResponse = z.object({ status: z.literal('Success'), data: PayerVerification });

/* ------------------------------------------------------------- import */

export const MAX_PAYER_IMPORT_CHARS = 2 * 1024 * 1024;
export const MAX_PAYER_IMPORT_ROWS = 5000;

export const PAYER_IMPORT_FIELDS = ['firstName', 'lastName', 'companyName', 'email', 'mobileNumber', 'reference'] as const;
export const PayerImportField = z.enum(PAYER_IMPORT_FIELDS);
export type PayerImportField = z.infer<typeof PayerImportField>;

export const PAYER_IMPORT_FIELD_LABELS: Record<PayerImportField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  companyName: 'Company',
  email: 'E-mail',
  mobileNumber: 'Mobile number',
  reference: 'Reference',
};

const header = z.string().max(200);

/** Which column of the file (by its header) holds each field; only the e-mail is required. */
export const PayerImportMapping = z.object({
  firstName: header.optional(),
  lastName: header.optional(),
  companyName: header.optional(),
  email: header.min(1, 'Choose the column that holds the e-mail addresses.'),
  mobileNumber: header.optional(),
  reference: header.optional(),
});
export type PayerImportMapping = z.infer<typeof PayerImportMapping>;
export const SuggestedPayerMapping = PayerImportMapping.partial();
export type SuggestedPayerMapping = z.infer<typeof SuggestedPayerMapping>;

export const PayerImportBody = z.object({
  csv: z.string().max(MAX_PAYER_IMPORT_CHARS, 'The file is larger than 2 MB; split it into smaller files and import them one by one.'),
  mapping: PayerImportMapping.optional(),
});
export type PayerImportBody = z.infer<typeof PayerImportBody>;

export const PayerImportRowStatus = z.enum(['new', 'duplicate', 'error']);
export type PayerImportRowStatus = z.infer<typeof PayerImportRowStatus>;

export const PayerImportRow = z.object({
  /** The line of the file where the row starts (the header is line 1). */
  row: z.number().int(),
  status: PayerImportRowStatus,
  /** One message per invalid field (`row` for a problem with the row as a whole). */
  errors: FieldErrors,
  /** Why a duplicate is skipped ("A payer with this e-mail already exists."). */
  note: z.string().nullable(),
  payer: z.object({
    firstName: z.string(),
    lastName: z.string(),
    companyName: z.string(),
    displayName: z.string(),
    email: z.string(),
    mobileNumber: z.string().nullable(),
    reference: z.string().nullable(),
  }),
});
export type PayerImportRow = z.infer<typeof PayerImportRow>;

export const PayerImportPreview = z.object({
  headers: z.array(z.string()),
  suggestedMapping: SuggestedPayerMapping,
  /** The mapping the rows were read with: the one sent, or the suggestion. */
  mapping: PayerImportMapping,
  rows: z.array(PayerImportRow),
  counts: z.object({ total: z.number(), new: z.number(), duplicate: z.number(), error: z.number() }),
});
export type PayerImportPreview = z.infer<typeof PayerImportPreview>;
export const PayerImportPreviewResponse = z.object({ status: z.literal('Success'), data: PayerImportPreview });

export const PayerImportResult = z.object({
  added: z.number().int(),
  /** Rows already in the business, or repeated in the file. */
  skipped: z.number().int(),
  batchId: z.string(),
});
export type PayerImportResult = z.infer<typeof PayerImportResult>;
export const PayerImportResultResponse = z.object({ status: z.literal('Success'), data: PayerImportResult });

/** "Email", "E-mail address", "First Name"… → `email`, `firstName`: lower case, letters and digits only. */
function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const HEADER_SYNONYMS: Record<PayerImportField, string[]> = {
  email: ['email', 'emailaddress', 'mail', 'payeremail', 'emailid'],
  firstName: ['firstname', 'first', 'givenname', 'forename', 'fname'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'lname'],
  companyName: ['company', 'companyname', 'business', 'businessname', 'organization', 'organisation', 'organizationname'],
  mobileNumber: ['mobile', 'mobilenumber', 'mobilephone', 'cell', 'cellphone', 'cellnumber', 'phone', 'phonenumber', 'telephone', 'tel'],
  reference: ['reference', 'ref', 'referencenumber', 'yourreference', 'accountnumber', 'account', 'customerid', 'customernumber', 'externalid'],
};

/**
 * The mapping a person most likely means, from the header names alone. Each column is used for
 * at most one field; the first column that matches a field wins.
 */
export function suggestPayerMapping(headers: readonly string[]): SuggestedPayerMapping {
  const suggestion: SuggestedPayerMapping = {};
  const used = new Set<number>();
  for (const field of PAYER_IMPORT_FIELDS) {
    const index = headers.findIndex((h, i) => !used.has(i) && HEADER_SYNONYMS[field].includes(headerKey(h)));
    if (index >= 0) {
      used.add(index);
      suggestion[field] = headers[index];
    }
  }
  return suggestion;
}
