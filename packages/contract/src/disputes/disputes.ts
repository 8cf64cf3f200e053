import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { AREA } from '../common/areas';
import { defineEndpoint } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MONEY_RULES } from '../common/money-rules';
import { IdempotencyHeaders } from '../payment-requests/schemas';
import { disputeSummaryEndpoint } from './summary';

// The calls below marked pure build schemas and nothing else: the bundler may drop them from a
// page that only calls these endpoints (ADR 050).

/**
 * Disputes (ADR 051): a payer's bank takes a captured card payment back. The processor opens one;
 * the disputed amount and the dispute fee leave the available balance at once; the business
 * answers with evidence before the due date (or accepts); the bank decides, won or lost.
 */
export const DISPUTE_REASONS = [
  'fraudulent',
  'unrecognized',
  'duplicate',
  'product_not_received',
  'product_unacceptable',
  'credit_not_processed',
  'general',
] as const;
export const DisputeReason = z.enum(DISPUTE_REASONS);
export type DisputeReason = z.infer<typeof DisputeReason>;
export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  fraudulent: 'Fraudulent: the cardholder says they did not make it',
  unrecognized: 'Unrecognised: the cardholder does not recognise it',
  duplicate: 'Duplicate: charged twice',
  product_not_received: 'Not received',
  product_unacceptable: 'Not as described',
  credit_not_processed: 'Refund not received',
  general: 'Other',
};

/**
 * NeedsResponse: evidence is due; UnderReview: the bank is deciding on the evidence; Won: the money
 * came back; Lost: it stays with the payer; Accepted: the business gave it up without answering.
 */
export const DISPUTE_STATES = ['NeedsResponse', 'UnderReview', 'Won', 'Lost', 'Accepted'] as const;
export const DisputeState = z.enum(DISPUTE_STATES);
export type DisputeState = z.infer<typeof DisputeState>;
export const DISPUTE_STATE_LABELS: Record<DisputeState, string> = {
  NeedsResponse: 'Needs response',
  UnderReview: 'Under review',
  Won: 'Won',
  Lost: 'Lost',
  Accepted: 'Accepted',
};

/** The evidence's text fields, in the order the form asks for them. */
export const DISPUTE_EVIDENCE_FIELDS = {
  productDescription: 'What the payer paid for',
  customerCommunication: 'Your communication with the payer',
  serviceDate: 'When it was delivered or provided',
  refundPolicy: 'Your refund or cancellation policy',
  uncategorizedText: 'Anything else the bank should know',
} as const;
export type DisputeEvidenceField = keyof typeof DISPUTE_EVIDENCE_FIELDS;

export const MAX_EVIDENCE_FILES = 5;
export const MAX_EVIDENCE_FILE_BYTES = 5 * 1024 * 1024;
export const EVIDENCE_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type EvidenceFileType = (typeof EVIDENCE_FILE_TYPES)[number];

/** One text answer (its field names it, in the refusal's `fields`). A plain schema, not a function's result, so the portal's pages drop it with the rest. */
const evidenceText = z.string().trim().max(20_000, 'Keep each answer to 20,000 characters.').optional();

export const EvidenceFileUpload = z.object({
  name: z.string().trim().min(1, 'Name the file.').max(200, 'Keep the file name to 200 characters.'),
  /** A base64 data URL of a PDF, PNG or JPEG up to 5 MB decoded. */
  dataUrl: z.string().max(7_200_000, 'A file can be at most 5 MB.'),
});

export const SubmitEvidenceBody = z
  .object({
    productDescription: evidenceText,
    customerCommunication: evidenceText,
    serviceDate: evidenceText,
    refundPolicy: evidenceText,
    uncategorizedText: evidenceText,
    files: z.array(EvidenceFileUpload).max(MAX_EVIDENCE_FILES, `Attach at most ${MAX_EVIDENCE_FILES} files.`).default([]),
  })
  .refine((body) => body.files.length > 0 || (Object.keys(DISPUTE_EVIDENCE_FIELDS) as DisputeEvidenceField[]).some((field) => body[field]), {
    message: 'Describe what happened or attach a file: the bank decides on what you send.',
    path: ['productDescription'],
  });
