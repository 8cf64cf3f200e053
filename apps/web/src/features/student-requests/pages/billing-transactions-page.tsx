import { Box, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { getHref, monthPeriod, paths, type PaymentRequest, paymentRequestEndpoints } from '@tay/contract';
import type { ReactNode } from 'react';
import type { Column } from '../../../components/ui/data-table';
import { AccessAlert } from '../../../components/ui/access-alert';
import { paymentsHeading } from '../../../lib/template';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useProgramOptions, useStudentDetail } from '../api/student-requests-api';
import { StudentPicker } from '../components/student-picker';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "December 2026" → "2026-12" (the month input's value); null for a label that is not a month. */
export function monthOfLabel(label: string): string | null {
  const match = /^([A-Z][a-z]+) (\d{4})$/.exec(label);
  const index = match ? MONTHS.indexOf(match[1]!) : -1;
  return index < 0 ? null : `${match![2]}-${String(index + 1).padStart(2, '0')}`;
}

/** The billing history's columns: whom each request is for, the program and the period. */
export const STUDENT_COLUMNS: Column<PaymentRequest>[] = [
  { key: 'student', header: 'Student', render: (r) => r.student?.name ?? '—' },
  { key: 'program', header: 'Program', render: (r) => r.program?.name ?? '—' },
  { key: 'period', header: 'Period', render: (r) => r.period ?? '—' },
];

/** The student, program and period filters, kept in the URL as the list's other filters are. */
export function StudentFilters() {
  const [params, setParams] = useSearchParams();
  // A new filter goes back to page 1 and drops the keyset anchors of the old list, as the history's own filters do.
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    for (const key of ['page', 'after', 'before']) next.delete(key);
    setParams(next, { replace: true });
  };
  const programs = useProgramOptions();
  const studentId = params.get('studentId');
  // A link that names the student by id only (a student's Transactions): the name comes from the student.
  const named = params.get('studentName');
  const student = useStudentDetail(studentId && !named ? studentId : null);
  const studentName = named ?? student.data?.name;
  const period = params.get('period') ?? '';
  return (
    <>
      <Box miw={240}>
        <StudentPicker
          // A filter set from outside (a student's Transactions link, Clear filters) starts afresh.
          key={`${studentId ?? ''}:${studentName ?? ''}`}
          value={studentId ? { studentId, name: studentName ?? 'Selected student', studentNumber: '' } : null}
          onChange={(s) => update({ studentId: s?.studentId, studentName: s?.name })}
          includeInactive
          compact
        />
      </Box>
      <Select
        label="Program"
        placeholder="Any program"
        clearable
        searchable
        data={(programs.data?.items ?? []).map((p) => ({ value: p.programId, label: p.name }))}
        value={params.get('programId')}
        onChange={(programId) => update({ programId: programId ?? undefined })}
      />
      <TextInput
        label="Period"
        type="month"
        value={monthOfLabel(period) ?? ''}
        onChange={(e) => update({ period: e.currentTarget.value ? monthPeriod(`${e.currentTarget.value}-01`).label : undefined })}
      />
    </>
  );
}

/** What the page gives the history it shows (composed in app/routes): its columns, its filters, the empty list's new request. */
export interface BillingHistoryParts {
  columns: Column<PaymentRequest>[];
  filters: ReactNode;
  newRequestPath: string;
}

/**
 * /business/entity/billing/transactions: the transaction history of the student template, with
 * each request's student, program and period (columns, filters — `?studentId=`, `?programId=`,
 * `?period=` — and in the CSV export), and everything the history offers.
 */
export function BillingTransactionsPage({ history }: { history: (parts: BillingHistoryParts) => ReactNode }) {
  useDocumentTitle('Billing transactions');
  const navigate = useNavigate();
  const access = useEndpointAccess(paymentRequestEndpoints.create);
  const newRequest = getHref(paths.entity.billingStudent);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="sm" c="dimmed">
            {paymentsHeading('student')}
          </Text>
          <Title order={1}>Billing transactions</Title>
          <Text c="dimmed" size="sm">
            Every request you sent, whom it is for, and where each one stands.
          </Text>
        </div>
        <Group>
          <Button variant="default" onClick={() => navigate(paths.entity.studentBalances)}>
            Students’ balances
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(newRequest)} disabled={!access.allowed}>
            Request to Pay Single Student
          </Button>
        </Group>
      </Group>
      <AccessAlert access={access} />
      {history({ columns: STUDENT_COLUMNS, filters: <StudentFilters />, newRequestPath: newRequest })}
    </Stack>
  );
}
