import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { payerEndpoints as e, type PayerImportBody, type PayerInput, type PayerListQuery, type PayerUpdateBody } from '@tay/contract';
import { areaKey, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's payers (live updates and every change invalidate it). */
export const payersKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

export function usePayerList(query: PayerListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function usePayer(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
}

/** Who changed the payer and when, newest first (changes to payers invalidate it with the rest). */
export function usePayerHistory(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.history, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
}

function useInvalidatePayers() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => queryClient.invalidateQueries({ queryKey: payersKey(businessId) });
}

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

/** Creates a payer, or changes one when `payerId` is given. */
export function useSavePayer() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: ({ payerId, body }: { payerId?: string | null; body: PayerInput & PayerUpdateBody }) => {
      const id = requireBusinessId(businessId);
      return payerId ? callForData(e.update, { params: { id, payerId }, body }) : callForData(e.create, { params: { id }, body });
    },
    onSuccess: () => invalidate(),
  });
}

const commands = {
  activate: e.activate,
  deactivate: e.deactivate,
  'resend-verification': e.resendVerification,
  reverify: e.reverify,
} as const;

export type PayerCommand = keyof typeof commands | 'delete';

export function usePayerCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: async ({ payerId, command }: { payerId: string; command: PayerCommand }) => {
      const params = { id: requireBusinessId(businessId), payerId };
      if (command === 'delete') {
        await callForData(e.delete, { params });
        return null;
      }
      return callForData(commands[command], { params });
    },
    onSuccess: () => invalidate(),
  });
}

export function useImportPreview() {
  const businessId = useBusinessId();
  return useMutation({
    mutationFn: (body: PayerImportBody) => callForData(e.previewImport, { params: { id: requireBusinessId(businessId) }, body }),
  });
}

export function useImportPayers() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayers();
  return useMutation({
    mutationFn: (body: PayerImportBody) => callForData(e.import, { params: { id: requireBusinessId(businessId) }, body }),
    onSuccess: () => invalidate(),
  });
}

/** The payer opens the link in their e-mail: confirming is idempotent, so a query is fine. */
export function useVerifyPayer(token: string) {
  return useQuery({
    queryKey: ['payer-verification', token],
    queryFn: () => callForData(e.verify, { params: { token } }),
    retry: false,
    staleTime: Infinity,
  });
}

/** Downloads the CSV of the list's query (the bearer token cannot ride on a plain link). */
export async function downloadPayersCsv(businessId: string, query: PayerListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'payers.csv');
}
