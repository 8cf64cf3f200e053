import { Badge, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import {
  ENROLLMENT_STATUS_LABELS,
  getHref,
  paths,
  PROGRAM_STATUS_LABELS,
  ProgramAction,
  type EnrollmentStatus,
  type Program,
  type ProgramStatus,
  programEndpoints,
} from '@tay/contract';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useProgramCommand, type ProgramCommand } from '../api/programs-api';

export function ProgramStatusBadge({ status }: { status: ProgramStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {PROGRAM_STATUS_LABELS[status]}
    </Badge>
  );
}

export function EnrollmentStatusBadge({ status }: { status: EnrollmentStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {ENROLLMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "3 / 10", "3 (no limit)". */
export function enrolledOfCapacity(p: Pick<Program, 'enrolledCount' | 'capacity'>): string {
  return p.capacity === null ? `${p.enrolledCount} (no limit)` : `${p.enrolledCount} / ${p.capacity}`;
}

/** The actions that change nothing: all a person may use who cannot change the programs. */
const READ_ONLY: ReadonlySet<ProgramAction> = new Set(['Students']);

export function permittedProgramActions(actions: readonly string[], canWrite: boolean): ProgramAction[] {
  const known = actions.filter((a): a is ProgramAction => (ProgramAction.options as readonly string[]).includes(a));
  return canWrite ? known : known.filter((a) => READ_ONLY.has(a));
}

export const programManageHref = (programId?: string) => getHref(paths.entity.programManage, undefined, programId ? { programId } : undefined);
export const programStudentsHref = (programId: string) => getHref(paths.entity.programStudents, undefined, { programId });
export const programEnrollHref = (programId: string) => getHref(paths.entity.programEnroll, undefined, { programId });

const DONE: Record<ProgramCommand, { title: string; verb: string; text: (p: Program) => string }> = {
  activate: { title: 'Program activated', verb: 'activated', text: (p) => `${p.name} takes enrollments and is billed again.` },
  deactivate: { title: 'Program deactivated', verb: 'deactivated', text: (p) => `${p.name} takes no enrollments and is not billed until you activate it.` },
  delete: { title: 'Program deleted', verb: 'deleted', text: (p) => `${p.name} is gone.` },
};

/**
 * What each row action does: Edit, Students and Enroll open their pages; Deactivate and Delete ask
 * first; Activate happens at once. Each change is said in a toast.
 */
export function useProgramActions() {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(programEndpoints.create).allowed;
  const command = useProgramCommand();

  const change = (program: Program, name: ProgramCommand) =>
    command.mutate(
      { programId: program.programId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(program) }),
        onError: (error) => notifications.show({ color: 'red', title: `${program.name} was not ${DONE[name].verb}`, message: error.message }),
      },
    );

  const confirm = (program: Program, name: 'deactivate' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete ${program.name}?` : `Deactivate ${program.name}?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The program is removed for good.'
            : 'It takes no new enrollments and billing skips it until you activate it again. Its students stay enrolled; requests already sent do not change.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, deactivate', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(program, name),
    });

  const run = (action: ProgramAction, program: Program) => {
    switch (action) {
      case 'Edit':
        return void navigate(programManageHref(program.programId));
      case 'Students':
        return void navigate(programStudentsHref(program.programId));
      case 'Enroll':
        return void navigate(programEnrollHref(program.programId));
      case 'Activate':
        return change(program, 'activate');
      case 'Deactivate':
        return confirm(program, 'deactivate');
      case 'Delete':
        return confirm(program, 'delete');
    }
  };

  return { run, canWrite };
}
