import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { invoiceEndpoints as e, paymentRequestEndpoints, type Invoice, type InvoiceInput, type InvoiceListQuery } from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery, fetchEndpointFile } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';
import { invoicesKey } from '../../../lib/area-keys';

/** Everything cached of the business's invoices (live updates and every change invalidate it). */
export { invoicesKey };

export function useInvoiceList(query: InvoiceListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function useInvoiceSummary() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.summary, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId),
  });
}

export function useInvoiceDetail(invoiceId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', invoiceId: invoiceId ?? '' } }),
    enabled: Boolean(businessId && invoiceId),
  });
}

/**
 * After an invoice changes: its lists, details and figures; and, as a sent invoice is collected by
 * a payment request, the requests and the balances too.
 */
const invoiceChanges = (businessId: string | undefined) => [
  invoicesKey(businessId),
  areaKey(paymentRequestEndpoints.list.tag, businessId),
  balancesKey(businessId),
];

/** Creates a draft (POST) or edits a draft or scheduled invoice (PATCH). */
export const useSaveInvoice = () =>
  useBusinessMutation(
    (id, { body, invoiceId }: { body: InvoiceInput; invoiceId?: string | null }) =>
      invoiceId ? callForData(e.update, { params: { id, invoiceId }, body }) : callForData(e.create, { params: { id }, body }),
    invoiceChanges,
    { afterSuccessOnly: true },
  );

/**
 * Sends a draft now, or schedules it with `sendAt`. The intent (invoice and send time) picks the
 * Idempotency-Key: a retry after a lost answer or a failure on our side reuses it, so the payer
 * gets one e-mail; after a definitive answer the next try is a new intent (see IntentKeys).
 */
export function useSendInvoice() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { invoiceId, sendAt }: { invoiceId: string; sendAt: string | null }) =>
      keyed(['send', invoiceId, sendAt], (headers) => callForData(e.send, { params: { id, invoiceId }, body: sendAt ? { sendAt } : {}, headers })),
    invoiceChanges,
    { afterSuccessOnly: true },
  );
}

export type InvoiceCommand = 'resend' | 'withdraw' | 'cancel' | 'delete';

/**
 * The commands of an invoice's row and details. Resend carries an Idempotency-Key per invoice,
 * kept while a retry must be recognised as the same (as the requests' Resend does).
 */
export function useInvoiceCommand() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    async (id, { invoiceId, command }: { invoiceId: string; command: InvoiceCommand }): Promise<Invoice | null> => {
      const params = { id, invoiceId };
      if (command === 'delete') {
        await callEndpoint(e.deleteDraft, { params });
        return null;
      }
      if (command !== 'resend') return callForData(e[command], { params });
      return keyed(`resend:${invoiceId}`, (headers) => callForData(e.resend, { params, headers }));
    },
    invoiceChanges,
    { afterSuccessOnly: true },
  );
}

/** Downloads the invoice's PDF the server makes (a draft too, as a preview), with the session's token. */
export async function downloadInvoicePdf(businessId: string, invoice: Pick<Invoice, 'invoiceId' | 'number'>): Promise<void> {
  await downloadEndpoint(e.pdf, { params: { id: businessId, invoiceId: invoice.invoiceId } }, `${invoice.number}.pdf`);
}

/** The invoice's PDF as the server makes it (a draft too), for the preview shown on the page. */
export function fetchInvoicePdf(businessId: string, invoice: Pick<Invoice, 'invoiceId'>): Promise<Blob> {
  return fetchEndpointFile(e.pdf, { params: { id: businessId, invoiceId: invoice.invoiceId } });
}

/** Downloads the CSV of the list's query: every filter, the search and the sort, without the paging. */
export async function downloadInvoicesCsv(businessId: string, query: InvoiceListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'invoices.csv');
}
