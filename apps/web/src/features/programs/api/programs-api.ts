import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  programEndpoints as e,
  type EnrollBody,
  type EnrollCandidateQuery,
  type EnrollmentListQuery,
  type Program,
  type ProgramInput,
  type ProgramListQuery,
  type StudentEnrollBody,
} from '@tay/contract';
import { areaKey, callEndpoint, callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { useBusinessId } from '../../../lib/session';
import { programsKey } from '../../../lib/area-keys';

/** Everything cached of the business's programs and enrollments. */
export { programsKey };

export function useProgramList(query: ProgramListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.list, { params: { id: businessId ?? '' }, query }),
    enabled: Boolean(businessId) && enabled,
    placeholderData: keepPreviousData,
  });
}

export function useProgram(programId: string | null) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.get, { params: { id: businessId ?? '', programId: programId ?? '' } }),
    enabled: Boolean(businessId && programId),
  });
}

export function useEnrollmentList(programId: string, query: EnrollmentListQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.enrollments, { params: { id: businessId ?? '', programId }, query }),
    enabled: Boolean(businessId && programId),
    placeholderData: keepPreviousData,
  });
}

export function useEnrollCandidates(programId: string, query: EnrollCandidateQuery) {
  const businessId = useBusinessId();
  return useQuery({
    ...endpointQuery(e.candidates, { params: { id: businessId ?? '', programId }, query }),
    enabled: Boolean(businessId && programId),
    placeholderData: keepPreviousData,
  });
}

/** A student's enrollments (the drawer); `businessId` is the student's business, the session's by default. */
export function useStudentEnrollments(studentId: string | null, forBusiness?: string) {
  const sessionBusiness = useBusinessId();
  const businessId = forBusiness ?? sessionBusiness;
  return useQuery({
    ...endpointQuery(e.studentEnrollments, { params: { id: businessId ?? '', studentId: studentId ?? '' } }),
    enabled: Boolean(businessId && studentId),
  });
}

/** Programs and students change together: an enroll moves a program's count and a student's programs. */
const programChanges = (businessId: string | undefined) => [programsKey(businessId), areaKey('Students', businessId)];

/** Adds a program (POST), or edits one when `programId` is given (PATCH). */
export const useSaveProgram = () =>
  useBusinessMutation(
    (id, { body, programId }: { body: ProgramInput; programId?: string | null }) =>
      programId ? callForData(e.update, { params: { id, programId }, body }) : callForData(e.create, { params: { id }, body }),
    programChanges,
    { afterSuccessOnly: true },
  );

export type ProgramCommand = 'activate' | 'deactivate' | 'delete';

export const useProgramCommand = () =>
  useBusinessMutation(
    async (id, { programId, command }: { programId: string; command: ProgramCommand }): Promise<Program | null> => {
      const params = { id, programId };
      if (command === 'delete') {
        await callEndpoint(e.remove, { params });
        return null;
      }
      return callForData(e[command], { params });
    },
    programChanges,
    { afterSuccessOnly: true },
  );

export const useEnroll = (programId: string) =>
  useBusinessMutation((id, body: EnrollBody) => callForData(e.enroll, { params: { id, programId }, body }), programChanges, { afterSuccessOnly: true });

/** Enrolls a student in programs; `forBusiness` is the student's business, the session's by default. */
export const useEnrollStudent = (studentId: string, forBusiness?: string) =>
  useBusinessMutation((id, body: StudentEnrollBody) => callForData(e.enrollStudent, { params: { id, studentId }, body }), programChanges, {
    afterSuccessOnly: true,
    businessId: forBusiness,
  });

export const useWithdraw = () =>
  useBusinessMutation(
    (id, { programId, enrollmentId, endDate }: { programId: string; enrollmentId: string; endDate: string }) =>
      callForData(e.withdraw, { params: { id, programId, enrollmentId }, body: { endDate } }),
    programChanges,
    { afterSuccessOnly: true },
  );

/** Downloads the CSV of the list's query: the filters, the search and the sort, without the paging. */
export async function downloadProgramsCsv(businessId: string, query: ProgramListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportCsv, { params: { id: businessId }, query: rest }, 'programs.csv');
}

export async function downloadEnrollmentsCsv(businessId: string, programId: string, query: EnrollmentListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...rest } = query;
  await downloadEndpoint(e.exportEnrollments, { params: { id: businessId, programId }, query: rest }, 'program-students.csv');
}
