import { useQuery } from '@tanstack/react-query';
import { businessEndpoints } from '@tay/contract';
import { endpointQuery } from './endpoint-client';
import { useBusinessId } from './session';

/**
 * The business's configured time zone, the clock its scheduled sends are on. It reads the same
 * record, under the same key, as the setup pages, so either fills the other's cache.
 */
export function useBusinessTimeZone() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(businessEndpoints.get, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId),
    select: (business) => business.config.timeZone,
  });
}

/** The business's own words for its invoices (Setup → Configuration, "Invoice terms"), or null. */
export function useBusinessInvoiceTerms() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(businessEndpoints.get, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId),
    select: (business) => business.config.invoiceTerms ?? null,
  });
}
