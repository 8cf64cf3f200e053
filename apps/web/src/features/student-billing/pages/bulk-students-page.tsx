import { Alert, Button, Checkbox, Group, Paper, Radio, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconHistory, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  formatMoney,
  monthPeriod,
  parseMoney,
  paths,
  type BillableStudent,
  type FieldErrors,
  type StudentBillTo,
  studentBillingEndpoints,
} from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { ClearFiltersButton } from '../../../components/ui/list-filters';
import { MoneyInput } from '../../../components/ui/money-input';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useBillableStudents, useCreateStudentBilling } from '../api/student-billing-api';
import { dayInDays } from '../../../lib/local-day';
import { downloadBatchTemplate } from '../../../lib/batch-template';

const fieldOf = (fields: FieldErrors, ...names: string[]) => names.map((k) => fields[k]).find(Boolean) ?? null;

/**
 * /business/entity/billing/bulkstudents — Request to Pay Multiple Students: pick students by grade,
 * program or search (checkboxes; "select all matching"), one amount, memo, due date and whom to
 * bill; the batch waits in review (paths.entity.bulkStudentsReview). Or upload a CSV file through
 * the bulk upload → map → review pages of the same kind.
 */
export function BulkStudentsPage() {
  useDocumentTitle('Request to Pay Multiple Students');
  const navigate = useNavigate();
  const access = useEndpointAccess(studentBillingEndpoints.create);
  const [grade, setGrade] = useState<string | null>(null);
  const [programFilter, setProgramFilter] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const students = useBillableStudents({ ...(grade ? { grade } : {}), ...(programFilter ? { programId: programFilter } : {}), ...(search ? { search } : {}) });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);

  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [dueDate, setDueDate] = useState(() => dayInDays(14));
  const [billTo, setBillTo] = useState<StudentBillTo>('guardian');
  const [programId, setProgramId] = useState<string | null>(null);
  const [month, setMonth] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateStudentBilling();

  const items = students.data?.items ?? [];
  const matchingSelected = items.filter((s) => selected.has(s.studentId)).length;
  const allMatchingSelected = items.length > 0 && matchingSelected === items.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const selectAllMatching = () => setSelected((current) => new Set([...current, ...items.map((s) => s.studentId)]));
  const filtered = Boolean(grade || programFilter || search);

  const columns: Column<BillableStudent>[] = [
    {
      key: 'pick',
      header: 'Pick',
      width: 56,
      render: (s) => (
        <Checkbox aria-label={`Pick ${s.name}`} checked={selected.has(s.studentId)} onChange={(e) => toggle(s.studentId, e.currentTarget.checked)} />
      ),
    },
    {
      key: 'student',
      header: 'Student',
      render: (s) => <NameCell name={s.name} detail={s.studentNumber} />,
    },
    { key: 'grade', header: 'Grade', render: (s) => s.grade || '—' },
    { key: 'programs', header: 'Programs', render: (s) => s.programs.map((p) => p.name).join(', ') || '—' },
    {
      key: 'guardians',
      header: 'Guardians',
      render: (s) =>
        s.guardians.length === 0 ? (
          <Text size="sm" c="red">
            No guardian
          </Text>
        ) : (
          s.guardians.map((g) => g.name).join(', ')
        ),
    },
  ];

  const submit = async () => {
    const local: FieldErrors = {};
    const cents = parseMoney(amount);
    if (selected.size === 0) local.studentIds = 'Pick at least one student.';
    if (amount.trim() === '') local.amountCents = 'Enter an amount.';
    else if (cents === null) local.amountCents = `"${amount}" is not an amount. Write it like 125.50.`;
    else if (cents <= 0) local.amountCents = 'Enter an amount above $0.00.';
    if (!memo.trim()) local.memo = 'Enter what the request is for.';
    if (!dueDate) local.dueDate = 'Enter the due date.';
    setErrors(local);
    setProblem(local.studentIds ?? null);
    if (Object.keys(local).length > 0) return;
    const body = {
      studentIds: [...selected],
      amountCents: cents!,
      memo: memo.trim(),
      dueDate,
      billTo,
      ...(programId ? { programId } : {}),
      ...(month ? { month } : {}),
    };
    try {
      const made = await create.mutateAsync(body);
      notifications.show({
        color: 'teal',
        title: 'Batch ready for review',
        message: `${made.rows.toLocaleString('en-US')} ${made.rows === 1 ? 'request' : 'requests'} for ${formatMoney(made.totalCents)}${made.invalid > 0 ? `; ${made.invalid} to fix` : ''}.`,
      });
      await navigate(`${paths.entity.bulkStudentsReview}?batchId=${encodeURIComponent(made.batchId)}`);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.fields ?? {});
        setProblem(error.message);
      } else setProblem('Something went wrong. Try again.');
    }
  };

  const gradeOptions = (students.data?.grades ?? []).map((g) => ({ value: g, label: g }));
  const programOptions = (students.data?.programs ?? []).map((p) => ({ value: p.programId, label: p.name }));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1}>Request to Pay Multiple Students</Title>
          <Text c="dimmed">Pick students by grade or program and request the same amount from each one&apos;s guardian, or upload a CSV file.</Text>
        </div>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => downloadBatchTemplate('student-billing')}>
            Download the template
          </Button>
          <Button variant="default" component={Link} to={paths.entity.bulkStudentsHistory} leftSection={<IconHistory size={16} />}>
            Past batches
          </Button>
          {access.allowed && (
            <Button component={Link} to={paths.entity.bulkStudentsUpload} leftSection={<IconUpload size={16} />}>
              Upload a CSV
            </Button>
          )}
        </Group>
      </Group>
      <AccessAlert access={access} />

      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" aria-live="polite">
            {selected.size.toLocaleString('en-US')} {selected.size === 1 ? 'student' : 'students'} picked
            {filtered && items.length > 0 ? ` (${matchingSelected} of the ${items.length} matching)` : ''}
          </Text>
          <Group gap="xs">
            <Button variant="light" size="xs" onClick={selectAllMatching} disabled={items.length === 0 || allMatchingSelected}>
              Select all {items.length.toLocaleString('en-US')} matching
            </Button>
            <Button variant="subtle" size="xs" onClick={() => setSelected(new Set())} disabled={selected.size === 0}>
              Clear selection
            </Button>
          </Group>
        </Group>
        <DataTable
          caption="Students to pick from"
          columns={columns}
          rows={items.slice((page - 1) * pageSize, page * pageSize)}
          rowKey={(s) => s.studentId}
          total={items.length}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={(size) => (setPageSize(size), setPage(1))}
          search={search}
          onSearchChange={(v) => (setSearch(v), setPage(1))}
          searchPlaceholder="Search by name or student id"
          filters={
            <>
              <Select label="Grade" placeholder="Any grade" data={gradeOptions} value={grade} onChange={(v) => (setGrade(v), setPage(1))} clearable w={160} />
              <Select
                label="Program"
                placeholder="Any program"
                data={programOptions}
                value={programFilter}
                onChange={(v) => (setProgramFilter(v), setPage(1))}
                clearable
                searchable
                w={200}
              />
              {filtered && <ClearFiltersButton onClick={() => (setGrade(null), setProgramFilter(null), setSearch(''), setPage(1))} />}
            </>
          }
          loading={students.isFetching && !students.data}
          error={students.error}
          onRetry={() => void students.refetch()}
          empty={
            filtered
              ? { title: 'No students match', description: 'No active student has this grade, program or name. Clear the filters to see every student.' }
              : {
                  title: 'No active students yet',
                  description: 'Add or import students with their guardians first.',
                  action: (
                    <Button component={Link} to={paths.entity.students} variant="light">
                      Manage Students
                    </Button>
                  ),
                }
          }
        />
      </Stack>

      <Paper withBorder p="md" component="form" onSubmit={(e) => (e.preventDefault(), void submit())} aria-label="The request">
        <Stack gap="md">
          <Title order={2} size="h4">
            The request
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput label="Amount" value={amount} onValueChange={setAmount} error={fieldOf(errors, 'amountCents')} withAsterisk />
            <TextInput
              type="date"
              label="Due date"
              value={dueDate}
              onChange={(e) => setDueDate(e.currentTarget.value)}
              error={fieldOf(errors, 'dueDate')}
              withAsterisk
            />
          </SimpleGrid>
          <Textarea
            label="Memo"
            description="What it is for; shown to the guardian."
            value={memo}
            onChange={(e) => setMemo(e.currentTarget.value)}
            maxLength={500}
            autosize
            minRows={2}
            error={fieldOf(errors, 'memo')}
            withAsterisk
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Program (optional)"
              description="Bills each student's enrollment in it for the month once."
              data={programOptions}
              value={programId}
              onChange={setProgramId}
              clearable
              searchable
              error={fieldOf(errors, 'programId')}
            />
            <TextInput
              type="month"
              label="Month (optional)"
              value={month}
              onChange={(e) => setMonth(e.currentTarget.value)}
              description={month ? `For ${monthPeriod(`${month}-01`).label}` : 'The period the request is for.'}
              error={fieldOf(errors, 'month', 'period')}
            />
          </SimpleGrid>
          <Radio.Group label="Bill" value={billTo} onChange={(v) => setBillTo(v as StudentBillTo)} error={fieldOf(errors, 'billTo')}>
            <Group mt={6}>
              <Radio value="guardian" label="The first guardian" />
              <Radio value="both" label="Both guardians" />
            </Group>
          </Radio.Group>
          {problem && (
            <Alert color="red" title="Not done" role="alert">
              {problem}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} disabled={!access.allowed}>
              Create batch for review
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
