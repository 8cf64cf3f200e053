import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { getHref, paths, StudentAction, type Student, studentEndpoints } from '@tay/contract';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useStudentCommand, type StudentCommand } from '../api/students-api';

/** The actions that change nothing here: all a person may use who cannot change the business's students. */
const READ_ONLY: ReadonlySet<StudentAction> = new Set(['Enrollment', 'Transactions']);

/** The student's actions (as the API lists them, from `studentActions`), less those that change it when the person may not. */
export function permittedStudentActions(actions: readonly string[], canWrite: boolean): StudentAction[] {
  const known = actions.filter((a): a is StudentAction => (StudentAction.options as readonly string[]).includes(a));
  return canWrite ? known : known.filter((a) => READ_ONLY.has(a));
}

export const studentEditHref = (studentId: string) => getHref(paths.entity.studentEdit, undefined, { studentId });
export const studentRequestHref = (studentId: string) => getHref(paths.entity.studentRequest, undefined, { entity: 'true', studentId });
export const studentTransactionsHref = (studentId: string) => getHref(paths.entity.billingTransactions, undefined, { studentId });

const DONE: Record<StudentCommand, { title: string; verb: string; text: (s: Student) => string }> = {
  activate: { title: 'Student activated', verb: 'activated', text: (s) => `${s.name} can be billed again.` },
  deactivate: { title: 'Student deactivated', verb: 'deactivated', text: (s) => `${s.name} is not billed until you activate them again.` },
  delete: { title: 'Student deleted', verb: 'deleted', text: (s) => `${s.name} and their enrollments are gone; their guardians stay your payers.` },
};

/**
 * What each row action does: Edit opens the form, Request to Pay the single student request,
 * Enrollment the enrollments drawer, Transactions the student's billing history; Deactivate and
 * Delete ask first; Activate happens at once. Each change is said in a toast.
 */
export function useStudentActions({ onEnrollment }: { onEnrollment: (student: Student) => void }) {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(studentEndpoints.create).allowed;
  const command = useStudentCommand();

  const change = (student: Student, name: StudentCommand) =>
    command.mutate(
      { studentId: student.studentId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(student) }),
        onError: (error) => notifications.show({ color: 'red', title: `${student.name} was not ${DONE[name].verb}`, message: error.message }),
      },
    );

  const confirm = (student: Student, name: 'deactivate' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete ${student.name}?` : `Deactivate ${student.name}?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The student, their enrollments and their guardian links are removed for good. Their guardians stay your payers.'
            : 'They are not billed (by a cycle, program billing or a request) until you activate them again. Nothing already sent changes.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, deactivate', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(student, name),
    });

  const run = (action: StudentAction, student: Student) => {
    switch (action) {
      case 'Edit':
        return void navigate(studentEditHref(student.studentId));
      case 'Request to Pay':
        return void navigate(studentRequestHref(student.studentId));
      case 'Enrollment':
        return onEnrollment(student);
      case 'Transactions':
        return void navigate(studentTransactionsHref(student.studentId));
      case 'Activate':
        return change(student, 'activate');
      case 'Deactivate':
        return confirm(student, 'deactivate');
      case 'Delete':
        return confirm(student, 'delete');
    }
  };

  return { run, canWrite };
}
