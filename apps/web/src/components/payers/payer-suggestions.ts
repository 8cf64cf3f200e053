import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { payerEndpoints } from '@tay/contract';
import { callForData } from '../../lib/endpoint-client';
import { useBusinessId } from '../../lib/session';

/** The payer typeahead; `includeDisabled` for filters over history, never for a new request or invoice. */
export function usePayerSuggestions(search: string, includeDisabled = false) {
  const businessId = useBusinessId();
  return useQuery({
    queryKey: ['payer-suggestions', businessId, search, includeDisabled],
    queryFn: () =>
      callForData(payerEndpoints.typeahead, {
        query: { businessId: businessId ?? '', q: search, limit: 10, ...(includeDisabled ? { includeDisabled: 'true' } : {}) },
      }),
    enabled: Boolean(businessId) && search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}
