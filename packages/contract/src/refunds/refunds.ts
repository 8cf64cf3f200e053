import { z } from 'zod';
import { BusinessIdParams } from '../businesses/schemas';
import { AREA } from '../common/areas';
import { defineEndpoint } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { MONEY_RULES } from '../common/money-rules';
import { confirmedAmountCents, IdempotencyHeaders, PaymentRequestIdParams } from '../payment-requests/schemas';

/**
 * Refunds (ADR 051): money going back to the payer of a captured payment, in full or in part,
 * several times, never more than was paid less what was refunded. Owners and admins refund
 * (`MONEY_RULES.refund`); every refund is in the audit log.
 */
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_payer', 'other'] as const;
export const RefundReason = z.enum(REFUND_REASONS, { error: 'Choose why: duplicate, fraudulent, requested by the payer, or other.' });
export type RefundReason = z.infer<typeof RefundReason>;
export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  duplicate: 'Duplicate',
  fraudulent: 'Fraudulent',
  requested_by_payer: 'Requested by the payer',
  other: 'Other',
};

/** Pending: the processor is sending it; Succeeded: on its way back to the payer; Failed: it says why, and the money is back in the balance. */
export const RefundState = z.enum(['Pending', 'Succeeded', 'Failed']);
export type RefundState = z.infer<typeof RefundState>;

/** 409: more than what is still refundable of the payment (what was paid less what was refunded), which the message names. */
export const REFUND_EXCEEDS_PAYMENT = 'REFUND_EXCEEDS_PAYMENT';

export const CreateRefundBody = z.object({
  /** The payment to refund; when left out, the request's one refundable payment (a request paid in parts must name it). */
  paymentId: z.string().min(1).max(64).optional(),
  amountCents: z
    .number({ error: 'Enter the amount to refund.' })
    .int('The amount must be in whole cents.')
    .min(1, 'The amount must be at least $0.01.')
    .max(MAX_AMOUNT_CENTS, 'The amount can be at most $10,000,000.00.'),
  reason: RefundReason,
  note: z.string().trim().max(500, 'Keep the note to 500 characters.').optional(),
  /** A refund above the business's confirmation limit goes out only with its amount repeated here (422 AMOUNT_CONFIRMATION_REQUIRED). */
  confirmedAmountCents,
});
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;

export const Refund = z.object({
  refundId: z.string(),
  requestId: z.string(),
  /** The request's TRX number and payer, as the Refunds list shows them. */
  referenceNumber: z.string(),
  payerName: z.string(),
  paymentId: z.string(),
  /** "Visa •••• 4242": where the money goes back to. */
  instrument: z.string(),
  amountCents: z.number(),
  /** The part of the payment's fee returned with it (FEE_REFUND_RETURNS_FEE), else 0. */
  feeReturnedCents: z.number(),
  reason: RefundReason,
  note: z.string().nullable(),
  state: RefundState,
  failureReason: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  processedAt: z.string().nullable(),
});
export type Refund = z.infer<typeof Refund>;

export const RefundListQuery = PageQuery.extend({
  state: RefundState.optional(),
  requestId: z.string().min(1).max(64).optional(),
  reason: RefundReason.optional(),
  sortBy: z.enum(['createdAt']).default('createdAt'),
});
export type RefundListQuery = z.input<typeof RefundListQuery>;

export const RefundIdParams = BusinessIdParams.extend({ refundId: z.string().min(1).max(64) });
export const RefundResponse = okResponse(Refund);
export const RefundListResponse = listResponse(Refund);

const tag = AREA.paymentRequests;

export const refundEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/payment-requests/:requestId/refunds',
    summary: 'Refund a payment of the request, in full or in part (owners and admins; Idempotency-Key)',
    tag,
    access: MONEY_RULES.refund.access,
    // A disabled business moves no money, refunds included (its balance waits for Tay support).
    rules: ['approved'],
    notApproved: {
      pending: 'Refunds open once your business is approved.',
      disabled: 'Your business is disabled, so no refund can be made. Contact Tay support to enable it again.',
    },
    params: PaymentRequestIdParams,
    headers: IdempotencyHeaders,
    body: CreateRefundBody,
    response: RefundResponse,
    status: 201,
    errors: [404, 409, 422],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/refunds',
    summary: 'The business’s refunds, newest first, filtered by state, reason or request, searched by TRX number or payer',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: RefundListQuery,
    response: RefundListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/refunds/export.csv',
    summary: 'CSV export of the same query as the refunds list',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: RefundListQuery,
    response: { description: 'The refunds, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/refunds/:refundId',
    summary: 'One refund',
    tag,
    access: 'business:read',
    params: RefundIdParams,
    response: RefundResponse,
  }),
};
