import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint';
import { okResponse } from '../common/lists';
import { IdempotencyHeaders, ReceiptResponse } from '../payment-requests/schemas';
import { CreatePaymentBody, DeclineBody, PaymentOutcomeResponse, PublicPayPage, ReceiptParams } from './schemas';

const tag = 'hosted payment page';
export const PayTokenParams = z.object({ token: z.string().min(1).max(200) });
export const PublicPayPageResponse = okResponse(PublicPayPage);

/** The payer's side (no sign-in): `/api/public/pay/:token…`, reached from the link in the e-mail. */
export const payerPageEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/public/pay/:token',
    summary: 'What the payer is asked to pay',
    tag,
    access: 'public',
    params: PayTokenParams,
    response: PublicPayPageResponse,
    errors: [404],
  }),
  decline: defineEndpoint({
    method: 'POST',
    path: '/api/public/pay/:token/decline',
    summary: 'The payer declines the request, with a reason',
    tag,
    access: 'public',
    params: PayTokenParams,
    body: DeclineBody,
    response: PublicPayPageResponse,
    errors: [404, 409],
  }),
  pay: defineEndpoint({
    method: 'POST',
    path: '/api/public/pay/:token/payments',
    summary: 'The payer pays with a processor token (card or bank account); honours Idempotency-Key',
    description:
      'A retry with the same Idempotency-Key and body answers with the payment the first try made, even when that try never answered (503, or no answer at all); it never pays twice.',
    tag,
    access: 'public',
    params: PayTokenParams,
    headers: IdempotencyHeaders,
    body: CreatePaymentBody,
    status: 201,
    response: PaymentOutcomeResponse,
    errors: [404, 409, 422, 503],
  }),
  invoicePdf: defineEndpoint({
    method: 'GET',
    path: '/api/public/pay/:token/invoice.pdf',
    summary: 'The invoice the link collects, as a PDF (404 when the request is not an invoice)',
    tag,
    access: 'public',
    params: PayTokenParams,
    response: { description: 'The invoice', contentTypes: ['application/pdf'] },
    errors: [404],
  }),
  receipt: defineEndpoint({
    method: 'GET',
    path: '/api/public/pay/:token/receipt/:paymentId',
    summary: 'The receipt of a processed payment',
    tag,
    access: 'public',
    params: ReceiptParams,
    response: ReceiptResponse,
    errors: [404],
  }),
};
