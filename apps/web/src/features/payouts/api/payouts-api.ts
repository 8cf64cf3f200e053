import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { balanceEndpoints, payoutEndpoints as e, receiverEndpoints, type CreatePayoutBody, type PayoutInput, type PayoutListQuery } from '@tay/contract';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's payouts. */
export const payoutsKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

/** A fresh key per intent: a retry of the same click reuses it, a new click makes another. */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function usePayoutList(query: PayoutListQuery, enabled = true) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId) && enabled,
    placeholderData: keepPreviousData,
  });
}

export function usePayoutSummary() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.summary, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

export function usePayout(payoutId: string | null) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.get, { params: { id: businessId ?? '', payoutId: payoutId ?? '' } }), enabled: Boolean(businessId && payoutId) });
}

export function usePayoutSettings() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.getSettings, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

export function useAvailableBalance() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(balanceEndpoints.get, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

/** Receivers for the typeahead (the receivers area's list, searched). */
export function useReceiverSearch(search: string) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(receiverEndpoints.list, {
      params: { id: businessId ?? '' },
      query: { search: search || undefined, pageSize: 20, sortBy: 'name', sortDirection: 'asc' },
    }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

function useInvalidatePayouts() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: payoutsKey(businessId) }),
      queryClient.invalidateQueries({ queryKey: areaKey(balanceEndpoints.get.tag, businessId) }),
    ]);
}

/** Creates a payout (POST, optionally submitting it) or edits a Draft (PATCH). */
export function useSavePayout() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayouts();
  return useMutation({
    mutationFn: ({ body, payoutId, key }: { body: CreatePayoutBody; payoutId?: string | null; key: string }) => {
      const id = requireBusinessId(businessId);
      if (payoutId) {
        const { submit: _submit, ...edit } = body;
        return callForData(e.update, { params: { id, payoutId }, body: edit as PayoutInput });
      }
      return callForData(e.create, { params: { id }, body, headers: { 'Idempotency-Key': key } });
    },
    onSuccess: () => invalidate(),
  });
}

export type PayoutCommand = 'submit' | 'approve' | 'cancel' | 'reject' | 'delete';

export function usePayoutCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayouts();
  return useMutation({
    mutationFn: async ({ payoutId, command, reason, key }: { payoutId: string; command: PayoutCommand; reason?: string; key?: string }) => {
      const params = { id: requireBusinessId(businessId), payoutId };
      const headers = key ? { 'Idempotency-Key': key } : undefined;
      switch (command) {
        case 'delete':
          await callEndpoint(e.remove, { params });
          return null;
        case 'reject':
          return callForData(e.reject, { params, body: { reason: reason ?? '' } });
        case 'cancel':
          return callForData(e.cancel, { params });
        default:
          return callForData(e[command], { params, ...(headers ? { headers } : {}) });
      }
    },
    onSuccess: () => invalidate(),
  });
}

export function useBatchDecision() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayouts();
  return useMutation({
    mutationFn: ({ batchId, approve, reason, key }: { batchId: string; approve: boolean; reason?: string; key: string }) => {
      const params = { id: requireBusinessId(businessId) };
      return approve
        ? callForData(e.approveBatch, { params, body: { batchId }, headers: { 'Idempotency-Key': key } })
        : callForData(e.rejectBatch, { params, body: { batchId, reason: reason ?? '' } });
    },
    onSuccess: () => invalidate(),
  });
}

export function useUpdatePayoutSettings() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePayouts();
  return useMutation({
    mutationFn: (approvalRequired: boolean) => callForData(e.updateSettings, { params: { id: requireBusinessId(businessId) }, body: { approvalRequired } }),
    onSuccess: () => invalidate(),
  });
}

export async function downloadPayoutsCsv(businessId: string, query: PayoutListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'payouts.csv');
}
