import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  receiverEndpoints as e,
  receiverLinkEndpoints as p,
  type Receiver,
  type ReceiverBankAccountBody,
  type ReceiverInput,
  type ReceiverListQuery,
} from '@tay/contract';
import { ApiError } from '../../../lib/api-client';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's receivers. */
export const receiversKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

export function useReceiverList(query: ReceiverListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateReceivers() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => queryClient.invalidateQueries({ queryKey: receiversKey(businessId) });
}

/** Adds a receiver (POST; e-mails them the secure link), or edits one when `receiverId` is given (PATCH). */
export function useSaveReceiver() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateReceivers();
  return useMutation({
    mutationFn: ({ body, receiverId }: { body: ReceiverInput; receiverId?: string | null }) => {
      const id = requireBusinessId(businessId);
      return receiverId ? callForData(e.update, { params: { id, receiverId }, body }) : callForData(e.create, { params: { id }, body });
    },
    onSuccess: () => invalidate(),
  });
}

export type ReceiverCommand = 'enable' | 'disable' | 'resendLink' | 'review' | 'delete';

/** Enable, Disable, Resend verification, Mark reviewed (an owner or admin) and Delete (a receiver no payout names). */
export function useReceiverCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidateReceivers();
  return useMutation({
    mutationFn: async ({ receiverId, command }: { receiverId: string; command: ReceiverCommand }): Promise<Receiver | null> => {
      const params = { id: requireBusinessId(businessId), receiverId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    onSuccess: () => invalidate(),
  });
}

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
