import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Balances,
  PaymentRequest,
  PaymentRequestDetail,
  PaymentRequestInput,
  PayerSuggestion,
  RequestListQuery,
} from '@tay/contract';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { useSession } from '../../../lib/session';

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

const base = (businessId: string) => `/businesses/${encodeURIComponent(businessId)}/payments`;
const requestsKey = (businessId: string | undefined) => ['requests', businessId ?? 'none'] as const;

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

export function useBalances() {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: ['balances', businessId ?? 'none'],
    queryFn: () => api.get<Ok<Balances>>(`/businesses/${encodeURIComponent(businessId!)}/balances`).then((r) => r.data),
    enabled: Boolean(businessId),
    refetchInterval: 15_000,
  });
}

function useInvalidateRequests() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: requestsKey(businessId) }), queryClient.invalidateQueries({ queryKey: ['balances'] })]);
}

/**
 * Saves a request. The idempotency key is made once per submission attempt by the caller, so a
 * retry after a lost response never creates a second request.
 */
export function useSaveRequest() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateRequests();
  return useMutation({
    mutationFn: ({ body, requestId, idempotencyKey }: { body: PaymentRequestInput; requestId?: string; idempotencyKey: string }) =>
      requestId
        ? api.patch<Ok<PaymentRequest>>(`${base(businessId!)}/${encodeURIComponent(requestId)}`, body).then((r) => r.data)
        : api.post<Ok<PaymentRequest>>(base(businessId!), body, { headers: { 'Idempotency-Key': idempotencyKey } }).then((r) => r.data),
    onSuccess: () => invalidate(),
  });
}

export type RequestCommand = 'send' | 'resend' | 'withdraw' | 'cancel' | 'delete';

export function useRequestCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateRequests();
  return useMutation({
    mutationFn: async ({ requestId, command }: { requestId: string; command: RequestCommand }) => {
      const url = `${base(businessId!)}/${encodeURIComponent(requestId)}`;
      if (command === 'delete') {
        await api.delete<void>(url);
        return null;
      }
      const headers = command === 'send' || command === 'resend' ? { 'Idempotency-Key': crypto.randomUUID() } : undefined;
      return api.post<Ok<PaymentRequest>>(`${url}/${command}`, {}, headers ? { headers } : {}).then((r) => r.data);
    },
    onSuccess: () => invalidate(),
  });
}

export function usePayerSuggestions(search: string) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: ['payer-suggestions', businessId, search],
    queryFn: () =>
      api.get<Ok<PayerSuggestion[]>>('/directory/payers/beginsWith', { query: { businessId, q: search, limit: 10 } }).then((r) => r.data),
    enabled: Boolean(businessId) && search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

/** Downloads the CSV of the same query (the bearer token cannot ride on a plain link). */
export async function downloadRequestsCsv(businessId: string, query: RequestListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadFile(`${base(businessId)}/export.csv`, toQuery(rest), 'transactions.csv');
}
