import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  batchEndpoints,
  programEndpoints,
  studentBillingEndpoints as e,
  type BillableStudentsQuery,
  type ProgramBillingBody,
  type ProgramBillingPreviewBody,
  type StudentBillingBody,
} from '@tay/contract';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { areaKey, callForData, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/** The business's batches (their lists and pages): a new batch changes them. */
const batchesKey = (businessId: string | undefined) => areaKey(batchEndpoints.list.tag, businessId);

/** The active programs to bill (a school has a few dozen at most: the first 100 by name). */
export function useActivePrograms() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(programEndpoints.list, {
      params: { id: businessId ?? '' },
      query: { status: 'active', sortBy: 'name', sortDirection: 'asc', pageSize: 100 },
    }),
    enabled: Boolean(businessId),
  });
}

/** Every active student matching the grade, program and search (Request to Pay Multiple Students). */
export function useBillableStudents(query: BillableStudentsQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.billableStudents, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/** Who would be billed what: nothing is saved. */
export const useProgramBillingPreview = () =>
  useBusinessMutation(
    (id, body: ProgramBillingPreviewBody) => callForData(e.programBillingPreview, { params: { id }, body }),
    () => [],
  );

/** The preview, adjusted, as a batch in review, under the Idempotency-Key of its whole body (a retry after no answer makes one batch). */
export function useCreateProgramBilling() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, body: ProgramBillingBody) => keyed(body, (headers) => callForData(e.programBilling, { params: { id }, body, headers })),
    (businessId) => [batchesKey(businessId)],
  );
}

/** The same request for each student picked, as a batch in review, under the Idempotency-Key of its whole body. */
export function useCreateStudentBilling() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, body: StudentBillingBody) => keyed(body, (headers) => callForData(e.create, { params: { id }, body, headers })),
    (businessId) => [batchesKey(businessId)],
  );
}
