import { useQuery } from '@tanstack/react-query';
import type { Balances } from '@tay/contract';
import { api } from './api-client';
import { useSession } from './session';

/** The cache key of the selected business's balances; money-moving screens invalidate `['balances']`. */
export const balancesKey = (businessId: string | undefined) => ['balances', businessId ?? 'none'] as const;

/**
 * GET /api/businesses/:id/balances for the selected business (the first, spec §3): pending and
 * available as the ledger derives them. Shared by every screen that shows the business's money.
 */
export function useBalances(options: { enabled?: boolean } = {}) {
  const businessId = useSession().currentUser?.businesses[0]?.businessId;
  return useQuery({
    queryKey: balancesKey(businessId),
    queryFn: () => api.get<{ status: 'Success'; data: Balances }>(`/businesses/${encodeURIComponent(businessId!)}/balances`).then((r) => r.data),
    enabled: Boolean(businessId) && (options.enabled ?? true),
    // Settlement happens in the background: keep the figures current while they are on screen.
    refetchInterval: 15_000,
  });
}
