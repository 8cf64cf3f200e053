import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  businessEndpoints as e,
  referenceEndpoints,
  type AddBankAccountBody,
  type Business,
  type CreateBusinessBody,
  type MissingItem,
  type UpdateBusinessBody,
} from '@tay/contract';
import { callForData, endpointKey, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { currentUserKey, sessionKey, useBusinessId, useSession } from '../../../lib/session';
import { businessKey } from '../../../lib/area-keys';

/** Everything cached of one business (its record, what is missing); live updates invalidate it. */
export { businessKey };
const recordKey = (id: string) => endpointKey(e.get, { params: { id } });
const prepareSubmitQuery = (id: string) => endpointQuery(e.prepareSubmit, { params: { id } });

/** The selected business: the first one (docs/product.md, "Businesses"). */
export const useSelectedBusinessId = useBusinessId;

export function useBusiness() {
  const id = useSelectedBusinessId();
  return useQuery({ ...endpointQuery(e.get, { params: { id: id ?? '' } }), enabled: Boolean(id) });
}

/** What is still missing before the business can be submitted. */
export function usePrepareSubmit() {
  const id = useSelectedBusinessId();
  return useQuery({ ...prepareSubmitQuery(id ?? ''), enabled: Boolean(id) });
}

/** What is missing now, asked afresh (after a save, whatever the cache holds). */
export function useFreshMissing() {
  const id = useSelectedBusinessId();
  const queryClient = useQueryClient();
  return async (): Promise<MissingItem[]> => {
    if (!id) return [];
    const data = await queryClient.fetchQuery({ ...prepareSubmitQuery(id), staleTime: 0 });
    return data.missing;
  };
}

/**
 * A change to the business: the answer is its new record, put in the cache at once; then what is
 * missing is asked again, and the session and the person's record, whose business the header and
 * menus read.
 */
function useBusinessWrite<Input>(write: (id: string, input: Input) => Promise<Business>) {
  const queryClient = useQueryClient();
  return useBusinessMutation(write, (id) => [prepareSubmitQuery(id ?? '').queryKey, sessionKey, currentUserKey], {
    afterSuccessOnly: true,
    onSuccess: (business) => queryClient.setQueryData(recordKey(business.businessId), business),
  });
}

export function useUpdateBusiness() {
  return useBusinessWrite<UpdateBusinessBody>((id, body) => callForData(e.update, { params: { id }, body }));
}

export function useSubmitBusiness() {
  return useBusinessWrite<void>((id) => callForData(e.submit, { params: { id } }));
}

export function useUploadLogo() {
  return useBusinessWrite<string>((id, dataUrl) => callForData(e.uploadLogo, { params: { id }, body: { dataUrl } }));
}

export function useAddBankAccount() {
  return useBusinessWrite<AddBankAccountBody>((id, body) => callForData(e.addBankAccount, { params: { id }, body }));
}

export function useCreateBusiness() {
  const session = useSession();
  return useMutation({
    mutationFn: (body: CreateBusinessBody) => callForData(e.create, { body }),
    onSuccess: async () => session.refresh(),
  });
}

const forever = { staleTime: Infinity, gcTime: Infinity } as const;

const codeLists = {
  '/mcc': referenceEndpoints.mcc,
  '/corpStruct': referenceEndpoints.corporateStructures,
  '/nonProfitCode': referenceEndpoints.nonProfitCodes,
} as const;

export function useCodeList(path: keyof typeof codeLists) {
  return useQuery({ ...endpointQuery(codeLists[path], {}), ...forever });
}

export function useBankDirectory(search: string) {
  return useQuery({
    ...endpointQuery(referenceEndpoints.banks, { query: { search } }),
    staleTime: 300_000,
    placeholderData: (previous) => previous,
  });
}
