import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import type {
  Payer,
  PayerHistory,
  PayerImportBody,
  PayerImportPreview,
  PayerImportResult,
  PayerInput,
  PayerListQuery,
  PayerUpdateBody,
  PayerVerification,
} from '@tay/contract';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { useSession } from '../../../lib/session';

type Ok<T> = { status: 'Success'; data: T };
type Page<T> = { items: T[]; page: number; pageSize: number; total: number };

/** The selected business: the first one (spec §3). */
export function useBusinessId(): string | undefined {
  return useSession().currentUser?.businesses[0]?.businessId;
}

const base = (businessId: string) => `/businesses/${encodeURIComponent(businessId)}/payers`;
export const payersKey = (businessId: string | undefined) => ['payers', businessId ?? 'none'] as const;

function toQuery(query: object): Record<string, string | number | undefined> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;
}

export function usePayerList(query: PayerListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...payersKey(businessId), 'list', query],
    queryFn: () => api.get<Ok<Page<Payer>>>(base(businessId!), { query: toQuery(query) }).then((r) => r.data),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function usePayer(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...payersKey(businessId), 'one', payerId],
    queryFn: () => api.get<Ok<Payer>>(`${base(businessId!)}/${encodeURIComponent(payerId!)}`).then((r) => r.data),
    enabled: Boolean(businessId && payerId),
  });
}

/** Who changed the payer and when, newest first (changes to payers invalidate it with the rest). */
export function usePayerHistory(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: [...payersKey(businessId), 'history', payerId],
    queryFn: () => api.get<Ok<PayerHistory>>(`${base(businessId!)}/${encodeURIComponent(payerId!)}/history`).then((r) => r.data),
    enabled: Boolean(businessId && payerId),
  });
}

function useInvalidatePayers() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => queryClient.invalidateQueries({ queryKey: payersKey(businessId) });
}

/** Creates a payer, or changes one when `payerId` is given. */
export function useSavePayer() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: ({ payerId, body }: { payerId?: string | null; body: PayerInput & PayerUpdateBody }) => {
      if (!businessId) throw new Error('Create your business first.');
      return payerId
        ? api.patch<Ok<Payer>>(`${base(businessId)}/${encodeURIComponent(payerId)}`, body).then((r) => r.data)
        : api.post<Ok<Payer>>(base(businessId), body).then((r) => r.data);
    },
    onSuccess: () => invalidate(),
  });
}

export type PayerCommand = 'activate' | 'deactivate' | 'resend-verification' | 'reverify' | 'delete';

export function usePayerCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: async ({ payerId, command }: { payerId: string; command: PayerCommand }) => {
      const url = `${base(businessId!)}/${encodeURIComponent(payerId)}`;
      if (command === 'delete') {
        await api.delete<unknown>(url);
        return null;
      }
      return api.post<Ok<Payer>>(`${url}/${command}`, {}).then((r) => r.data);
    },
    onSuccess: () => invalidate(),
  });
}

export function useImportPreview() {
  const businessId = useBusinessId();
  return useMutation({
    mutationFn: (body: PayerImportBody) => api.post<Ok<PayerImportPreview>>(`${base(businessId!)}/import/preview`, body).then((r) => r.data),
  });
}

export function useImportPayers() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: (body: PayerImportBody) => api.post<Ok<PayerImportResult>>(`${base(businessId!)}/import`, body).then((r) => r.data),
    onSuccess: () => invalidate(),
  });
}

/** The payer opens the link in their e-mail: confirming is idempotent, so a query is fine. */
export function useVerifyPayer(token: string) {
  return useQuery({
    queryKey: ['payer-verification', token],
    queryFn: () => api.post<Ok<PayerVerification>>(`/public/payers/verify/${encodeURIComponent(token)}`, {}).then((r) => r.data),
    retry: false,
    staleTime: Infinity,
  });
}

/** Downloads the CSV of the list's query (the bearer token cannot ride on a plain link). */
export async function downloadPayersCsv(businessId: string, query: PayerListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadFile(`${base(businessId)}/export.csv`, toQuery(rest), 'payers.csv');
}
