import { useQuery } from '@tanstack/react-query';
import { balanceEndpoints as e } from '@tay/contract';
import { areaKey, endpointQuery } from './endpoint-client';
import { useBusinessId } from './session';

/** The cache key of the selected business's balances; money-moving screens invalidate it. */
export const balancesKey = (businessId: string | undefined) => areaKey(e.get.tag, businessId);

/**
 * The selected business's balances: pending and available as the ledger derives them. Shared by
 * every screen that shows the business's money.
 */
export function useBalances(options: { enabled?: boolean } = {}) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId) && (options.enabled ?? true),
    // Settlement happens in the background: keep the figures current while they are on screen.
    refetchInterval: 15_000,
  });
}
