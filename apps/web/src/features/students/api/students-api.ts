import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { studentEndpoints as e, type Student, type StudentInput, type StudentListQuery } from '@tay/contract';
import { callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { studentsKey } from '../../../lib/area-keys';

/** Everything cached of the business's students. */
export { studentsKey };

export function useStudentList(query: StudentListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
}

export function useStudent(studentId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', studentId: studentId ?? '' } }),
    enabled: Boolean(businessId && studentId),
  });
}

export function useInvalidateStudents() {
  const queryClient = useQueryClient();
  const businessId = useBusinessId();
  return () => queryClient.invalidateQueries({ queryKey: studentsKey(businessId) });
}

/** A change to a student: the students are read again. */
const studentChanges = (businessId: string | undefined) => [studentsKey(businessId)];

/** Adds a student (POST), or edits one when `studentId` is given (PATCH). */
export const useSaveStudent = () =>
  useBusinessMutation(
    (id, { body, studentId }: { body: StudentInput; studentId?: string | null }) =>
      studentId ? callForData(e.update, { params: { id, studentId }, body }) : callForData(e.create, { params: { id }, body }),
    studentChanges,
    { afterSuccessOnly: true },
  );

export type StudentCommand = 'activate' | 'deactivate' | 'delete';

/** Activate, Deactivate and Delete (a student no payment request names). */
export const useStudentCommand = () =>
  useBusinessMutation(
    async (id, { studentId, command }: { studentId: string; command: StudentCommand }): Promise<Student | null> => {
      const params = { id, studentId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    studentChanges,
    { afterSuccessOnly: true },
  );

/** Downloads the CSV of the list's query: the filters, the search and the sort, without the paging. */
export async function downloadStudentsCsv(businessId: string, query: StudentListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'students.csv');
}
