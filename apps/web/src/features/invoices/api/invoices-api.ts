import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { invoiceEndpoints as e, paymentRequestEndpoints, type Invoice, type InvoiceInput, type InvoiceListQuery } from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery, fetchEndpointFile } from '../../../lib/endpoint-client';
import { IntentKeys } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's invoices (live updates and every change invalidate it). */
export const invoicesKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

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
function useInvalidateInvoices() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invoicesKey(businessId) }),
      queryClient.invalidateQueries({ queryKey: areaKey(paymentRequestEndpoints.list.tag, businessId) }),
      queryClient.invalidateQueries({ queryKey: balancesKey(businessId) }),
    ]);
}

/** Creates a draft (POST) or edits a draft or scheduled invoice (PATCH). */
export function useSaveInvoice() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateInvoices();
  return useMutation({
    mutationFn: ({ body, invoiceId }: { body: InvoiceInput; invoiceId?: string | null }) => {
      const id = requireBusinessId(businessId);
      return invoiceId ? callForData(e.update, { params: { id, invoiceId }, body }) : callForData(e.create, { params: { id }, body });
    },
    onSuccess: () => invalidate(),
  });
}

/**
 * Sends a draft now, or schedules it with `sendAt`. The intent (invoice and send time) picks the
 * Idempotency-Key: a retry after a lost answer or a failure on our side reuses it, so the payer
 * gets one e-mail; after a definitive answer the next try is a new intent (see IntentKeys).
 */
export function useSendInvoice() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateInvoices();
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    mutationFn: async ({ invoiceId, sendAt }: { invoiceId: string; sendAt: string | null }) => {
      const params = { id: requireBusinessId(businessId), invoiceId };
      const intent = JSON.stringify(['send', invoiceId, sendAt]);
      try {
        const sent = await callForData(e.send, { params, body: sendAt ? { sendAt } : {}, headers: { 'Idempotency-Key': keys.keyFor(intent) } });
        keys.settle(intent);
        return sent;
      } catch (error) {
        keys.settle(intent, error);
        throw error;
      }
    },
    onSuccess: () => invalidate(),
  });
}

export type InvoiceCommand = 'resend' | 'withdraw' | 'cancel' | 'delete';

/**
 * The commands of an invoice's row and details. Resend carries an Idempotency-Key per invoice,
 * kept while a retry must be recognised as the same (as the requests' Resend does).
 */
export function useInvoiceCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateInvoices();
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    mutationFn: async ({ invoiceId, command }: { invoiceId: string; command: InvoiceCommand }): Promise<Invoice | null> => {
      const params = { id: requireBusinessId(businessId), invoiceId };
      if (command === 'delete') {
        await callEndpoint(e.deleteDraft, { params });
        return null;
      }
      if (command !== 'resend') return callForData(e[command], { params });
      const intent = `resend:${invoiceId}`;
      try {
        const done = await callForData(e.resend, { params, headers: { 'Idempotency-Key': keys.keyFor(intent) } });
        keys.settle(intent);
        return done;
      } catch (error) {
        keys.settle(intent, error);
        throw error;
      }
    },
    onSuccess: () => invalidate(),
  });
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
