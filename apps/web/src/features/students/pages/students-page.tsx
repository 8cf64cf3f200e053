import { Badge, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import {
  formatDay,
  PARTY_TEMPLATES,
  STUDENT_STATUS_LABELS,
  StudentSortBy,
  StudentStatus,
  type Student,
  type StudentListQuery,
  studentEndpoints,
} from '@tay/contract';
import { type Column } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { useBusinessTime } from '../../../lib/business-time';
import { baseListQuery, oneOf, textParam, useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { partyListChrome } from '../../../components/parties/party-list-chrome';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadStudentsCsv, useInvalidateStudents, useStudentList } from '../api/students-api';
import { useStudentActions } from '../components/student-actions';

const STATUS_OPTIONS = StudentStatus.options.map((s) => ({ value: s, label: STUDENT_STATUS_LABELS[s] }));

export function StudentStatusBadge({ status }: { status: StudentStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {STUDENT_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * /business/entity/students — Manage Students: each student with their guardians and programs;
 * search, filters (grade, program, status), sort, pages and CSV export kept in the URL; add, import
 * and the row actions (Edit, Request to Pay, Enrollment, Transactions, Activate / Deactivate, Delete).
 */
export interface StudentsPageProps {
  /** The program filter's choices (the programs feature's list, composed in app/routes). */
  programs?: { value: string; label: string }[];
  /** The student's enrollments (the programs feature's drawer), opened by the row action Enrollment. */
  enrollments?: (props: { businessId: string; student: { studentId: string; name: string } | null; onClose: () => void }) => ReactNode;
}

export function StudentsPage({ programs = [], enrollments }: StudentsPageProps) {
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const access = useEndpointAccess(studentEndpoints.create);
  const params = useListParams();
  const [enrolling, setEnrolling] = useState<{ studentId: string; name: string } | null>(null);
  const invalidate = useInvalidateStudents();
  const { rowActions } = useStudentActions({ onEnrollment: (s) => setEnrolling({ studentId: s.studentId, name: s.name }) });

  const query: StudentListQuery = {
    ...baseListQuery(params, StudentSortBy.options, 'createdAt'),
    ...textParam(params, 'grade'),
    ...textParam(params, 'programId'),
    ...oneOf(params, 'status', StudentStatus.options),
  };
  const list = useStudentList(query);

  const gradeOptions = [...new Set([...(list.data?.grades ?? []), ...(query.grade ? [query.grade] : [])])];
  const programOptions = [
    ...programs,
    ...(query.programId && !programs.some((p) => p.value === query.programId) ? [{ value: query.programId, label: 'A program' }] : []),
  ];

  const columns: Column<Student>[] = [
    {
      key: 'name',
      header: 'Student',
      sortKey: 'name',
      render: (s) => <NameCell name={s.name} detail={s.dateOfBirth && `Born ${formatDay(s.dateOfBirth)}`} />,
    },
    { key: 'studentNumber', header: 'Student id', sortKey: 'studentNumber', render: (s) => s.studentNumber },
    { key: 'grade', header: 'Grade', sortKey: 'grade', render: (s) => s.grade || '—' },
    {
      key: 'guardians',
      header: 'Guardians',
      render: (s) => (
        <Stack gap={2}>
          {s.guardians.map((g) => (
            <div key={g.payerId}>
              <Text size="sm">{g.name}</Text>
              <Text size="xs" c="dimmed">
                {g.email}
              </Text>
            </div>
          ))}
        </Stack>
      ),
    },
    { key: 'programs', header: 'Programs', render: (s) => (s.programs.length > 0 ? s.programs.join(', ') : '—') },
    { key: 'status', header: 'Status', sortKey: 'status', render: (s) => <StudentStatusBadge status={s.status} /> },
    { key: 'created', header: 'Added', sortKey: 'createdAt', render: (s) => clock.date(s.createdAt) },
  ];

  const chrome = partyListChrome(PARTY_TEMPLATES.student, access.allowed, <>Your students and the guardians billed for them.</>);

  return (
    <EntityListPage
      title="Manage Students"
      description={chrome.description}
      actions={chrome.actions}
      access={access}
      params={params}
      query={query}
      list={list}
      filters={[
        { name: 'grade', label: 'Grade', placeholder: 'Any grade', data: gradeOptions, width: 160, searchable: true },
        { name: 'programId', label: 'Program', placeholder: 'Any program', data: programOptions, width: 200, searchable: true },
        { name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 },
      ]}
      caption={chrome.caption}
      columns={columns}
      rowKey={(s) => s.studentId}
      searchPlaceholder="Name, student id or guardian e-mail"
      rowActions={rowActions}
      download={(id) => downloadStudentsCsv(id, query)}
      noMatches={chrome.noMatches}
      empty={chrome.empty}
    >
      {businessId &&
        enrollments?.({
          businessId,
          student: enrolling,
          onClose: () => {
            setEnrolling(null);
            void invalidate();
          },
        })}
    </EntityListPage>
  );
}
