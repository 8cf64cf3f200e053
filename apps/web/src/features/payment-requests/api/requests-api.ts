import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  Business,
  PaymentRequest,
  PaymentRequestDetail,
  PaymentRequestInput,
  PayerSuggestion,
  RequestListQuery,
  RequestReceipt,
} from '@tay/contract';
import { api } from '../../../lib/api-client';
import { balancesKey } from '../../../lib/balances';
import { downloadFile } from '../../../lib/download';
import { useSession } from '../../../lib/session';
import { IntentKeys } from '../idempotency-keys';

type Ok<T> = { status: 'Success'; data: T };
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}
export interface RequestSummary {
  openCount: number;
  openCents: number;
  paidCount: number;
  paidCents: number;
  draftCount: number;
  scheduledCount: number;
  needsAttentionCount: number;
}

export function useBusinessId(): string | undefined {
  return useSession().currentUser?.businesses[0]?.businessId;
}

/**
 * The business's configured time zone, the clock its scheduled sends are on. It reads the same
 * record, under the same key, as the setup pages, so either fills the other's cache.
 */
export function useBusinessTimeZone() {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: ['business', businessId ?? 'none'],
    queryFn: () => api.get<Ok<Business>>(`/businesses/${encodeURIComponent(businessId!)}`).then((r) => r.data),
    enabled: Boolean(businessId),
    select: (business) => business.config.timeZone,
  });
}

const base = (businessId: string) => `/businesses/${encodeURIComponent(businessId)}/payments`;
export const requestsKey = (businessId: string | undefined) => ['requests', businessId ?? 'none'] as const;

function toQuery(query: RequestListQuery): Record<string, string | number | undefined> {
  return { ...query } as Record<string, string | number | undefined>;
}

export function useRequestList(query: RequestListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...requestsKey(businessId), 'list', query],
    queryFn: () => api.get<Ok<Page<PaymentRequest>>>(base(businessId!), { query: toQuery(query) }).then((r) => r.data),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetail(requestId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...requestsKey(businessId), 'detail', requestId],
    queryFn: () => api.get<Ok<PaymentRequestDetail>>(`${base(businessId!)}/${encodeURIComponent(requestId!)}`).then((r) => r.data),
    enabled: Boolean(businessId && requestId),
  });
}

export function useRequestSummary() {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...requestsKey(businessId), 'summary'],
    queryFn: () => api.get<Ok<RequestSummary>>(`${base(businessId!)}/summary`).then((r) => r.data),
    enabled: Boolean(businessId),
  });
}

/** After a request changes: its lists, details and figures, and the balances (the shared query) it may move. */
function useInvalidateRequests() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: requestsKey(businessId) }), queryClient.invalidateQueries({ queryKey: balancesKey(businessId) })]);
}

export function useRequestReceipt(requestId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...requestsKey(businessId), 'receipt', requestId],
    queryFn: () => api.get<Ok<RequestReceipt>>(`${base(businessId!)}/${encodeURIComponent(requestId!)}/receipt`).then((r) => r.data),
    enabled: Boolean(businessId && requestId),
  });
}

/** Downloads the receipt PDF the server makes (with the bearer token a plain link cannot carry). */
export async function downloadReceiptPdf(businessId: string, requestId: string): Promise<void> {
  await downloadFile(`${base(businessId)}/${encodeURIComponent(requestId)}/receipt.pdf`, {}, 'receipt.pdf');
}

/**
 * Creates (POST) or edits (PATCH) a request, which may send or schedule it. The form's intent
 * (target and whole body) picks the Idempotency-Key (see IntentKeys), so a retry after a lost
 * answer never sends twice, and a try after a definitive refusal is a new attempt.
 */
export function useSaveRequest() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateRequests();
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    mutationFn: async ({ body, requestId }: { body: PaymentRequestInput; requestId?: string }) => {
      const intent = JSON.stringify([requestId ?? 'new', body]);
      const headers = { 'Idempotency-Key': keys.keyFor(intent) };
      try {
        const saved = requestId
          ? await api.patch<Ok<PaymentRequest>>(`${base(businessId!)}/${encodeURIComponent(requestId)}`, body, { headers })
          : await api.post<Ok<PaymentRequest>>(base(businessId!), body, { headers });
        keys.settle(intent);
        return saved.data;
      } catch (error) {
        keys.settle(intent, error);
        throw error;
      }
    },
    onSuccess: () => invalidate(),
  });
}

export type RequestCommand = 'send' | 'resend' | 'withdraw' | 'cancel' | 'delete';

/**
 * Row commands. Send and Resend carry an Idempotency-Key per (command, request): clicking again
 * after a lost answer or a failure on our side reuses it, so the payer gets one e-mail; after a
 * definitive answer the next click is a new intent with a new key. The server keeps one key space
 * per business and refuses a key reused for another request or command (422), so a key never
 * leaves its intent.
 */
export function useRequestCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateRequests();
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    mutationFn: async ({ requestId, command }: { requestId: string; command: RequestCommand }) => {
      const url = `${base(businessId!)}/${encodeURIComponent(requestId)}`;
      if (command === 'delete') {
        await api.delete<void>(url);
        return null;
      }
      if (command !== 'send' && command !== 'resend') return api.post<Ok<PaymentRequest>>(`${url}/${command}`, {}).then((r) => r.data);
      const intent = `${command}:${requestId}`;
      try {
        const done = await api.post<Ok<PaymentRequest>>(`${url}/${command}`, {}, { headers: { 'Idempotency-Key': keys.keyFor(intent) } });
        keys.settle(intent);
        return done.data;
      } catch (error) {
        keys.settle(intent, error);
        throw error;
      }
    },
    onSuccess: () => invalidate(),
  });
}

/** The payer typeahead; `includeDisabled` for filters over history, never for a new request. */
export function usePayerSuggestions(search: string, includeDisabled = false) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: ['payer-suggestions', businessId, search, includeDisabled],
    queryFn: () =>
      api
        .get<Ok<PayerSuggestion[]>>('/directory/payers/beginsWith', { query: { businessId, q: search, limit: 10, ...(includeDisabled ? { includeDisabled: 'true' } : {}) } })
        .then((r) => r.data),
    enabled: Boolean(businessId) && search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * Downloads the CSV of the same query (the bearer token cannot ride on a plain link): every
 * filter, the search and the sort, without the paging.
 */
export async function downloadRequestsCsv(businessId: string, query: RequestListQuery): Promise<void> {
  const { page: _page, pageSize: _size, after: _after, before: _before, ...rest } = query;
  await downloadFile(`${base(businessId)}/export.csv`, toQuery(rest), 'transactions.csv');
}
