import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { patientEndpoints as e, type Patient, type PatientInput, type PatientListQuery } from '@tay/contract';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { AUDITED_READ, useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { patientsKey } from '../../../lib/area-keys';

/** Everything cached of the business's patients. */
export { patientsKey };

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
    ...AUDITED_READ,
    enabled: Boolean(businessId && clientId),
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

/** A change to a patient: the patients are read again (a single record is an audited read, never read again). */
const patientChanges = (businessId: string | undefined) => [patientsKey(businessId)];

/** Adds a patient (POST), or edits one when `clientId` is given (PATCH). */
export const useSavePatient = () =>
  useBusinessMutation(
    (id, { body, clientId }: { body: PatientInput; clientId?: string | null }) =>
      clientId ? callForData(e.update, { params: { id, clientId }, body }) : callForData(e.create, { params: { id }, body }),
    patientChanges,
    { afterSuccessOnly: true },
  );

export type PatientCommand = 'activate' | 'deactivate' | 'delete';

/** Activate, Deactivate and Delete (a patient no payment request names). */
export const usePatientCommand = () =>
  useBusinessMutation(
    async (id, { clientId, command }: { clientId: string; command: PatientCommand }): Promise<Patient | null> => {
      const params = { id, clientId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    patientChanges,
    { afterSuccessOnly: true },
  );

/** Downloads the CSV of the list's query (dates of birth masked): the filters, the search and the sort, without the paging. */
export async function downloadPatientsCsv(businessId: string, query: PatientListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'patients.csv');
}
