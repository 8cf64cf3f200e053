import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { payerEndpoints as e, type PayerImportBody, type PayerInput, type PayerListQuery, type PayerUpdateBody } from '@tay/contract';
import { callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { payersKey } from '../../../lib/area-keys';

/** Everything cached of the business's payers (live updates and every change invalidate it). */
export { payersKey };

export function usePayerList(query: PayerListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function usePayer(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
}

/** Who changed the payer and when, newest first (changes to payers invalidate it with the rest). */
export function usePayerHistory(payerId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.history, { params: { id: businessId ?? '', payerId: payerId ?? '' } }),
    enabled: Boolean(businessId && payerId),
  });
}

/** A change to payers: the payers (lists, records, histories) are read again. */
const payerChanges = (businessId: string | undefined) => [payersKey(businessId)];

/** Creates a payer, or changes one when `payerId` is given. */
export const useSavePayer = () =>
  useBusinessMutation(
    (id, { payerId, body }: { payerId?: string | null; body: PayerInput & PayerUpdateBody }) =>
      payerId ? callForData(e.update, { params: { id, payerId }, body }) : callForData(e.create, { params: { id }, body }),
    payerChanges,
    { afterSuccessOnly: true },
  );

const commands = {
  activate: e.activate,
  deactivate: e.deactivate,
  'resend-verification': e.resendVerification,
  reverify: e.reverify,
} as const;

export type PayerCommand = keyof typeof commands | 'delete';

export const usePayerCommand = () =>
  useBusinessMutation(
    async (id, { payerId, command }: { payerId: string; command: PayerCommand }) => {
      const params = { id, payerId };
      if (command === 'delete') {
        await callForData(e.delete, { params });
        return null;
      }
      return callForData(commands[command], { params });
    },
    payerChanges,
    { afterSuccessOnly: true },
  );

/** What an import would do: nothing is saved, nothing is read again. */
export const useImportPreview = () =>
  useBusinessMutation(
    (id, body: PayerImportBody) => callForData(e.previewImport, { params: { id }, body }),
    () => [],
  );

export const useImportPayers = () =>
  useBusinessMutation((id, body: PayerImportBody) => callForData(e.import, { params: { id }, body }), payerChanges, { afterSuccessOnly: true });

/** The payer opens the link in their e-mail: confirming is idempotent, so a query is fine. */
export function useVerifyPayer(token: string) {
  return useQuery({
    queryKey: ['payer-verification', token],
    queryFn: () => callForData(e.verify, { params: { token } }),
    retry: false,
    staleTime: Infinity,
  });
}

/** Downloads the CSV of the list's query (the bearer token cannot ride on a plain link). */
export async function downloadPayersCsv(businessId: string, query: PayerListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'payers.csv');
}
