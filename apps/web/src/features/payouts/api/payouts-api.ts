import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { balanceEndpoints, payoutEndpoints as e, receiverEndpoints, type CreatePayoutBody, type PayoutInput, type PayoutListQuery } from '@tay/contract';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';
import { payoutsKey } from '../../../lib/area-keys';

/** Everything cached of the business's payouts. */
export { payoutsKey };

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

/** A change to payouts: the payouts (lists, queue, dashboard, settings) and the balances they take from. */
const payoutChanges = (businessId: string | undefined) => [payoutsKey(businessId), areaKey(balanceEndpoints.get.tag, businessId)];

/**
 * Creates a payout (POST, optionally submitting it) or edits a Draft (PATCH). A create carries the
 * Idempotency-Key of its whole body: a retry after no answer is recognised, a changed payout is new.
 */
export function useSavePayout() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { body, payoutId }: { body: CreatePayoutBody; payoutId?: string | null }) => {
      if (payoutId) {
        const { submit: _submit, ...edit } = body;
        return callForData(e.update, { params: { id, payoutId }, body: edit as PayoutInput });
      }
      return keyed(['new', body], (headers) => callForData(e.create, { params: { id }, body, headers }));
    },
    payoutChanges,
    { afterSuccessOnly: true },
  );
}

export type PayoutCommand = 'submit' | 'approve' | 'cancel' | 'reject' | 'delete';

/** A payout's commands; Submit and Approve move money and carry the Idempotency-Key of (command, payout). */
export function usePayoutCommand() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    async (id, { payoutId, command, reason }: { payoutId: string; command: PayoutCommand; reason?: string }) => {
      const params = { id, payoutId };
      switch (command) {
        case 'delete':
          await callEndpoint(e.remove, { params });
          return null;
        case 'reject':
          return callForData(e.reject, { params, body: { reason: reason ?? '' } });
        case 'cancel':
          return callForData(e.cancel, { params });
        default:
          return keyed(`${command}:${payoutId}`, (headers) => callForData(e[command], { params, headers }));
      }
    },
    payoutChanges,
    { afterSuccessOnly: true },
  );
}

/** Approves or rejects a bulk batch's payouts together; approving carries the Idempotency-Key of the batch. */
export function useBatchDecision() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { batchId, approve, reason }: { batchId: string; approve: boolean; reason?: string }) => {
      const params = { id };
      return approve
        ? keyed(`approveBatch:${batchId}`, (headers) => callForData(e.approveBatch, { params, body: { batchId }, headers }))
        : callForData(e.rejectBatch, { params, body: { batchId, reason: reason ?? '' } });
    },
    payoutChanges,
    { afterSuccessOnly: true },
  );
}

export const useUpdatePayoutSettings = () =>
  useBusinessMutation((id, approvalRequired: boolean) => callForData(e.updateSettings, { params: { id }, body: { approvalRequired } }), payoutChanges, {
    afterSuccessOnly: true,
  });

export async function downloadPayoutsCsv(businessId: string, query: PayoutListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'payouts.csv');
}
