import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useBusinessId } from './session';

/**
 * A change to the selected business: `run` gets its id (refused before any call when there is
 * none yet), and once the change settles the cached reads it may have changed are fetched again.
 */
export function useBusinessMutation<V, R>(
  run: (businessId: string, variables: V) => Promise<R>,
  changes: (businessId: string | undefined) => readonly QueryKey[],
  { afterSuccessOnly = false }: { afterSuccessOnly?: boolean } = {},
) {
  const businessId = useBusinessId();
  const queryClient = useQueryClient();
  const refresh = async () => {
    for (const queryKey of changes(businessId)) await queryClient.invalidateQueries({ queryKey });
  };
  return useMutation({
    mutationFn: (variables: V) => {
      if (!businessId) throw new Error('Create your business first.');
      return run(businessId, variables);
    },
    ...(afterSuccessOnly ? { onSuccess: refresh } : { onSettled: refresh }),
  });
}
