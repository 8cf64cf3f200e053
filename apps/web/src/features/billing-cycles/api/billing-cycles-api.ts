import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  billingCycleEndpoints as e,
  programEndpoints,
  type BillingCycleDetail,
  type BillingCycleInput,
  type BillingCycleListQuery,
  type BillingRunListQuery,
  type BillingRunOutcome,
} from '@tay/contract';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's billing cycles and their runs. */
export const billingCyclesKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

export function useBillingCycleList(query: BillingCycleListQuery) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }), enabled: Boolean(businessId), placeholderData: keepPreviousData });
}

export function useBillingRuns(cycleId: string | null, query: BillingRunListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.runs, { params: { id: businessId ?? '', cycleId: cycleId ?? '' }, query }),
    enabled: Boolean(businessId && cycleId),
    placeholderData: keepPreviousData,
  });
}

/** The business's active programs, by name: what a cycle may bill (at most 100 are offered). */
export function useActivePrograms(enabled = true) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(programEndpoints.list, {
      params: { id: businessId ?? '' },
      query: { status: 'active', sortBy: 'name', sortDirection: 'asc', page: 1, pageSize: 100 },
    }),
    enabled: Boolean(businessId) && enabled,
  });
}

function useInvalidateCycles() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => queryClient.invalidateQueries({ queryKey: billingCyclesKey(businessId) });
}

/** Creates a cycle (POST), or edits one when `cycleId` is given (PATCH). */
export function useSaveBillingCycle() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateCycles();
  return useMutation({
    mutationFn: ({ body, cycleId }: { body: BillingCycleInput; cycleId?: string | null }): Promise<BillingCycleDetail> => {
      const id = requireBusinessId(businessId);
      return cycleId ? callForData(e.update, { params: { id, cycleId }, body }) : callForData(e.create, { params: { id }, body });
    },
    onSuccess: () => invalidate(),
  });
}

export type BillingCycleCommand = 'activate' | 'deactivate' | 'delete';

export function useBillingCycleCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateCycles();
  return useMutation({
    mutationFn: async ({ cycleId, command }: { cycleId: string; command: BillingCycleCommand }): Promise<BillingCycleDetail | null> => {
      const params = { id: requireBusinessId(businessId), cycleId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    onSuccess: () => invalidate(),
  });
}

/** Run now: bills the current period; the answer is the run made. */
export function useRunBillingCycle() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateCycles();
  return useMutation({
    mutationFn: ({ cycleId }: { cycleId: string }): Promise<BillingRunOutcome> =>
      callForData(e.run, { params: { id: requireBusinessId(businessId), cycleId } }),
    onSettled: () => invalidate(),
  });
}

export async function downloadBillingCyclesCsv(businessId: string, query: BillingCycleListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'billing-cycles.csv');
}
