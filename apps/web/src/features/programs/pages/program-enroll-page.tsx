import { Alert, Badge, Button, Checkbox, Group, List, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  MAX_ENROLL_STUDENTS,
  paths,
  PROGRAM_FREQUENCY_LABELS,
  type EnrollCandidate,
  type EnrollCandidateQuery,
  type Program,
  programEndpoints,
} from '@tay/contract';
import { BackLink } from '../../../components/ui/form-page';
import { NameCell } from '../../../components/ui/name-cell';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { ClearFiltersButton, noMatches } from '../../../components/ui/list-filters';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { useListParams, listTableProps } from '../../../lib/list-params';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useEnroll, useEnrollCandidates, useProgram } from '../api/programs-api';
import { programEnrollHref, programStudentsHref } from '../components/program-actions';
import { ProgramPicker } from '../components/program-picker';
import { localToday } from '../../../lib/local-day';

const SORTS = ['name', 'studentNumber', 'grade'] as const;

/** Whether a student can be picked: active and not enrolled in the program now. */
const pickable = (c: EnrollCandidate) => c.status === 'active' && !c.enrolled;

/**
 * /business/entity/program/students/enroll?programId= — enroll many students at once: pick them
 * in a table (search, grade filter, "select all on this page"; the picks are kept across pages),
 * a start date, Enroll. All or none: each refused student is named.
 */
export function ProgramEnrollPage() {
  const [params] = useSearchParams();
  const programId = params.get('programId') ?? '';
  const program = useProgram(programId || null);
  useDocumentTitle(program.data ? `Enroll in ${program.data.name}` : 'Enroll students');
  if (!programId) {
    return <ProgramPicker title="Enroll students" description="Choose the program to enroll students in." hrefFor={programEnrollHref} activeOnly />;
  }
  if (program.error) return <LoadError title="We could not load this program" error={program.error} onRetry={() => void program.refetch()} />;
  if (!program.data) return <PageLoader />;
  return <EnrollForm program={program.data} />;
}

