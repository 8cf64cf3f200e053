import { useMutation, useQuery } from '@tanstack/react-query';
import type { PublicQrPage, QrPaymentBody } from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { callForData } from '../../../lib/endpoint-client';
import { firstScreenData, firstScreenReadAt } from '../../../lib/first-screen';
import type { PaymentAttempt } from './payment-attempt';
import { payerEndpoints, useEndpointsOnFirstTouch } from './payer-endpoints';

const endpoints = async () => (await payerEndpoints()).qrPayerEndpoints;

export const qrPageKey = (code: string) => ['pay', 'qr', code] as const;

/** What a scanned code asks for. The API counts the scan (once per visit), so a re-read costs nothing. */
export function useQrPage(code: string) {
  return useQuery({
    queryKey: qrPageKey(code),
    queryFn: async () => callForData((await endpoints()).get, { params: { code } }),
    // The page's first HTML came with it, its scan counted (ADR 047).
    initialData: () => firstScreenData<PublicQrPage>('qr', code),
    initialDataUpdatedAt: firstScreenReadAt,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

/** One payment through the code: each makes a request of its own (`payToken` is its page). */
export function useQrPay(code: string) {
  useEndpointsOnFirstTouch();
  return useMutation({
    mutationFn: async ({ idempotencyKey, body }: PaymentAttempt<QrPaymentBody>) =>
      callForData((await endpoints()).pay, { params: { code }, body, headers: { 'Idempotency-Key': idempotencyKey } }),
  });
}
