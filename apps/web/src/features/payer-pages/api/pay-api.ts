import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentOutcome, PaymentReceipt, PublicPayPage } from '@tay/contract';
import { api, ApiError } from '../../../lib/api-client';
import { publicConfig } from '../../../config/public-config';
import type { PaymentAttempt } from './payment-attempt';

type Ok<T> = { status: 'Success'; data: T };
const base = (token: string) => `/public/pay/${encodeURIComponent(token)}`;

export function usePayPage(token: string) {
  return useQuery({
    queryKey: ['pay', token],
    queryFn: () => api.get<Ok<PublicPayPage>>(base(token)).then((r) => r.data),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    // While a payment settles, keep the page current.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 3000 : false),
  });
}

export function usePay(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, body }: PaymentAttempt) =>
      api.post<Ok<PaymentOutcome>>(`${base(token)}/payments`, body, { headers: { 'Idempotency-Key': idempotencyKey } }).then((r) => r.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['pay', token] }),
  });
}

export function useDecline(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => api.post<Ok<PublicPayPage>>(`${base(token)}/decline`, { reason }).then((r) => r.data),
    onSuccess: (page) => queryClient.setQueryData(['pay', token], page),
  });
}

export function useReceipt(token: string, paymentId: string) {
  return useQuery({
    queryKey: ['pay', token, 'receipt', paymentId],
    queryFn: () => api.get<Ok<PaymentReceipt>>(`${base(token)}/receipt/${encodeURIComponent(paymentId)}`).then((r) => r.data),
  });
}

/**
 * Bank details go to the processor's token endpoint directly from the browser, with the
 * publishable key: our API only ever receives the token.
 */
export async function tokenizeBankAccount(details: { routingNumber: string; accountNumber: string; accountHolderName: string }): Promise<{ token: string; label: string }> {
  const url = publicConfig.processorElementsUrl.replace(/\/elements\/card-field$/, '/v1/tokens');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${publicConfig.processorPublishableKey}` },
      body: JSON.stringify({ bankAccount: details }),
    });
  } catch {
    throw new Error('We could not reach the payment processor. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => null)) as { id?: string; label?: string; errorDetails?: { message?: string }; message?: string } | null;
  if (!response.ok || !body?.id) throw new Error(body?.errorDetails?.message ?? body?.message ?? 'These bank details were not accepted.');
  return { token: body.id, label: body.label ?? 'Bank account' };
}
