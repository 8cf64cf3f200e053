import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  receiverEndpoints as e,
  receiverLinkEndpoints as p,
  type Receiver,
  type ReceiverBankAccountBody,
  type ReceiverInput,
  type ReceiverListQuery,
} from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { receiversKey } from '../../../lib/area-keys';

/** Everything cached of the business's receivers. */
export { receiversKey };

export function useReceiverList(query: ReceiverListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/** A change to receivers: the receivers are read again. */
const receiverChanges = (businessId: string | undefined) => [receiversKey(businessId)];

/** Adds a receiver (POST; e-mails them the secure link), or edits one when `receiverId` is given (PATCH). */
export const useSaveReceiver = () =>
  useBusinessMutation(
    (id, { body, receiverId }: { body: ReceiverInput; receiverId?: string | null }) =>
      receiverId ? callForData(e.update, { params: { id, receiverId }, body }) : callForData(e.create, { params: { id }, body }),
    receiverChanges,
    { afterSuccessOnly: true },
  );

export type ReceiverCommand = 'enable' | 'disable' | 'resendLink' | 'review' | 'delete';

/** Enable, Disable, Resend verification, Mark reviewed (an owner or admin) and Delete (a receiver no payout names). */
export const useReceiverCommand = () =>
  useBusinessMutation(
    async (id, { receiverId, command }: { receiverId: string; command: ReceiverCommand }): Promise<Receiver | null> => {
      const params = { id, receiverId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    receiverChanges,
    { afterSuccessOnly: true },
  );

/** Downloads the CSV of the list's query: the filters, the search and the sort, without the paging. */
export async function downloadReceiversCsv(businessId: string, query: ReceiverListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'receivers.csv');
}

/* ------------------------------------------------------------ the secure link (no sign-in) */

const noRetryOnClientErrors = (count: number, error: unknown) => !(error instanceof ApiError && error.status < 500) && count < 2;

export function useReceiverLink(token: string) {
  return useQuery({
    queryKey: ['receiver', 'bank-account', token],
    queryFn: () => callForData(p.get, { params: { token } }),
    retry: noRetryOnClientErrors,
  });
}

/** The bank's name of a routing number that passes the checksum (asked once its 9 digits are typed). */
export function useRoutingLookup(token: string, routingNumber: string) {
  return useQuery({
    queryKey: ['receiver', 'routing', token, routingNumber],
    queryFn: () => callForData(p.routing, { params: { token, routingNumber } }),
    enabled: /^\d{9}$/.test(routingNumber),
    retry: false,
    staleTime: Infinity,
  });
}

export function useSetReceiverAccount(token: string) {
  return useMutation({ mutationFn: (body: ReceiverBankAccountBody) => callForData(p.setAccount, { params: { token }, body }) });
}
