import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  formatDay,
  formatMoney,
  monthPeriod,
  parseMoney,
  paths,
  type FieldErrors,
  type ProgramBillingAdjustment,
  type ProgramBillingLine,
  type ProgramBillingPreview,
  type StudentBillTo,
  studentBillingEndpoints,
} from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { Figure } from '../../../components/ui/figure';
import { LoadError } from '../../../components/ui/load-error';
import { MoneyInput } from '../../../components/ui/money-input';
import { AccessAlert } from '../../../components/ui/access-alert';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useActivePrograms, useCreateProgramBilling, useProgramBillingPreview } from '../api/student-billing-api';
import { dayInDays } from '../../../lib/local-day';

/** What the person changed on a line of the preview: the amount as typed, or skipped. */
interface LineEdit {
  amount?: string;
  skip?: boolean;
}

const fieldOf = (fields: FieldErrors | undefined, ...keys: string[]) => keys.map((k) => fields?.[k]).find(Boolean) ?? null;

/**
 * /business/entity/program/billing — Program Billing and Payment: pick programs, a period (a month,
 * or dates with a name), the due date, memo and whom to bill; the preview shows each enrolled
 * student's amount (prorated where the program says so), already billed lines greyed with their
 * request; amounts can be changed and students skipped, then the batch goes to review
 * (paths.entity.programBillingReview), where it is submitted like any bulk batch.
 */
