import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  paymentRequestEndpoints,
  programEndpoints,
  studentEndpoints,
  studentRequestEndpoints as e,
  type StudentBalancesQuery,
  type StudentListQuery,
  type StudentRequestInput,
} from '@tay/contract';
import { balancesKey } from '../../../lib/balances';
import { areaKey, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useIdempotentCommand } from '../../../lib/idempotency-keys';
import { useBusinessId } from '../../../lib/session';
import { studentBillingKey } from '../../../lib/area-keys';

/** The students' balances and the student requests (they move each other). */
export { studentBillingKey };

/**
 * A request to pay for one student. The intent (student and whole body) picks the
 * Idempotency-Key, so a retry after a lost answer never sends twice (as the request form does).
 */
export function useCreateStudentRequest() {
  const keyed = useIdempotentCommand();
  return useBusinessMutation(
    (id, { studentId, body }: { studentId: string; body: StudentRequestInput }) =>
      keyed([studentId, body], (headers) => callForData(e.create, { params: { id, studentId }, body, headers })),
    (businessId) => [areaKey(paymentRequestEndpoints.list.tag, businessId), studentBillingKey(businessId), balancesKey(businessId)],
    { afterSuccessOnly: true },
  );
}

export function useStudentBalances(query: StudentBalancesQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.balances, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/** The CSV of the same query, every page. */
export async function downloadStudentBalancesCsv(businessId: string, query: StudentBalancesQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.balancesCsv, { params: { id: businessId }, query: rest }, 'student-balances.csv');
}

/** The business's students (the students list's own search), for a picker or a filter. */
export function useStudentOptions(query: StudentListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(studentEndpoints.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

/** One student with their guardians and enrollments. */
export function useStudentDetail(studentId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(studentEndpoints.get, { params: { id: businessId ?? '', studentId: studentId ?? '' } }),
    enabled: Boolean(businessId && studentId),
  });
}

/** The business's programs, by name, for a filter. */
export function useProgramOptions() {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(programEndpoints.list, { params: { id: businessId ?? '' }, query: { pageSize: 100, sortBy: 'name', sortDirection: 'asc' } }),
    enabled: Boolean(businessId),
  });
}
