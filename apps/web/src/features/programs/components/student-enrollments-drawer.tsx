import { Alert, Button, Drawer, Group, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { formatDay, formatMoney, PROGRAM_FREQUENCY_LABELS, type Enrollment, type FieldErrors, programEndpoints } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ApiError } from '../../../lib/api-client';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useEnrollStudent, useProgramList, useStudentEnrollments } from '../api/programs-api';
import { EnrollmentStatusBadge } from './program-actions';
import { WithdrawModal } from './withdraw-modal';
import { localToday } from '../../../lib/local-day';

export interface StudentEnrollmentsDrawerProps {
  businessId: string;
  /** Opens the drawer for this student; null closes it. */
  student: { studentId: string; name: string } | null;
  onClose: () => void;
}

function EnrollForm({
  businessId,
  studentId,
  studentName,
  enrolledProgramIds,
}: {
  businessId: string;
  studentId: string;
  studentName: string;
  enrolledProgramIds: Set<string>;
}) {
  const programs = useProgramList({ status: 'active', pageSize: 100, sortBy: 'name', sortDirection: 'asc' });
  const enroll = useEnrollStudent(studentId, businessId);
  const [programId, setProgramId] = useState<string | null>(null);
  const [startDate, setStartDate] = useState(localToday());
  const [errors, setErrors] = useState<FieldErrors>({});

  const options = (programs.data?.items ?? []).map((p) => {
    const full = p.placesLeft === 0;
    const enrolled = enrolledProgramIds.has(p.programId);
    const note = enrolled ? ' — enrolled' : full ? ' — full' : p.placesLeft !== null ? ` — ${p.placesLeft} left` : '';
    return {
      value: p.programId,
      label: `${p.name} (${formatMoney(p.feeCents)} ${PROGRAM_FREQUENCY_LABELS[p.frequency].toLowerCase()})${note}`,
      disabled: enrolled || full,
    };
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {};
    if (!programId) next.programId = 'Choose a program.';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate)) next.startDate = 'Enter the start date.';
    if (Object.keys(next).length > 0) return setErrors(next);
    enroll.mutate(
      { programId: programId!, startDate },
      {
        onSuccess: (e) => {
          notifications.show({
            color: 'teal',
            title: 'Student enrolled',
            message: `${studentName} is enrolled in ${e.programName} from ${formatDay(e.startDate)}.`,
          });
          setProgramId(null);
          setErrors({});
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setErrors(error.fields);
          else notifications.show({ color: 'red', title: `${studentName} was not enrolled`, message: error.message });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Enroll in a program">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Enroll in a program
        </Title>
        <Select
          label="Program"
          placeholder={programs.isPending ? 'Loading programs…' : 'Choose a program'}
          data={options}
          value={programId}
          onChange={(value) => {
            setProgramId(value);
            setErrors(({ programId: _cleared, ...rest }) => rest);
          }}
          error={errors.programId}
          nothingFoundMessage="No active programs"
          searchable
          required
        />
        <TextInput
          label="Start date"
          type="date"
          required
          value={startDate}
          error={errors.startDate}
          onChange={(e) => {
            setStartDate(e.currentTarget.value);
            setErrors(({ startDate: _cleared, ...rest }) => rest);
          }}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={enroll.isPending}>
            Enroll
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Enrollments({ businessId, studentId, studentName }: { businessId: string; studentId: string; studentName: string }) {
  const list = useStudentEnrollments(studentId, businessId);
  const access = useEndpointAccess(programEndpoints.enrollStudent);
  const [withdrawing, setWithdrawing] = useState<Enrollment | null>(null);

  if (list.error) return <LoadError title="The enrollments could not be loaded" error={list.error} onRetry={() => void list.refetch()} />;
  const items = list.data?.items ?? [];
  const active = new Set(items.filter((e) => e.status === 'active').map((e) => e.programId));

  return (
    <Stack gap="lg">
      {list.isPending ? (
        <Text size="sm" c="dimmed">
          Loading enrollments…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {studentName} is not enrolled in any program yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table striped aria-label={`Enrollments of ${studentName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Program</Table.Th>
                <Table.Th>Start</Table.Th>
                <Table.Th>End</Table.Th>
                <Table.Th>Status</Table.Th>
                {access.allowed && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.enrollmentId}>
                  <Table.Td>{e.programName}</Table.Td>
                  <Table.Td>{formatDay(e.startDate)}</Table.Td>
                  <Table.Td>{e.endDate ? formatDay(e.endDate) : '—'}</Table.Td>
                  <Table.Td>
                    <EnrollmentStatusBadge status={e.status} />
                  </Table.Td>
                  {access.allowed && (
                    <Table.Td>
                      {e.status === 'active' && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setWithdrawing(e)} aria-label={`Withdraw from ${e.programName}`}>
                          Withdraw
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {access.allowed ? (
        <EnrollForm businessId={businessId} studentId={studentId} studentName={studentName} enrolledProgramIds={active} />
      ) : (
        <Alert color="gray" title={access.title}>
          {access.reason}
        </Alert>
      )}
      <WithdrawModal enrollment={withdrawing} onClose={() => setWithdrawing(null)} />
    </Stack>
  );
}

/**
 * A student's enrollments in a drawer (the students list's "Enrollment" action): the programs with
 * their start, end and status; enroll in another program; withdraw (asks first, with the end date).
 */
export function StudentEnrollmentsDrawer({ businessId, student, onClose }: StudentEnrollmentsDrawerProps) {
  return (
    <Drawer opened={student !== null} onClose={onClose} position="right" size="lg" title={student ? `Enrollments of ${student.name}` : 'Enrollments'}>
      {student && <Enrollments key={student.studentId} businessId={businessId} studentId={student.studentId} studentName={student.name} />}
    </Drawer>
  );
}
