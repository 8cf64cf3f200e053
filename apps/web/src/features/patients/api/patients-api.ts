import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { patientEndpoints as e, type Patient, type PatientInput, type PatientListQuery } from '@tay/contract';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** Everything cached of the business's patients. */
export const patientsKey = (businessId: string | undefined) => areaKey(e.list.tag, businessId);

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

export function usePatientList(query: PatientListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/**
 * One patient's full record, read for the edit form. Each read is recorded as a view of the
 * record (who, when), so it is read once per visit: never again on focus, reconnect or staleness.
 */
export function usePatientRecord(clientId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', clientId: clientId ?? '' }, query: { purpose: 'edit' } }),
    enabled: Boolean(businessId && clientId),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}

/** Who viewed the record, what and when (reading it is not a view). */
export function usePatientViews(clientId: string | null, page: number, enabled: boolean) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.views, { params: { id: businessId ?? '', clientId: clientId ?? '' }, query: { page, pageSize: 10 } }),
    enabled: Boolean(businessId && clientId && enabled),
    placeholderData: keepPreviousData,
  });
}

export function useInvalidatePatients() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  // A single read of a record is not read again for a change: each read is an audited view.
  return () => queryClient.invalidateQueries({ queryKey: patientsKey(businessId), predicate: (q) => q.queryKey[2] !== e.get.path });
}

/** Adds a patient (POST), or edits one when `clientId` is given (PATCH). */
export function useSavePatient() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePatients();
  return useMutation({
    mutationFn: ({ body, clientId }: { body: PatientInput; clientId?: string | null }) => {
      const id = requireBusinessId(businessId);
      return clientId ? callForData(e.update, { params: { id, clientId }, body }) : callForData(e.create, { params: { id }, body });
    },
    onSuccess: () => invalidate(),
  });
}

export type PatientCommand = 'activate' | 'deactivate' | 'delete';

/** Activate, Deactivate and Delete (a patient no payment request names). */
export function usePatientCommand() {
  const businessId = useBusinessId();
  const invalidate = useInvalidatePatients();
  return useMutation({
    mutationFn: async ({ clientId, command }: { clientId: string; command: PatientCommand }): Promise<Patient | null> => {
      const params = { id: requireBusinessId(businessId), clientId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    onSuccess: () => invalidate(),
  });
}

/** Downloads the CSV of the list's query (dates of birth masked): the filters, the search and the sort, without the paging. */
export async function downloadPatientsCsv(businessId: string, query: PatientListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'patients.csv');
}
