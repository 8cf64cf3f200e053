import { useMutation, useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useBusinessId } from './session';

/**
 * Marks a read the API records as a view of what it reads (a patient's record): read once for
 * the page, never again on focus, reconnect, staleness, a failure or an invalidation, so every
 * recorded view is one the person asked for. Spread into the query's options.
 */
export const AUDITED_READ = {
  meta: { auditedRead: true },
  staleTime: Infinity,
  gcTime: 0,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
  retry: false,
} as const;

/** Whether an invalidation may read a query again: every query but an audited read. */
export function refreshable(query: Query): boolean {
  return query.meta?.auditedRead !== true;
}

/** Marks what the keys cover as stale, one after the other, and reads again what is on screen (audited reads excepted). */
export async function invalidateAll(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  for (const queryKey of keys) await queryClient.invalidateQueries({ queryKey, predicate: refreshable });
}

export interface BusinessMutationOptions<V, R> {
  /** Read again only after a success (a refusal changed nothing); by default whatever the outcome. */
  afterSuccessOnly?: boolean;
  /** The business the change is for, when it is not the selected one (a drawer of another business's record). */
  businessId?: string | undefined;
  /** On success, before the reads: an answer that is the new record, put in the cache at once. */
  onSuccess?: (result: R, variables: V, businessId: string) => unknown;
}

/**
 * A change to the selected business, the one way every area makes one: `run` gets its id
 * (refused before any call when there is none yet), and once the change settles the cached reads
 * it may have changed — `changes`, each an area's key (`areaKey`), from the answer when it names
 * more — are read again in turn.
 */
export function useBusinessMutation<V, R>(
  run: (businessId: string, variables: V) => Promise<R>,
  changes: (businessId: string | undefined, result: R | undefined) => readonly QueryKey[],
  { afterSuccessOnly = false, businessId: forBusiness, onSuccess }: BusinessMutationOptions<V, R> = {},
) {
  const selected = useBusinessId();
  const businessId = forBusiness ?? selected;
  const queryClient = useQueryClient();
  const refresh = (result: R | undefined) => invalidateAll(queryClient, changes(businessId, result));
  return useMutation({
    mutationFn: (variables: V) => {
      if (!businessId) throw new Error('Create your business first.');
      return run(businessId, variables);
    },
    ...(afterSuccessOnly
      ? {
          onSuccess: async (result: R, variables: V) => {
            await onSuccess?.(result, variables, businessId!);
            await refresh(result);
          },
        }
      : {
          onSuccess: onSuccess && ((result: R, variables: V) => onSuccess(result, variables, businessId!)),
          onSettled: (result: R | undefined) => refresh(result),
        }),
  });
}