export function ProgramBillingPage() {
  useDocumentTitle('Program Billing and Payment');
  const navigate = useNavigate();
  const access = useEndpointAccess(studentBillingEndpoints.programBilling);
  const programs = useActivePrograms();
  const previewCall = useProgramBillingPreview();
  const create = useCreateProgramBilling();

  const [programIds, setProgramIds] = useState<string[]>([]);
  const [periodMode, setPeriodMode] = useState<'month' | 'custom'>('month');
  const [month, setMonth] = useState(() => dayInDays(0).slice(0, 7));
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [label, setLabel] = useState('');
  const [dueDate, setDueDate] = useState(() => dayInDays(14));
  const [memo, setMemo] = useState('');
  const [billTo, setBillTo] = useState<StudentBillTo>('guardian');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<ProgramBillingPreview | null>(null);
  /** The programs the preview shows: the batch bills exactly what was previewed. */
  const [previewed, setPreviewed] = useState<string[]>([]);
  const [edits, setEdits] = useState<Record<string, LineEdit>>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);

  const periodBody = () =>
    periodMode === 'month' ? { month } : { period: { start, end, label: label.trim() || (start && end ? `${formatDay(start)} – ${formatDay(end)}` : '') } };

  const showError = (error: unknown) => {
    if (error instanceof ApiError) {
      setErrors(error.fields ?? {});
      setProblem(error.message);
    } else setProblem('Something went wrong. Try again.');
  };

  const runPreview = async () => {
    const local: FieldErrors = {};
    if (programIds.length === 0) local.programIds = 'Choose at least one program.';
    if (periodMode === 'month' && !month) local.month = 'Choose a month.';
    if (periodMode === 'custom') {
      if (!start) local['period.start'] = 'Enter the first day of the period.';
      if (!end) local['period.end'] = 'Enter the last day of the period.';
      else if (start && end < start) local['period.end'] = 'The last day cannot be before the first day.';
    }
    if (!dueDate) local.dueDate = 'Enter the due date.';
    setErrors(local);
    setProblem(null);
    if (Object.keys(local).length > 0) return;
    try {
      const data = await previewCall.mutateAsync({ programIds, dueDate, ...periodBody() });
      setPreview(data);
      setPreviewed(programIds);
      setEdits({});
      setPage(1);
    } catch (error) {
      setPreview(null);
      showError(error);
    }
  };

  const lines = useMemo(() => preview?.lines ?? [], [preview]);
  const amountOf = (l: ProgramBillingLine): number | null => {
    const typed = edits[l.enrollmentId]?.amount;
    return typed === undefined ? l.amountCents : parseMoney(typed);
  };
  const billable = (l: ProgramBillingLine) => !l.alreadyBilled && !edits[l.enrollmentId]?.skip;
  const included = lines.filter(billable);
  const badAmounts = included.filter((l) => {
    const a = amountOf(l);
    return a === null || a <= 0;
  });
  const totalCents = included.reduce((sum, l) => sum + (amountOf(l) ?? 0), 0);
  const edit = (enrollmentId: string, change: LineEdit) => setEdits((all) => ({ ...all, [enrollmentId]: { ...all[enrollmentId], ...change } }));

  const submit = async () => {
    if (!preview) return;
    if (badAmounts.length > 0) {
      setProblem(`Enter an amount above $0.00 for ${badAmounts[0]!.student.name}, or skip the student.`);
      return;
    }
    const adjustments = lines.flatMap((l): ProgramBillingAdjustment[] => {
      const e = edits[l.enrollmentId];
      if (l.alreadyBilled || !e) return [];
      if (e.skip) return [{ enrollmentId: l.enrollmentId, skip: true }];
      const amount = amountOf(l);
      return amount !== null && amount !== l.amountCents ? [{ enrollmentId: l.enrollmentId, amountCents: amount }] : [];
    });
    const body = {
      programIds: previewed,
      period: preview.period,
      dueDate,
      billTo,
      adjustments,
      ...(memo.trim() ? { memo: memo.trim() } : {}),
    };
    setProblem(null);
    try {
      const made = await create.mutateAsync(body);
      notifications.show({
        color: 'teal',
        title: 'Batch ready for review',
        message: `${made.rows.toLocaleString('en-US')} ${made.rows === 1 ? 'request' : 'requests'} for ${formatMoney(made.totalCents)}${made.invalid > 0 ? `; ${made.invalid} to fix` : ''}.`,
      });
      await navigate(`${paths.entity.programBillingReview}?batchId=${encodeURIComponent(made.batchId)}`);
    } catch (error) {
      showError(error);
    }
  };

  const columns: Column<ProgramBillingLine>[] = [
    {
      key: 'student',
      header: 'Student',
      render: (l) => (
        <NameCell
          name={l.student.name}
          detail={`${l.student.studentNumber}${l.student.grade ? ` · ${l.student.grade}` : ''}`}
          {...(l.alreadyBilled ? { style: { opacity: 0.55 } } : {})}
        />
      ),
    },
    {
      key: 'guardian',
      header: 'Guardian',
      render: (l) =>
        l.guardian ? (
          <Stack gap={0} style={l.alreadyBilled ? { opacity: 0.55 } : undefined}>
            <Text size="sm">{l.guardian.name}</Text>
            <Text size="xs" c="dimmed">
              {l.guardian.email}
              {billTo === 'both' && l.secondGuardian ? ` + ${l.secondGuardian.name}` : ''}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ),
    },
    { key: 'program', header: 'Program', render: (l) => <Text size="sm">{l.program.name}</Text> },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      render: (l) => {
        if (l.alreadyBilled) {
          return (
            <Stack gap={2} align="flex-end" style={{ opacity: 0.55 }}>
              <Badge color="gray" variant="light">
                Billed already
              </Badge>
              <Anchor component={Link} size="xs" to={`${paths.payments.history}?transid=${encodeURIComponent(l.alreadyBilled.requestId)}`}>
                {l.alreadyBilled.referenceNumber || 'Open the request'}
              </Anchor>
            </Stack>
          );
        }
        const skipped = Boolean(edits[l.enrollmentId]?.skip);
        const typed = edits[l.enrollmentId]?.amount;
        const amount = amountOf(l);
        return (
          <Stack gap={2} align="flex-end">
            <MoneyInput
              aria-label={`Amount for ${l.student.name}, ${l.program.name}`}
              w={130}
              size="xs"
              disabled={skipped || !access.allowed}
              value={typed ?? (l.amountCents / 100).toFixed(2)}
              onValueChange={(v) => edit(l.enrollmentId, { amount: v })}
              error={!skipped && (amount === null || amount <= 0) ? 'Enter an amount above $0.00.' : undefined}
            />
            {l.prorated && (
              <Text size="xs" c="dimmed">
                Prorated: {l.days} of {l.periodDays} days of {formatMoney(l.program.feeCents)}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'skip',
      header: 'Skip',
      align: 'center',
      render: (l) =>
        l.alreadyBilled ? null : (
          <Stack gap={2} align="center">
            <Switch
              aria-label={`Skip ${l.student.name}, ${l.program.name}`}
              checked={Boolean(edits[l.enrollmentId]?.skip)}
              disabled={!access.allowed}
              onChange={(e) => edit(l.enrollmentId, { skip: e.currentTarget.checked })}
            />
            {l.problem && (
              <Text size="xs" c="red" maw={200}>
                {l.problem}
              </Text>
            )}
          </Stack>
        ),
    },
  ];

  const programOptions = (programs.data?.items ?? []).map((p) => ({ value: p.programId, label: `${p.name} (${formatMoney(p.feeCents)})` }));
  const monthLabel = month ? monthPeriod(`${month}-01`).label : '';
  const billedCount = lines.filter((l) => l.alreadyBilled).length;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1}>Program Billing and Payment</Title>
          <Text c="dimmed">Bill every student enrolled in your programs for a period: preview who pays what, adjust or skip, then review and send.</Text>
        </div>
        <Button variant="default" component={Link} to={paths.entity.bulkStudents}>
          Request to Pay Multiple Students
        </Button>
      </Group>
      <AccessAlert access={access} />
      {programs.isError && <LoadError title="Your programs could not be loaded" error={programs.error} onRetry={() => void programs.refetch()} />}

      <Paper withBorder p="md" component="form" onSubmit={(e) => (e.preventDefault(), void runPreview())} aria-label="What to bill">
        <Stack gap="md">
          <Checkbox.Group label="Programs" value={programIds} onChange={setProgramIds} error={fieldOf(errors, 'programIds')} withAsterisk>
            {programs.isLoading ? (
              <Text size="sm" c="dimmed" mt={6}>
                Loading programs…
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt={6} spacing="xs">
                {programOptions.map((o) => (
                  <Checkbox key={o.value} value={o.value} label={o.label} />
                ))}
              </SimpleGrid>
            )}
          </Checkbox.Group>
          {programs.data && programs.data.items.length === 0 && (
            <Alert color="blue" title="No active programs yet">
              <Anchor component={Link} to={paths.entity.programManage} underline="always">
                Create a program
              </Anchor>{' '}
              and enroll students in it first.
            </Alert>
          )}
          <Stack gap={6}>
            <Text size="sm" fw={500} id="period-mode">
              Period
            </Text>
            <SegmentedControl
              aria-labelledby="period-mode"
              value={periodMode}
              onChange={(v) => setPeriodMode(v as 'month' | 'custom')}
              data={[
                { value: 'month', label: 'A month' },
                { value: 'custom', label: 'Custom dates' },
              ]}
              w="fit-content"
            />
            {periodMode === 'month' ? (
              <TextInput
                type="month"
                label="Month"
                value={month}
                onChange={(e) => setMonth(e.currentTarget.value)}
                description={monthLabel ? `Bills ${monthLabel}` : undefined}
                error={fieldOf(errors, 'month', 'period')}
                maw={260}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  type="date"
                  label="First day"
                  value={start}
                  onChange={(e) => setStart(e.currentTarget.value)}
                  error={fieldOf(errors, 'period.start', 'period')}
                />
                <TextInput type="date" label="Last day" value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={fieldOf(errors, 'period.end')} />
                <TextInput
                  label="Name of the period"
                  placeholder="Term 1 2026–27"
                  value={label}
                  onChange={(e) => setLabel(e.currentTarget.value)}
                  error={fieldOf(errors, 'period.label')}
                  maxLength={100}
                />
              </SimpleGrid>
            )}
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="date"
              label="Due date"
              value={dueDate}
              onChange={(e) => setDueDate(e.currentTarget.value)}
              error={fieldOf(errors, 'dueDate')}
              withAsterisk
            />
            <Radio.Group label="Bill" value={billTo} onChange={(v) => setBillTo(v as StudentBillTo)} error={fieldOf(errors, 'billTo')}>
              <Group mt={6}>
                <Radio value="guardian" label="The first guardian" />
                <Radio value="both" label="Both guardians (where there are two)" />
              </Group>
            </Radio.Group>
          </SimpleGrid>
          <Textarea
            label="Memo"
            description="Shown to the guardian. Blank: the program and the period, like “Piano, December 2026”."
            value={memo}
            onChange={(e) => setMemo(e.currentTarget.value)}
            maxLength={500}
            autosize
            minRows={2}
            error={fieldOf(errors, 'memo')}
          />
          {problem && (
            <Alert color="red" title="Not done" role="alert">
              {problem}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={previewCall.isPending}>
              Preview
            </Button>
          </Group>
        </Stack>
      </Paper>

      {preview && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Figure label="Students to bill" value={included.length.toLocaleString('en-US')} hint={preview.period.label} />
            <Figure label="Total to request" value={formatMoney(totalCents)} />
            <Figure label="Billed already" value={billedCount.toLocaleString('en-US')} hint={billedCount > 0 ? 'Greyed: not billed again' : undefined} />
          </SimpleGrid>
          <DataTable
            caption={`Who will be billed for ${preview.period.label}`}
            columns={columns}
            rows={lines.slice((page - 1) * pageSize, page * pageSize)}
            rowKey={(l) => l.enrollmentId}
            total={lines.length}
            page={page}
            pageSize={pageSize}
            onPageChange={setPage}
            onPageSizeChange={(size) => (setPageSize(size), setPage(1))}
            empty={{
              title: 'No one to bill',
              description: `No student has an active enrollment in ${previewed.length === 1 ? 'this program' : 'these programs'} during ${preview.period.label}.`,
            }}
          />
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={create.isPending} disabled={!access.allowed || included.length === 0}>
              Create batch for review
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
