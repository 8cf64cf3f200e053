import { defineEndpoint, type NotApprovedMessages, type SubjectNeeds } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import { IdempotencyHeaders } from '../payment-requests/schemas';
import {
  BatchIdParams,
  BatchListQuery,
  BatchListResponse,
  BatchMappingBody,
  BatchResponse,
  BatchRowFixBody,
  BatchRowFixedResponse,
  BatchRowListResponse,
  BatchRowParams,
  BatchRowsDropBody,
  BatchRowsQuery,
  BatchSubmitBody,
  BatchUploadQuery,
  EventIdParams,
  type BatchKind,
} from './schemas';
import { AREA } from '../common/areas';

const tag = AREA.batches;
const base = '/api/businesses/:id/batches';

/** As payments: only an Approved business sends requests in bulk. */
const notApproved: NotApprovedMessages = {
  pending: 'Bulk requests can be uploaded and sent once your business is approved.',
  disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
};
/**
 * A batch's kind belongs to its area: a payouts batch needs payouts enabled (ADR 035), a
 * template's kinds that template (ADR 036, 037). Read from the query's `kind` (list, upload) or
 * from the batch the path names (every other batch endpoint).
 */
export const BATCH_KIND_NEEDS = {
  payouts: { rules: ['payoutsEnabled'] },
  students: { rules: ['studentTemplate'] },
  'student-billing': { rules: ['studentTemplate'] },
  patients: { rules: ['healthCareTemplate'] },
  'patient-billing': { rules: ['healthCareTemplate'] },
} as const satisfies Partial<Record<BatchKind, SubjectNeeds>>;
const ofKind = { subjectRules: [{ reads: 'query.kind', when: BATCH_KIND_NEEDS }] } as const;
const ofBatch = { subjectRules: [{ reads: 'batch.kind', when: BATCH_KIND_NEEDS }] } as const;
const change = { access: 'business:operate', rules: ['approved'], notApproved, ...ofBatch } as const;

/** Bulk batches (ADR 032): upload a file, map its columns, review every row, submit them as one. */
export const batchEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Every batch of the business, newest first',
    tag,
    access: 'business:read',
    ...ofKind,
    params: BusinessIdParams,
    query: BatchListQuery,
    response: BatchListResponse,
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Upload a CSV file (body text/csv, up to 50 MB and 100,000 rows) as a Draft batch',
    description:
      'The body is the file itself (`Content-Type: text/csv`): UTF-8 with or without a byte-order mark, or Windows-1252; comma, semicolon or tab separated. A file that cannot be read is refused whole with one message, and nothing is saved. `duplicateOf` names an earlier batch with the same content.',
    tag,
    ...change,
    ...ofKind,
    params: BusinessIdParams,
    query: BatchUploadQuery,
    status: 201,
    response: BatchResponse,
    errors: [413, 415],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:batchId`,
    summary: 'One batch: its state, counts, total and progress',
    tag,
    access: 'business:read',
    ...ofBatch,
    params: BatchIdParams,
    response: BatchResponse,
  }),
  map: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:batchId`,
    summary: "Set the mapping of the file's columns and check every row (in the background)",
    tag,
    ...change,
    params: BatchIdParams,
    body: BatchMappingBody,
    status: 202,
    response: BatchResponse,
    errors: [409],
  }),
  discard: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:batchId`,
    summary: 'Discard a Draft batch',
    tag,
    ...change,
    params: BatchIdParams,
    status: 204,
    response: { description: 'Discarded; no body.', contentTypes: [] },
    errors: [409],
  }),
  rows: defineEndpoint({
    method: 'GET',
    path: `${base}/:batchId/rows`,
    summary: 'The rows of a batch with their outcome, in file order',
    tag,
    access: 'business:read',
    ...ofBatch,
    params: BatchIdParams,
    query: BatchRowsQuery,
    response: BatchRowListResponse,
  }),
  errorsCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/:batchId/errors.csv`,
    summary: 'The rows with errors (or that failed to send), with the reason, as CSV',
    tag,
    access: 'business:read',
    ...ofBatch,
    params: BatchIdParams,
    response: { description: 'The rows, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  fixRow: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:batchId/rows/:row`,
    summary: 'Fix one row of a Draft batch; it is checked again at once',
    tag,
    ...change,
    params: BatchRowParams,
    body: BatchRowFixBody,
    response: BatchRowFixedResponse,
    errors: [409],
  }),
  dropRow: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:batchId/rows/:row`,
    summary: 'Drop one row of a Draft batch',
    tag,
    ...change,
    params: BatchRowParams,
    response: BatchResponse,
    errors: [409],
  }),
  dropRows: defineEndpoint({
    method: 'POST',
    path: `${base}/:batchId/rows/drop`,
    summary: 'Drop several rows of a Draft batch together: by their lines, or every row with errors',
    tag,
    ...change,
    params: BatchIdParams,
    body: BatchRowsDropBody,
    response: BatchResponse,
    errors: [409],
  }),
  unschedule: defineEndpoint({
    method: 'POST',
    path: `${base}/:batchId/unschedule`,
    summary: 'Take a scheduled batch back to review before its time; nothing was sent',
    tag,
    ...change,
    params: BatchIdParams,
    response: BatchResponse,
    errors: [409],
  }),
  submit: defineEndpoint({
    method: 'POST',
    path: `${base}/:batchId/submit`,
    summary: 'Submit a checked Draft batch: its valid rows are sent now or at a time (in the background), each exactly once',
    description:
      'With an Idempotency-Key: the same key and body get the stored answer. A batch is submitted once: a second submission is 409, whatever its key.',
    tag,
    ...change,
    params: BatchIdParams,
    headers: IdempotencyHeaders,
    body: BatchSubmitBody,
    status: 202,
    response: BatchResponse,
    errors: [409, 422],
  }),
  payCheckIns: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/events/:eventId/pay',
    summary: "Pay checked-in receivers: the event's unpaid check-ins become one payouts batch, checked and waiting for review",
    description:
      'The batch (kind `payouts`) holds one row per check-in no payout pays yet: the receiver, the event’s amount per check-in and a memo naming the event. It is reviewed and submitted like an uploaded file; a check-in is paid once.',
    tag: 'payouts',
    access: 'business:operate',
    rules: ['approved', 'payoutsEnabled'],
    notApproved: {
      pending: 'Payouts can be made once your business is approved.',
      disabled: 'This business is disabled, so it cannot send payouts. Contact Tay support.',
    },
    params: EventIdParams,
    status: 202,
    response: BatchResponse,
    errors: [404, 409],
  }),
};
