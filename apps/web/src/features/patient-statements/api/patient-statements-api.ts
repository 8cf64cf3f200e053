import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { patientEndpoints, patientStatementEndpoints as e, paymentRequestEndpoints, type PatientStatementInput } from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { areaKey, callForData, endpointQuery } from '../../../lib/endpoint-client';
import { IntentKeys } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';

function requireBusinessId(businessId: string | undefined): string {
  if (!businessId) throw new Error('Create your business first.');
  return businessId;
}

/**
 * A statement for one patient (ADR 037). The intent (patient and whole body) picks the
 * Idempotency-Key, so a retry after a lost answer never bills twice (as the request form does).
 */
export function useCreatePatientStatement() {
  const businessId = useBusinessId();
  const queryClient = useQueryClient();
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    mutationFn: async ({ clientId, body }: { clientId: string; body: PatientStatementInput }) => {
      const intent = JSON.stringify([clientId, body]);
      try {
        const saved = await callForData(e.create, {
          params: { id: requireBusinessId(businessId), clientId },
          body,
          headers: { 'Idempotency-Key': keys.keyFor(intent) },
        });
        keys.settle(intent);
        return saved;
      } catch (error) {
        keys.settle(intent, error);
        throw error;
      }
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: areaKey(paymentRequestEndpoints.list.tag, businessId) }),
        // The patients' counts and balances (their list), but not a single record: each read of one is an audited view.
        queryClient.invalidateQueries({
          queryKey: areaKey(patientEndpoints.list.tag, businessId),
          predicate: (q) => q.queryKey[2] !== patientEndpoints.get.path,
        }),
        queryClient.invalidateQueries({ queryKey: balancesKey(businessId) }),
      ]),
  });
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
    enabled: Boolean(businessId && clientId),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}
