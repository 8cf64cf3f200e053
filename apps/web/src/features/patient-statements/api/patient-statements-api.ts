import { useQuery } from '@tanstack/react-query';
import { patientEndpoints, patientStatementEndpoints as e, paymentRequestEndpoints, type PatientStatementInput } from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { areaKey, callForData, endpointQuery } from '../../../lib/endpoint-client';
import { AUDITED_READ, useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';

/**
 * A statement for one patient (ADR 037). The intent (patient and whole body) picks the
 * Idempotency-Key, so a retry after a lost answer never bills twice (as the request form does).
 * The requests, the patients' counts and balances (their list; a single record is an audited
 * read, never read again) and the balances move.
 */
export function useCreatePatientStatement() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { clientId, body }: { clientId: string; body: PatientStatementInput }) =>
      keyed([clientId, body], (headers) => callForData(e.create, { params: { id, clientId }, body, headers })),
    (businessId) => [areaKey(paymentRequestEndpoints.list.tag, businessId), areaKey(patientEndpoints.list.tag, businessId), balancesKey(businessId)],
    { afterSuccessOnly: true },
  );
}

/** The statement a copy starts from (`?copy=` a request's id): its lines, date of service and fields. */
export function useStatementToCopy(requestId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(paymentRequestEndpoints.get, { params: { id: businessId ?? '', requestId: requestId ?? '' } }),
    enabled: Boolean(businessId && requestId),
  });
}

/**
 * The patient a link names (`?clientId=`): read for the statement form (`purpose=statement`:
 * their names, MRN and guarantor, no date of birth), once for the page — the read is an audited
 * view of the patient's statements, so never again on focus, reconnect or staleness.
 */
export function usePatientForStatement(clientId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(patientEndpoints.get, { params: { id: businessId ?? '', clientId: clientId ?? '' }, query: { purpose: 'statement' } }),
    ...AUDITED_READ,
    enabled: Boolean(businessId && clientId),
  });
}
