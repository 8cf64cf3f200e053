import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { refundEndpoints as e, type RefundListQuery } from '@tay/contract';
import { downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** The business's refunds, a page at a time (`/business/payment/refunds`). */
export function useRefundList(query: RefundListQuery) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }), enabled: Boolean(businessId), placeholderData: keepPreviousData });
}

/** The CSV of the same query, without the paging. */
export async function downloadRefundsCsv(businessId: string, query: RefundListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'refunds.csv');
}
