import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddBankAccountBody,
  Business,
  CodeLabel,
  CreateBusinessBody,
  DirectoryBank,
  MissingItem,
  UpdateBusinessBody,
} from '@tay/contract';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

type Ok<T> = { status: 'Success'; data: T };

export const businessKey = (id: string) => ['business', id] as const;
export const prepareSubmitKey = (id: string) => ['business', id, 'prepareSubmit'] as const;

/** The selected business: the first one (spec §3), with all its setup details. */
export function useSelectedBusinessId(): string | undefined {
  return useSession().currentUser?.businesses[0]?.businessId;
}

export function useBusiness() {
  const id = useSelectedBusinessId();
  return useQuery({
    queryKey: businessKey(id ?? 'none'),
    queryFn: () => api.get<Ok<Business>>(`/businesses/${encodeURIComponent(id!)}`).then((r) => r.data),
    enabled: Boolean(id),
  });
}

function fetchPrepareSubmit(id: string) {
  return api.patch<Ok<{ ready: boolean; missing: MissingItem[] }>>(`/businesses/${encodeURIComponent(id)}/update/prepareSubmit`).then((r) => r.data);
}

/** What is still missing before the business can be submitted (spec §4 prepare-submit). */
export function usePrepareSubmit() {
  const id = useSelectedBusinessId();
  return useQuery({
    queryKey: prepareSubmitKey(id ?? 'none'),
    queryFn: () => fetchPrepareSubmit(id!),
    enabled: Boolean(id),
  });
}

/** What is missing now, asked afresh (after a save, whatever the cache holds). */
export function useFreshMissing() {
  const id = useSelectedBusinessId();
  const queryClient = useQueryClient();
  return async (): Promise<MissingItem[]> => {
    if (!id) return [];
    const data = await queryClient.fetchQuery({ queryKey: prepareSubmitKey(id), queryFn: () => fetchPrepareSubmit(id), staleTime: 0 });
    return data.missing;
  };
}

function useBusinessWrite<Input>(write: (id: string, input: Input) => Promise<Business>) {
  const id = useSelectedBusinessId();
  const queryClient = useQueryClient();
  const session = useSession();
  return useMutation({
    mutationFn: (input: Input) => {
      if (!id) throw new Error('Create your business first.');
      return write(id, input);
    },
    onSuccess: async (business) => {
      queryClient.setQueryData(businessKey(business.businessId), business);
      await queryClient.invalidateQueries({ queryKey: prepareSubmitKey(business.businessId) });
      // The header and menus read the business from the user record.
      await session.refresh();
    },
  });
}

export function useUpdateBusiness() {
  return useBusinessWrite<UpdateBusinessBody>((id, body) =>
    api.patch<Ok<Business>>(`/businesses/${encodeURIComponent(id)}/update`, body).then((r) => r.data),
  );
}

export function useSubmitBusiness() {
  return useBusinessWrite<void>((id) =>
    api.patch<Ok<Business>>(`/businesses/${encodeURIComponent(id)}/update/submit`, {}).then((r) => r.data),
  );
}

export function useUploadLogo() {
  return useBusinessWrite<string>((id, dataUrl) =>
    api.post<Ok<Business>>(`/businesses/${encodeURIComponent(id)}/logo`, { dataUrl }).then((r) => r.data),
  );
}

export function useAddBankAccount() {
  return useBusinessWrite<AddBankAccountBody>((id, body) =>
    api.post<Ok<Business>>(`/businesses/${encodeURIComponent(id)}/bank-accounts`, body).then((r) => r.data),
  );
}

export function useCreateBusiness() {
  const session = useSession();
  return useMutation({
    mutationFn: (body: CreateBusinessBody) => api.post<Ok<Business>>('/businesses', body).then((r) => r.data),
    onSuccess: async () => session.refresh(),
  });
}

const forever = { staleTime: Infinity, gcTime: Infinity } as const;

export function useCodeList(path: '/mcc' | '/corpStruct' | '/nonProfitCode') {
  return useQuery({ queryKey: ['codes', path], queryFn: () => api.get<Ok<CodeLabel[]>>(path).then((r) => r.data), ...forever });
}

export function useBankDirectory(search: string) {
  return useQuery({
    queryKey: ['directory', 'banks', search],
    queryFn: () => api.get<Ok<DirectoryBank[]>>('/directory/banks', { query: { search } }).then((r) => r.data),
    staleTime: 300_000,
    placeholderData: (previous) => previous,
  });
}
