import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import { IdempotencyHeaders } from '../payment-requests/schemas';
import {
  PublicQrPageResponse,
  QrCodeInput,
  QrCodeListQuery,
  QrCodeListResponse,
  QrCodeResponse,
  QrIdParams,
  QrImageQuery,
  QrPaymentBody,
  QrPaymentOutcomeResponse,
  QrTokenParams,
} from './schemas';
import { AREA } from '../common/areas';

const tag = AREA.qrCodes;
const base = '/api/businesses/:id/qr-codes';

/** As requests: only an Approved business takes payments. */
const notApproved: NotApprovedMessages = {
  pending: 'QR codes can be created once your business is approved.',
  disabled: 'This business is disabled, so it cannot take payments through QR codes. Contact Tay support.',
};
const change = { access: 'business:operate', rules: ['approved'], notApproved } as const;

const command = (name: 'enable' | 'disable', summary: string) =>
  defineEndpoint({ method: 'POST', path: `${base}/:qrId/${name}`, summary, tag, ...change, params: QrIdParams, response: QrCodeResponse, errors: [409] });

/**
 * QR codes (ADR 034): printable codes that take payments. Each payment through a code is a
 * request to pay of its own, tagged with the code (`GET …/payments?qrId=`).
 */
export const qrCodeEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'QR codes with their scans, payments and total collected',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: QrCodeListQuery,
    response: QrCodeListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: QrCodeListQuery,
    response: { description: 'The codes, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Create a code: a fixed amount, or an amount the payer enters (with an optional minimum and maximum)',
    tag,
    ...change,
    params: BusinessIdParams,
    body: QrCodeInput,
    status: 201,
    response: QrCodeResponse,
    errors: [422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:qrId`,
    summary: 'One code',
    tag,
    access: 'business:read',
    params: QrIdParams,
    response: QrCodeResponse,
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:qrId`,
    summary: 'Edit a code (its printed image stays the same)',
    tag,
    ...change,
    params: QrIdParams,
    body: QrCodeInput,
    response: QrCodeResponse,
    errors: [422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:qrId`,
    summary: 'Delete a code that has taken no payment',
    tag,
    ...change,
    params: QrIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [409],
  }),
  enable: command('enable', 'Let a Disabled code take payments again'),
  disable: command('disable', 'Stop a code taking payments; its page says so'),
  image: defineEndpoint({
    method: 'GET',
    path: `${base}/:qrId/image`,
    summary: 'The code as a PNG (256–2048 px), an SVG, or a one-page PDF poster',
    tag,
    access: 'business:read',
    params: QrIdParams,
    query: QrImageQuery,
    response: { description: 'The image', contentTypes: ['image/png', 'image/svg+xml', 'application/pdf'] },
    errors: [422],
  }),
};

const publicTag = 'QR code payer page';

/** The payer's side of a code (no sign-in): `/api/public/qr/:code…`, reached by scanning it. */
export const qrPayerEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/public/qr/:code',
    summary: 'What the code asks the payer for; counts one scan per visit',
    tag: publicTag,
    access: 'public',
    params: QrTokenParams,
    response: PublicQrPageResponse,
    errors: [404],
  }),
  pay: defineEndpoint({
    method: 'POST',
    path: '/api/public/qr/:code/payments',
    summary: 'Pay through the code with a processor token: makes a request of its own and pays it; honours Idempotency-Key',
    description: 'A retry with the same Idempotency-Key and body answers with what the first try made; it never pays twice.',
    tag: publicTag,
    access: 'public',
    params: QrTokenParams,
    headers: IdempotencyHeaders,
    body: QrPaymentBody,
    status: 201,
    response: QrPaymentOutcomeResponse,
    errors: [404, 409, 422, 429, 503],
  }),
};
