import { useQuery } from '@tanstack/react-query';
import { reportEndpoints as e, type BillingReportQuery } from '@tay/contract';
import { downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';
import { reportsKey } from '../../../lib/area-keys';

/** Every cached report of the business: a request's change or a payment (a live notice) moves its figures. */
export { reportsKey };

/** The analytics landing: this month against last, 90 days collected, methods, kinds, top payers, paid on time. */
export function useReportOverview() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.overview, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

/** A billing report over a range of the business's calendar days, by day, week or month. */
export function useBillingReport(query: BillingReportQuery, enabled = true) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.billing, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId) && enabled,
  });
}

/** "billing-2026-11-01-to-2026-11-30.csv", the name a download falls back to if the server names none. */
export function reportFileName(query: BillingReportQuery, format: 'csv' | 'pdf'): string {
  return query.from === query.to ? `billing-${query.from}.${format}` : `billing-${query.from}-to-${query.to}.${format}`;
}

/** Downloads the report as the server makes it: the CSV of exactly the rows and totals shown, or the PDF. */
export async function downloadBillingReport(businessId: string, query: BillingReportQuery, format: 'csv' | 'pdf'): Promise<void> {
  await downloadEndpoint(format === 'csv' ? e.billingCsv : e.billingPdf, { params: { id: businessId }, query }, reportFileName(query, format));
}
