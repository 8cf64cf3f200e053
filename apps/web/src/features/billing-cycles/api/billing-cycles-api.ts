import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  billingCycleEndpoints as e,
  programEndpoints,
  type BillingCycleDetail,
  type BillingCycleInput,
  type BillingCycleListQuery,
  type BillingRunListQuery,
  type BillingRunOutcome,
} from '@tay/contract';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { billingCyclesKey } from '../../../lib/area-keys';

/** Everything cached of the business's billing cycles and their runs. */
export { billingCyclesKey };

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

/** A change to a cycle: the cycles and their runs are read again. */
const cycleChanges = (businessId: string | undefined) => [billingCyclesKey(businessId)];

/** Creates a cycle (POST), or edits one when `cycleId` is given (PATCH). */
export const useSaveBillingCycle = () =>
  useBusinessMutation(
    (id, { body, cycleId }: { body: BillingCycleInput; cycleId?: string | null }): Promise<BillingCycleDetail> =>
      cycleId ? callForData(e.update, { params: { id, cycleId }, body }) : callForData(e.create, { params: { id }, body }),
    cycleChanges,
    { afterSuccessOnly: true },
  );

export type BillingCycleCommand = 'activate' | 'deactivate' | 'delete';

export const useBillingCycleCommand = () =>
  useBusinessMutation(
    async (id, { cycleId, command }: { cycleId: string; command: BillingCycleCommand }): Promise<BillingCycleDetail | null> => {
      const params = { id, cycleId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    cycleChanges,
    { afterSuccessOnly: true },
  );

/** Run now: bills the current period; the answer is the run made (read again whatever the outcome: a failed run is listed too). */
export const useRunBillingCycle = () =>
  useBusinessMutation((id, { cycleId }: { cycleId: string }): Promise<BillingRunOutcome> => callForData(e.run, { params: { id, cycleId } }), cycleChanges);

export async function downloadBillingCyclesCsv(businessId: string, query: BillingCycleListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'billing-cycles.csv');
}