function EnrollForm({ program }: { program: Program }) {
  const navigate = useNavigate();
  const access = useEndpointAccess(programEndpoints.enroll);
  const { get, update, page, pageSize } = useListParams();
  const [selected, setSelected] = useState<Map<string, EnrollCandidate>>(new Map());
  const [startDate, setStartDate] = useState(() => {
    const today = localToday();
    return today < program.startDate ? program.startDate : today;
  });
  const [dateError, setDateError] = useState<string | undefined>();
  const [problems, setProblems] = useState<{ message: string; students: Map<string, string> } | null>(null);
  const enroll = useEnroll(program.programId);

  const sortBy = get('sortBy');
  const query: EnrollCandidateQuery = {
    page,
    pageSize,
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as (typeof SORTS)[number]) : 'name',
    sortDirection: get('sortDirection') === 'desc' ? 'desc' : 'asc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(get('grade') ? { grade: get('grade') } : {}),
  };
  const candidates = useEnrollCandidates(program.programId, query);
  const rows = candidates.data?.items ?? [];
  const onPage = rows.filter(pickable);
  const allOnPage = onPage.length > 0 && onPage.every((c) => selected.has(c.studentId));
  const someOnPage = onPage.some((c) => selected.has(c.studentId));
  const filtered = Boolean(query.search || query.grade);
  const clearFilters = () => update({ search: undefined, grade: undefined });
  const over = program.placesLeft !== null && selected.size > program.placesLeft;
  const closed = program.status !== 'active';

  const toggle = (c: EnrollCandidate, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(c.studentId, c);
      else next.delete(c.studentId);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const c of onPage) {
        if (on) next.set(c.studentId, c);
        else next.delete(c.studentId);
      }
      return next;
    });

  const submit = () => {
    setProblems(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate)) return setDateError('Enter the start date.');
    const ids = [...selected.keys()];
    enroll.mutate(
      { studentIds: ids, startDate },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'teal',
            title: 'Students enrolled',
            message: `${result.enrolled} ${result.enrolled === 1 ? 'student is' : 'students are'} enrolled in ${program.name} from ${formatDay(startDate)}.`,
          });
          void navigate(programStudentsHref(program.programId));
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields?.startDate) return setDateError(error.fields.startDate);
          const students = new Map<string, string>();
          for (const [field, message] of Object.entries(error instanceof ApiError ? (error.fields ?? {}) : {})) {
            const index = /^studentIds\.(\d+)$/.exec(field)?.[1];
            if (index !== undefined && ids[Number(index)]) students.set(ids[Number(index)]!, message);
          }
          setProblems({ message: error.message, students });
        },
      },
    );
  };

  const columns: Column<EnrollCandidate>[] = [
    {
      key: 'pick',
      header: 'Select',
      render: (c) => (
        <Checkbox
          aria-label={`Select ${c.name}`}
          checked={selected.has(c.studentId)}
          disabled={!pickable(c) || !access.allowed}
          onChange={(e) => toggle(c, e.currentTarget.checked)}
        />
      ),
    },
    { key: 'studentNumber', header: 'Student id', sortKey: 'studentNumber', render: (c) => c.studentNumber },
    {
      key: 'name',
      header: 'Student',
      sortKey: 'name',
      render: (c) => <NameCell name={c.name} detail={problems?.students.get(c.studentId)} tone="red" />,
    },
    { key: 'grade', header: 'Grade', sortKey: 'grade', render: (c) => c.grade || '—' },
    { key: 'guardian', header: 'Guardian', render: (c) => c.guardian?.name ?? '—' },
    {
      key: 'state',
      header: 'Status',
      render: (c) =>
        c.enrolled ? (
          <Badge color="blue" variant="light">
            Enrolled
          </Badge>
        ) : c.status === 'Disabled' ? (
          <Badge color="gray" variant="light">
            Disabled
          </Badge>
        ) : (
          <Badge color="teal" variant="light">
            Active
          </Badge>
        ),
    },
  ];

  return (
    <Stack gap="md">
      <div>
        <BackLink to={programStudentsHref(program.programId)} label={`${program.name} students`} />
        <Title order={1}>Enroll in {program.name}</Title>
        <Text c="dimmed" size="sm">
          {formatMoney(program.feeCents)} {PROGRAM_FREQUENCY_LABELS[program.frequency].toLowerCase()} · {formatDay(program.startDate)} –{' '}
          {program.endDate ? formatDay(program.endDate) : 'no end'}
        </Text>
      </div>
      <AccessAlert access={access} />
      {closed && (
        <Alert color="yellow" title={`${program.name} is disabled`}>
          A disabled program takes no enrollments. Activate it from the programs list first.
        </Alert>
      )}
      <Paper withBorder p="md">
        <Group align="flex-end" wrap="wrap" gap="md">
          <TextInput
            label="Start date"
            type="date"
            required
            min={program.startDate}
            {...(program.endDate ? { max: program.endDate } : {})}
            value={startDate}
            error={dateError}
            onChange={(e) => {
              setStartDate(e.currentTarget.value);
              setDateError(undefined);
            }}
          />
          <div>
            <Text size="sm" fw={500} aria-live="polite">
              {selected.size} {selected.size === 1 ? 'student' : 'students'} selected
            </Text>
            <Text size="sm" c={over ? 'red' : 'dimmed'}>
              {program.placesLeft === null ? 'No limit on places' : `${program.placesLeft} ${program.placesLeft === 1 ? 'place' : 'places'} left`}
            </Text>
          </div>
          <Button
            onClick={submit}
            loading={enroll.isPending}
            disabled={!access.allowed || closed || selected.size === 0 || selected.size > MAX_ENROLL_STUDENTS || over}
          >
            {selected.size > 0 ? `Enroll ${selected.size} ${selected.size === 1 ? 'student' : 'students'}` : 'Enroll'}
          </Button>
          {selected.size > 0 && (
            <Button variant="subtle" onClick={() => setSelected(new Map())}>
              Clear selection
            </Button>
          )}
        </Group>
        {over && (
          <Text size="sm" c="red" mt="xs">
            {program.name} has {program.placesLeft} {program.placesLeft === 1 ? 'place' : 'places'} left; {selected.size} students are selected.
          </Text>
        )}
      </Paper>
      {problems && (
        <Alert color="red" title="Nobody was enrolled" role="alert">
          {problems.students.size > 0 ? (
            <List size="sm">
              {[...problems.students.entries()].map(([id, message]) => (
                <List.Item key={id}>{message}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm">{problems.message}</Text>
          )}
        </Alert>
      )}
      <Checkbox
        label="Select all on this page"
        checked={allOnPage}
        indeterminate={someOnPage && !allOnPage}
        disabled={onPage.length === 0 || !access.allowed}
        onChange={(e) => togglePage(e.currentTarget.checked)}
      />
      <DataTable
        caption="Students to enroll"
        columns={columns}
        {...listTableProps(candidates, query, { update, page, pageSize }, { sortBy: 'name', sortDirection: 'asc' })}
        rowKey={(c) => c.studentId}
        searchPlaceholder="Name, student id or grade"
        filters={
          <>
            <Select
              label="Grade"
              placeholder="Any grade"
              data={candidates.data?.grades ?? []}
              value={query.grade ?? null}
              onChange={(value) => update({ grade: value })}
              clearable
              w={160}
            />
            {filtered && <ClearFiltersButton onClick={clearFilters} />}
          </>
        }
        empty={
          filtered
            ? noMatches('No students match', 'Nothing matches the search and grade you chose. Clear them to see every student.', clearFilters)
            : {
                title: 'No students yet',
                description: 'Add or import your students first; then enroll them here.',
                action: (
                  <Button component={Link} to={paths.entity.students} variant="light">
                    Manage students
                  </Button>
                ),
              }
        }
      />
    </Stack>
  );
}
