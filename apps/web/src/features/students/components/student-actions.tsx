import { PARTY_TEMPLATES, StudentAction, type Student, studentEndpoints } from '@tay/contract';
import { usePartyRowActions } from '../../../components/parties/party-row-actions';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useStudentCommand } from '../api/students-api';

/**
 * A student's row actions (the party's, ADR 048): Edit opens the form, Request to Pay the single
 * student request, Enrollment the enrollments drawer, Transactions the student's billing history;
 * Deactivate and Delete ask first; Activate happens at once. Enrollment and Transactions change
 * nothing, so a person who cannot change the students still has them.
 */
export function useStudentActions({ onEnrollment }: { onEnrollment: (student: Student) => void }) {
  const command = useStudentCommand();
  return usePartyRowActions<Student, StudentAction>({
    template: PARTY_TEMPLATES.student,
    idOf: (s) => s.studentId,
    known: StudentAction.options,
    readOnly: ['Enrollment', 'Transactions'],
    canWrite: useEndpointAccess(studentEndpoints.create).allowed,
    command: (s, name, callbacks) => command.mutate({ studentId: s.studentId, command: name }, callbacks),
    done: { deleted: (s) => `${s.name} and their enrollments are gone; their guardians stay your payers.` },
    confirmText: {
      delete: 'The student, their enrollments and their guardian links are removed for good. Their guardians stay your payers.',
      deactivate: 'They are not billed (by a cycle, program billing or a request) until you activate them again. Nothing already sent changes.',
    },
    extra: { Enrollment: onEnrollment },
  });
}
