import { Button, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  ENROLLMENT_STATUS_LABELS,
  EnrollmentStatus,
  formatDay,
  formatMoney,
  paths,
  PROGRAM_FREQUENCY_LABELS,
  type Enrollment,
  type EnrollmentListQuery,
  programEndpoints,
} from '@tay/contract';
import { type Column, type RowAction } from '../../../components/ui/data-table';
import { EntityListPage } from '../../../components/ui/entity-list-page';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useListParams } from '../../../lib/list-params';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadEnrollmentsCsv, useEnrollmentList, useProgram } from '../api/programs-api';
import { enrolledOfCapacity, EnrollmentStatusBadge, programEnrollHref, ProgramStatusBadge, programStudentsHref } from '../components/program-actions';
import { ProgramPicker } from '../components/program-picker';
import { WithdrawModal } from '../components/withdraw-modal';

const SORTS = ['name', 'studentNumber', 'grade', 'startDate', 'createdAt'] as const;
const STATUS_OPTIONS = EnrollmentStatus.options.map((s) => ({ value: s, label: ENROLLMENT_STATUS_LABELS[s] }));

/**
 * /business/entity/program/students/list?programId= — the students of a program: student id,
 * name, grade, guardian, start and end, status; search, status filter, sort, pages and CSV;
 * Withdraw asks for the end date first.
 */
export function ProgramStudentsPage() {
  const [params] = useSearchParams();
  const programId = params.get('programId') ?? '';
  const program = useProgram(programId || null);
  useDocumentTitle(program.data ? `${program.data.name} students` : 'Program students');
  const navigate = useNavigate();
  const access = useEndpointAccess(programEndpoints.create);
  const listParams = useListParams();
  const { get, page, pageSize } = listParams;
  const [withdrawing, setWithdrawing] = useState<Enrollment | null>(null);

  const sortBy = get('sortBy');
  const status = get('status');
  const query: EnrollmentListQuery = {
    page,
    pageSize,
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as (typeof SORTS)[number]) : 'name',
    sortDirection: get('sortDirection') === 'desc' ? 'desc' : 'asc',
    ...(get('search') ? { search: get('search') } : {}),
    ...((EnrollmentStatus.options as readonly string[]).includes(status ?? '') ? { status: status as EnrollmentStatus } : {}),
  };
  const list = useEnrollmentList(programId, query);

  if (!programId) {
    return <ProgramPicker title="Program students" description="Choose a program to see its students." hrefFor={programStudentsHref} />;
  }
  if (program.error) return <LoadError title="We could not load this program" error={program.error} onRetry={() => void program.refetch()} />;
  if (!program.data) return <PageLoader />;
  const p = program.data;

  const columns: Column<Enrollment>[] = [
    { key: 'studentNumber', header: 'Student id', sortKey: 'studentNumber', render: (e) => e.studentNumber },
    {
      key: 'name',
      header: 'Student',
      sortKey: 'name',
      render: (e) => (
        <Text size="sm" fw={500}>
          {e.studentName}
        </Text>
      ),
    },
    { key: 'grade', header: 'Grade', sortKey: 'grade', render: (e) => e.grade || '—' },
    {
      key: 'guardian',
      header: 'Guardian',
      render: (e) =>
        e.guardian ? (
          <div>
            <Text size="sm">{e.guardian.name}</Text>
            <Text size="xs" c="dimmed">
              {e.guardian.email}
            </Text>
          </div>
        ) : (
          '—'
        ),
    },
    { key: 'start', header: 'Start', sortKey: 'startDate', render: (e) => formatDay(e.startDate) },
    { key: 'end', header: 'End', render: (e) => (e.endDate ? formatDay(e.endDate) : '—') },
    { key: 'status', header: 'Status', render: (e) => <EnrollmentStatusBadge status={e.status} /> },
  ];

  const actions = (e: Enrollment): RowAction<Enrollment>[] =>
    access.allowed && e.status === 'active' ? [{ label: 'Withdraw', color: 'red', onClick: (row) => setWithdrawing(row) }] : [];

  const enrollButton = (
    <Button
      leftSection={<IconUserPlus size={16} />}
      onClick={() => void navigate(programEnrollHref(p.programId))}
      disabled={!access.allowed || p.status !== 'active' || p.placesLeft === 0}
    >
      Enroll students
    </Button>
  );

  return (
    <EntityListPage
      title={p.name}
      documentTitle={`${p.name} students`}
      back={{ to: paths.entity.programs, label: 'Programs' }}
      titleAside={<ProgramStatusBadge status={p.status} />}
      description={
        <>
          {formatMoney(p.feeCents)} {PROGRAM_FREQUENCY_LABELS[p.frequency].toLowerCase()} · {formatDay(p.startDate)} –{' '}
          {p.endDate ? formatDay(p.endDate) : 'no end'} · Enrolled {enrolledOfCapacity(p)}
          {p.placesLeft !== null ? ` · ${p.placesLeft} ${p.placesLeft === 1 ? 'place' : 'places'} left` : ''}
        </>
      }
      actions={enrollButton}
      access={access}
      params={listParams}
      query={query}
      defaultSort={{ sortBy: 'name', sortDirection: 'asc' }}
      list={list}
      filters={[{ name: 'status', label: 'Status', placeholder: 'Any status', data: STATUS_OPTIONS, width: 160 }]}
      caption={`Students of ${p.name}`}
      columns={columns}
      rowKey={(e) => e.enrollmentId}
      searchPlaceholder="Name, student id, grade or guardian e-mail"
      rowActions={actions}
      download={(id) => downloadEnrollmentsCsv(id, p.programId, query)}
      noMatches={{
        title: 'No students match',
        description: 'Nothing matches the search and filters you chose. Clear them to see every student of the program.',
      }}
      empty={{
        title: 'Nobody is enrolled yet',
        description: `Enroll students in ${p.name}; each active enrollment is billed every period.`,
        action: access.allowed && p.status === 'active' ? enrollButton : undefined,
      }}
    >
      <WithdrawModal enrollment={withdrawing} onClose={() => setWithdrawing(null)} />
    </EntityListPage>
  );
}
