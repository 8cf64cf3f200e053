import { Button, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatMoney, getHref, paths, type StudentBalance, type StudentBalancesQuery, paymentRequestEndpoints } from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { Figure } from '../../../components/ui/figure';
import { paymentsHeading } from '../../../lib/template';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadStudentBalancesCsv, useStudentBalances, useStudentOptions } from '../api/student-requests-api';
import { exportCsv } from '../../../components/ui/list-filters';

const SORTS = ['name', 'studentNumber', 'grade', 'billed', 'paid', 'outstanding'] as const;
const FILTERS = ['search', 'grade', 'period'] as const;

/** The balances query, read from the URL (the one source of truth for the list, its filters and the export). */
function queryOf(params: URLSearchParams): StudentBalancesQuery & { page: number; pageSize: number } {
  const get = (key: string) => params.get(key) || undefined;
  const page = Number(get('page') ?? 1);
  const pageSize = Number(get('pageSize') ?? 25);
  const sortBy = get('sortBy');
  const period = get('period');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: [10, 25, 50, 100].includes(pageSize) ? pageSize : 25,
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as (typeof SORTS)[number]) : 'name',
    sortDirection: get('sortDirection') === 'desc' ? 'desc' : 'asc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(get('grade') ? { grade: get('grade') } : {}),
    ...(period && /^\d{4}-\d{2}$/.test(period) ? { period } : {}),
  };
}

/**
 * /business/billing/students: each student's billed, paid and outstanding for a month (the
 * business's current month unless another is chosen) — the requests sent and still owed or paid
 * count; drafts, scheduled, withdrawn, cancelled, declined and expired ones do not. With the total
 * over every student matched, search, grade filter, sort, pages and CSV export.
 */
export function StudentBalancesPage() {
  useDocumentTitle('Students’ balances');
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const canWrite = useEndpointAccess(paymentRequestEndpoints.create).allowed;
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const list = useStudentBalances(query);
  const grades = useStudentOptions({ pageSize: 1 }).data?.grades ?? [];
  const data = list.data;
  const filtered = FILTERS.some((key) => Boolean(params.get(key)));

  const update = (changes: Record<string, string | number | undefined>, resetPage = true) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    if (resetPage && !('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  const clear = () => update(Object.fromEntries(FILTERS.map((key) => [key, undefined])));

  const columns: Column<StudentBalance>[] = [
    { key: 'studentNumber', header: 'Student id', sortKey: 'studentNumber', render: (b) => b.studentNumber },
    {
      key: 'name',
      header: 'Student',
      sortKey: 'name',
      render: (b) => (
        <div>
          <Text size="sm">{b.name}</Text>
          {b.status === 'Disabled' && (
            <Text size="xs" c="dimmed">
              Deactivated
            </Text>
          )}
        </div>
      ),
    },
    { key: 'grade', header: 'Grade', sortKey: 'grade', render: (b) => b.grade || '—' },
    { key: 'requests', header: 'Requests', align: 'right', render: (b) => String(b.requests) },
    { key: 'billed', header: 'Billed', sortKey: 'billed', align: 'right', render: (b) => formatMoney(b.billedCents) },
    { key: 'paid', header: 'Paid', sortKey: 'paid', align: 'right', render: (b) => formatMoney(b.paidCents) },
    { key: 'refunded', header: 'Refunded', align: 'right', render: (b) => formatMoney(b.refundedCents) },
    { key: 'outstanding', header: 'Outstanding', sortKey: 'outstanding', align: 'right', render: (b) => formatMoney(b.outstandingCents) },
  ];

  const actions = (b: StudentBalance): RowAction<StudentBalance>[] => [
    {
      label: 'Transactions',
      onClick: () => void navigate(getHref(paths.entity.billingTransactions, undefined, { studentId: b.studentId, studentName: b.name })),
    },
    ...(canWrite && b.status === 'active'
      ? [{ label: 'Request to Pay', onClick: () => void navigate(getHref(paths.entity.studentRequest, undefined, { entity: true, studentId: b.studentId })) }]
      : []),
  ];

  const filters = (
    <>
      <TextInput label="Month" type="month" value={query.period ?? data?.from ?? ''} onChange={(e) => update({ period: e.currentTarget.value || undefined })} />
      <Select
        label="Grade"
        placeholder="Any grade"
        clearable
        data={grades}
        value={query.grade ?? null}
        onChange={(grade) => update({ grade: grade ?? undefined })}
      />
      {filtered && (
        <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={clear} className="data-table-filters-end">
          Clear filters
        </Button>
      )}
    </>
  );

  return (
    <Stack gap="md">
      <div>
        <Text size="sm" c="dimmed">
          {paymentsHeading('student')}
        </Text>
        <Title order={1}>Students’ balances</Title>
        <Text c="dimmed" size="sm">
          What each student was billed{data ? ` for ${data.label}` : ''}, what was paid and refunded, and what is still owed. Requests sent and not withdrawn,
          cancelled, declined or expired count.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} aria-label="Totals">
        <Figure label="Billed" value={data ? formatMoney(data.totals.billedCents) : '—'} hint={data ? `${data.total} student(s), ${data.label}` : undefined} />
        <Figure label="Paid" value={data ? formatMoney(data.totals.paidCents) : '—'} />
        <Figure label="Refunded" value={data ? formatMoney(data.totals.refundedCents) : '—'} />
        <Figure label="Outstanding" value={data ? formatMoney(data.totals.outstandingCents) : '—'} />
      </SimpleGrid>
      <DataTable
        caption="Students’ balances"
        columns={columns}
        rows={data?.items}
        rowKey={(b) => b.studentId}
        total={data?.total ?? 0}
        page={query.page}
        pageSize={query.pageSize}
        onPageChange={(page) => update({ page }, false)}
        onPageSizeChange={(pageSize) => update({ pageSize })}
        sortBy={query.sortBy ?? 'name'}
        sortDirection={query.sortDirection ?? 'asc'}
        onSortChange={(sortBy, sortDirection) => update({ sortBy, sortDirection })}
        search={query.search ?? ''}
        onSearchChange={(search) => update({ search })}
        searchPlaceholder="Student name or student id"
        filters={filters}
        onExport={() => businessId && exportCsv(downloadStudentBalancesCsv(businessId, query))}
        actions={actions}
        loading={list.isPending || list.isPlaceholderData}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={
          filtered
            ? {
                title: 'No students match these filters',
                description: 'Nothing matches the search and filters you chose. Clear them to see every student.',
                action: (
                  <Button mt="xs" variant="default" onClick={clear}>
                    Clear filters
                  </Button>
                ),
              }
            : {
                title: 'No students yet',
                description: 'Add or import your students; their balances show here.',
                action: (
                  <Button mt="xs" onClick={() => navigate(paths.entity.students)}>
                    Manage Students
                  </Button>
                ),
              }
        }
      />
    </Stack>
  );
}