export type SubmitEvidenceBody = z.input<typeof SubmitEvidenceBody>;

export const DisputeEvidenceFile = z.object({
  fileId: z.string(),
  name: z.string(),
  contentType: z.enum(EVIDENCE_FILE_TYPES),
  sizeBytes: z.number(),
});
export type DisputeEvidenceFile = z.infer<typeof DisputeEvidenceFile>;

export const Dispute = z.object({
  disputeId: z.string(),
  requestId: z.string(),
  /** The request's TRX number and payer, as the Disputes list shows them. */
  referenceNumber: z.string(),
  payerName: z.string(),
  paymentId: z.string(),
  /** "Visa •••• 0259": the card the payer's bank took the money back for. */
  instrument: z.string(),
  /** What the payment was, and what of it is disputed (what was not refunded). */
  paymentAmountCents: z.number(),
  amountCents: z.number(),
  /** FEE_DISPUTE_CENTS, taken when it opened; what came back of it when won. */
  feeCents: z.number(),
  feeReturnedCents: z.number(),
  reason: DisputeReason,
  state: DisputeState,
  evidenceDueAt: z.string(),
  evidence: z.record(z.string(), z.string()).nullable(),
  files: z.array(DisputeEvidenceFile),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Dispute = z.infer<typeof Dispute>;

export const DisputeListQuery = /* @__PURE__ */ PageQuery.extend({
  // z-rooted (not DisputeState.optional()): what the bundler can drop when only the endpoints are used.
  state: z.enum(DISPUTE_STATES).optional(),
  reason: z.enum(DISPUTE_REASONS).optional(),
  requestId: z.string().min(1).max(64).optional(),
  sortBy: z.enum(['createdAt', 'evidenceDueAt']).default('createdAt'),
});
export type DisputeListQuery = z.input<typeof DisputeListQuery>;

export const DisputeIdParams = /* @__PURE__ */ BusinessIdParams.extend({ disputeId: z.string().min(1).max(64) });
export const DisputeFileParams = /* @__PURE__ */ DisputeIdParams.extend({ fileId: z.string().min(1).max(64) });
export const DisputeResponse = /* @__PURE__ */ okResponse(Dispute);
export const DisputeListResponse = /* @__PURE__ */ listResponse(Dispute);

/** 409: the dispute is no longer waiting for an answer (already answered, accepted or closed), or its due date passed. */
export const DISPUTE_CLOSED = 'DISPUTE_CLOSED';

const tag = AREA.paymentRequests;

export const disputeEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/disputes',
    summary: 'The business’s disputes, newest first (or soonest due), filtered by state, reason or request, searched by TRX number or payer',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: DisputeListQuery,
    response: DisputeListResponse,
  }),
  summary: disputeSummaryEndpoint,
  exportCsv: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/disputes/export.csv',
    summary: 'CSV export of the same query as the disputes list',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: DisputeListQuery,
    response: { description: 'The disputes, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/disputes/:disputeId',
    summary: 'One dispute, with the evidence sent',
    tag,
    access: 'business:read',
    params: DisputeIdParams,
    response: DisputeResponse,
  }),
  evidenceFile: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/disputes/:disputeId/files/:fileId',
    summary: 'A file sent as evidence, as uploaded',
    tag,
    access: 'business:read',
    params: DisputeFileParams,
    response: { description: 'The file', contentTypes: [...EVIDENCE_FILE_TYPES] },
    errors: [404],
  }),
  submitEvidence: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/disputes/:disputeId/evidence',
    summary: 'Answer a dispute: text and up to 5 files (PDF, PNG or JPEG, 5 MB each), before the due date (owners and admins)',
    tag,
    access: MONEY_RULES.dispute.access,
    params: DisputeIdParams,
    headers: IdempotencyHeaders,
    body: SubmitEvidenceBody,
    response: DisputeResponse,
    errors: [404, 409, 413],
  }),
  accept: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/disputes/:disputeId/accept',
    summary: 'Accept a dispute: the disputed amount stays with the payer (owners and admins)',
    tag,
    access: MONEY_RULES.dispute.access,
    params: DisputeIdParams,
    headers: IdempotencyHeaders,
    response: DisputeResponse,
    errors: [404, 409],
  }),
};
