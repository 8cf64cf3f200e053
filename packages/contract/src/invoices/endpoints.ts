import { defineEndpoint, type NotApprovedMessages } from '../common/endpoint';
import { BusinessIdParams } from '../businesses/schemas';
import { IdempotencyHeaders } from '../payment-requests/schemas';
import {
  InvoiceDetailResponse,
  InvoiceIdParams,
  InvoiceInput,
  InvoiceListQuery,
  InvoiceListResponse,
  InvoiceResponse,
  InvoiceSendBody,
  InvoiceSummaryResponse,
} from './schemas';
import { AREA } from '../common/areas';

const tag = AREA.invoices;
const base = '/api/businesses/:id/invoices';

/** As requests: only an Approved business bills its payers. */
const notApproved: NotApprovedMessages = {
  pending: 'Invoices can be created and sent once your business is approved.',
  disabled: 'This business is disabled, so it cannot send invoices. Contact Tay support.',
};
const change = { access: 'business:operate', rules: ['approved'], notApproved } as const;

const command = (name: 'resend' | 'withdraw' | 'cancel', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `${base}/:invoiceId/${name}`,
    summary,
    ...(name === 'resend'
      ? {
          description: 'With an Idempotency-Key: the same key on the same invoice and command gets the stored answer.',
          headers: IdempotencyHeaders,
          errors: [409, 422],
        }
      : { errors: [409] }),
    tag,
    ...change,
    params: InvoiceIdParams,
    response: InvoiceResponse,
  });

/** Invoices (ADR 033): itemised bills, collected by a payment request for their total once sent. */
export const invoiceEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: base,
    summary: 'Invoices, filtered, searched (number or payer), sorted and paged',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: InvoiceListQuery,
    response: InvoiceListResponse,
  }),
  exportCsv: defineEndpoint({
    method: 'GET',
    path: `${base}/export`,
    summary: 'CSV export of the same query as the list',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    query: InvoiceListQuery,
    response: { description: 'The invoices, one per line, under a header row', contentTypes: ['text/csv'], text: true },
  }),
  summary: defineEndpoint({
    method: 'GET',
    path: `${base}/summary`,
    summary: 'Outstanding, overdue and paid this month, for the invoices landing page',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    response: InvoiceSummaryResponse,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: base,
    summary: 'Create a draft invoice (numbered INV-0001… per business)',
    tag,
    ...change,
    params: BusinessIdParams,
    body: InvoiceInput,
    status: 201,
    response: InvoiceResponse,
    errors: [422],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: `${base}/:invoiceId`,
    summary: 'One invoice with its lines, payments, timeline and messages',
    tag,
    access: 'business:read',
    params: InvoiceIdParams,
    response: InvoiceDetailResponse,
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: `${base}/:invoiceId`,
    summary: 'Edit a draft (or a scheduled invoice, before it goes)',
    tag,
    ...change,
    params: InvoiceIdParams,
    body: InvoiceInput,
    response: InvoiceResponse,
    errors: [409, 422],
  }),
  send: defineEndpoint({
    method: 'POST',
    path: `${base}/:invoiceId/send`,
    summary: 'Send a draft now (e-mail with the PDF and the pay link), or schedule it with sendAt',
    description:
      'With an Idempotency-Key (one key space per business): the same key on the same invoice gets the stored answer; the key on another invoice is 422; a twin still running is 409.',
    tag,
    ...change,
    params: InvoiceIdParams,
    headers: IdempotencyHeaders,
    body: InvoiceSendBody,
    response: InvoiceResponse,
    errors: [409, 422],
  }),
  resend: command('resend', 'Send the invoice again (a new link; an expired one is payable again)'),
  withdraw: command('withdraw', 'Withdraw a sent invoice: its link stops taking payments'),
  cancel: command('cancel', 'Cancel a scheduled invoice before it goes'),
  deleteDraft: defineEndpoint({
    method: 'DELETE',
    path: `${base}/:invoiceId`,
    summary: 'Delete a draft',
    tag,
    ...change,
    params: InvoiceIdParams,
    status: 204,
    response: { description: 'Deleted; no body.', contentTypes: [] },
    errors: [409],
  }),
  pdf: defineEndpoint({
    method: 'GET',
    path: `${base}/:invoiceId/pdf`,
    summary: 'The invoice as a PDF (a draft too, to preview it)',
    tag,
    access: 'business:read',
    params: InvoiceIdParams,
    response: { description: 'The invoice', contentTypes: ['application/pdf'] },
  }),
};
