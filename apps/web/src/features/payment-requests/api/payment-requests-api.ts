import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paymentRequestEndpoints as e, type PaymentRequestInput, type RequestListQuery } from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';
import { requestsKey } from '../../../lib/area-keys';

export type { PaymentRequestSummary as RequestSummary } from '@tay/contract';

export { useBusinessTimeZone } from '../../../lib/business-time-zone';

/** Everything cached of the business's payment requests (live updates and every change invalidate it). */
export { requestsKey };

export function useRequestList(query: RequestListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetail(requestId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', requestId: requestId ?? '' } }),
    enabled: Boolean(businessId && requestId),
  });
}

export function useRequestSummary() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.summary, { params: { id: businessId ?? '' } }),
    enabled: Boolean(businessId),
  });
}

/** After a request changes: its lists, details and figures, and the balances (the shared query) it may move. */
const requestChanges = (businessId: string | undefined) => [requestsKey(businessId), balancesKey(businessId)];

export function useRequestReceipt(requestId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.receipt, { params: { id: businessId ?? '', requestId: requestId ?? '' } }),
    enabled: Boolean(businessId && requestId),
  });
}

/** Downloads the receipt PDF the server makes (with the bearer token a plain link cannot carry). */
export async function downloadReceiptPdf(businessId: string, requestId: string): Promise<void> {
  await downloadEndpoint(e.receiptPdf, { params: { id: businessId, requestId } }, 'receipt.pdf');
}

/**
 * Creates (POST) or edits (PATCH) a request, which may send or schedule it. The form's intent
 * (target and whole body) picks the Idempotency-Key (see IntentKeys), so a retry after a lost
 * answer never sends twice, and a try after a definitive refusal is a new attempt.
 */
export function useSaveRequest() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { body, requestId }: { body: PaymentRequestInput; requestId?: string }) =>
      keyed([requestId ?? 'new', body], (headers) =>
        requestId ? callForData(e.update, { params: { id, requestId }, body, headers }) : callForData(e.create, { params: { id }, body, headers }),
      ),
    requestChanges,
    { afterSuccessOnly: true },
  );
}

export type RequestCommand = 'send' | 'resend' | 'withdraw' | 'cancel' | 'delete';

/**
 * Row commands. Send and Resend carry an Idempotency-Key per (command, request): clicking again
 * after a lost answer or a failure on our side reuses it, so the payer gets one e-mail; after a
 * definitive answer the next click is a new intent with a new key. The server keeps one key space
 * per business and refuses a key reused for another request or command (422), so a key never
 * leaves its intent.
 */
export function useRequestCommand() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    async (id, { requestId, command }: { requestId: string; command: RequestCommand }) => {
      const params = { id, requestId };
      if (command === 'delete') {
        await callEndpoint(e.deleteDraft, { params });
        return null;
      }
      if (command !== 'send' && command !== 'resend') return callForData(e[command], { params });
      return keyed(`${command}:${requestId}`, (headers) => callForData(e[command], { params, headers }));
    },
    requestChanges,
    { afterSuccessOnly: true },
  );
}

/**
 * Downloads the CSV of the same query (the bearer token cannot ride on a plain link): every
 * filter, the search and the sort, without the paging.
 */
export async function downloadRequestsCsv(businessId: string, query: RequestListQuery): Promise<void> {
  const { page: _page, pageSize: _size, after: _after, before: _before, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'transactions.csv');
}
