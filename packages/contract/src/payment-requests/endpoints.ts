import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import {
  ConfirmAmountBody,
  IdempotencyHeaders,
  PaymentRequestDetailResponse,
  PaymentRequestIdParams,
  PaymentRequestInput,
  PaymentRequestListResponse,
  PaymentRequestResponse,
  PaymentRequestSummaryResponse,
  RequestListQuery,
  RequestReceiptResponse,
} from './schemas';
import { AREA } from '../common/areas';

const tag = AREA.paymentRequests;
const base = '/api/businesses/:id/payment-requests';

/** Only an Approved business may request payments (docs/product.md, "Businesses"). */
const notApproved: NotApprovedMessages = {
  pending: 'Requests to pay can be created and sent once your business is approved.',
  disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
};
const change = { access: 'business:operate', rules: ['approved'], notApproved } as const;

const IDEMPOTENT = 'With an Idempotency-Key: the same key and body get the stored answer; a different body is 422; a twin still running is 409.';
const IDEMPOTENT_COMMAND =
  'With an Idempotency-Key (one key space per business): the same key on the same request and command gets the stored answer; the key on another request or command is 422; a twin still running is 409.';

const command = (name: 'send' | 'resend' | 'withdraw' | 'cancel', summary: string, idempotent: boolean) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:requestId/${name}`,
    summary,
    ...(idempotent ? { description: IDEMPOTENT_COMMAND, headers: IdempotencyHeaders, errors: [409, 422] } : { errors: [409] }),
    tag,
    ...change,
    params: PaymentRequestIdParams,
    // Sending a draft may need its large amount confirmed; the other commands take no body.
    body: name === 'send' ? ConfirmAmountBody : undefined,
    response: PaymentRequestResponse,
  });

/** The merchant's requests to pay ("Transaction History", drafts, the request form, receipts). */
export const paymentRequestEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Transaction history or drafts, filtered, searched, sorted and paged',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: RequestListQuery,
    response: PaymentRequestListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export.csv`,
    summary: 'CSV export of the same query as the list',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: RequestListQuery,
    response: { description: 'The requests, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  summary: defineEndpoint({
    method: 'GET',
    path: `${base}/summary`,
    summary: 'Figures for the payments landing page',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    response: PaymentRequestSummaryResponse,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Create a request to pay: draft, send now, or schedule',
    description: IDEMPOTENT,
    tag,
    ...change,
    params: BusinessIdParams,
    headers: IdempotencyHeaders,
    body: PaymentRequestInput,
    status: 201,
    response: PaymentRequestResponse,
    errors: [409, 422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:requestId`,
    summary: 'One request with its timeline and payments',
    tag,
    access: 'business:read',
    params: PaymentRequestIdParams,
    response: PaymentRequestDetailResponse,
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:requestId`,
    summary: 'Edit a draft or scheduled request: save, schedule, or send it now',
    description: IDEMPOTENT,
    tag,
    ...change,
    params: PaymentRequestIdParams,
    headers: IdempotencyHeaders,
    body: PaymentRequestInput,
    response: PaymentRequestResponse,
    errors: [409, 422],
  }),
  receipt: defineEndpoint({
    method: 'GET',
    path: `${base}/:requestId/receipt`,
    summary: "The receipt of a request's processed payments",
    tag,
    access: 'business:read',
    params: PaymentRequestIdParams,
    response: RequestReceiptResponse,
  }),
  receiptPdf: defineEndpoint({
    method: 'GET',
    path: `${base}/:requestId/receipt.pdf`,
    summary: 'The same receipt as a PDF download',
    tag,
    access: 'business:read',
    params: PaymentRequestIdParams,
    response: { description: 'The receipt', contentTypes: ['application/pdf'] },
  }),
  send: command('send', 'Send a request', true),
  resend: command('resend', 'Resend a request', true),
  withdraw: command('withdraw', 'Withdraw a request', false),
  cancel: command('cancel', 'Cancel a request', false),
  deleteDraft: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:requestId`,
    summary: 'Delete a draft',
    tag,
    ...change,
    params: PaymentRequestIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [409],
  }),
};
