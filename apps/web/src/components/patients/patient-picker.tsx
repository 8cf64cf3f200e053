import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PARTY_TEMPLATES, patientEndpoints, type PatientGuarantor } from '@tay/contract';
import { PartyPicker, type PartyOptionsQuery } from '../parties/party-picker';
import { endpointQuery } from '../../lib/endpoint-client';
import { useBusinessId } from '../../lib/session';

/** A patient as a picker gives them: who they are, and the guarantor their statements are billed to. */
export interface PickedPatient {
  clientId: string;
  name: string;
  mrn: string;
  /** Unknown for a patient named by a link only (a filter). */
  guarantor: PatientGuarantor | null;
}

/** "Ana Lopez (MRN-1001)", or the name alone when the MRN is not known here. */
export const patientLabel = (p: Pick<PickedPatient, 'name' | 'mrn'>) => (p.mrn ? `${p.name} (${p.mrn})` : p.name);

/**
 * Patient typeahead (the healthcare template, ADR 037): the business's patients whose name or MRN
 * holds what is typed (the patients list's own search, which shows no date of birth), twenty at a
 * time — active ones only for a new statement; every one as a list filter (`compact`,
 * `includeInactive`). Picking one from the list is not a view of their record.
 */
export function PatientPicker(props: {
  value: PickedPatient | null;
  onChange: (patient: PickedPatient | null) => void;
  error?: string | undefined;
  compact?: boolean;
  includeInactive?: boolean;
}) {
  return <PartyPicker template={PARTY_TEMPLATES.healthCare} idOf={(p) => p.clientId} labelOf={patientLabel} useOptions={usePatientOptions} {...props} />;
}

/** The patients list's own search, as the picker's options. */
function usePatientOptions(query: PartyOptionsQuery): { items: PickedPatient[]; isFetching: boolean } {
  const businessId = useBusinessId();
  const list = useQuery({
    ...endpointQuery(patientEndpoints.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
  const items = (list.data?.items ?? []).map((p) => ({ clientId: p.clientId, name: p.name, mrn: p.mrn, guarantor: p.guarantor }));
  return { items, isFetching: list.isFetching };
}
