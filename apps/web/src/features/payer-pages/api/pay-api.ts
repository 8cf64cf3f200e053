import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentReceipt, PublicPayPage } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { callForData } from '../../../lib/endpoint-client';
import { publicConfig } from '../../../config/public-config';
import { firstScreenData, firstScreenReadAt } from '../../../lib/first-screen';
import type { PaymentAttempt } from './payment-attempt';
import { payerEndpoints, useEndpointsOnFirstTouch } from './payer-endpoints';

const endpoints = async () => (await payerEndpoints()).payerPageEndpoints;

export function usePayPage(token: string) {
  return useQuery({
    queryKey: ['pay', token],
    queryFn: async () => callForData((await endpoints()).get, { params: { token } }),
    // The page's first HTML came with it (ADR 047): not asked again until it is stale.
    initialData: () => firstScreenData<PublicPayPage>('pay', token),
    initialDataUpdatedAt: firstScreenReadAt,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    // While a payment settles, keep the page current.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 3000 : false),
  });
}

export function usePay(token: string) {
  useEndpointsOnFirstTouch();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ idempotencyKey, body }: PaymentAttempt) =>
      callForData((await endpoints()).pay, { params: { token }, body, headers: { 'Idempotency-Key': idempotencyKey } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['pay', token] }),
  });
}

export function useDecline(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reason: string) => callForData((await endpoints()).decline, { params: { token }, body: { reason } }),
    onSuccess: (page) => queryClient.setQueryData(['pay', token], page),
  });
}

export function useReceipt(token: string, paymentId: string) {
  return useQuery({
    queryKey: ['pay', token, 'receipt', paymentId],
    queryFn: async () => callForData((await endpoints()).receipt, { params: { token, paymentId } }),
    initialData: () => firstScreenData<PaymentReceipt>('receipt', `${token}/${paymentId}`),
    initialDataUpdatedAt: firstScreenReadAt,
  });
}

/**
 * Bank details go to the processor's token endpoint directly from the browser, with the
 * publishable key: our API only ever receives the token.
 */
export async function tokenizeBankAccount(details: {
  routingNumber: string;
  accountNumber: string;
  accountHolderName: string;
}): Promise<{ token: string; label: string }> {
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
