import { Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditEntry, type AuditKind, type AuditQuery } from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { downloadAuditCsv, useAudit, useAuditActors } from '../api/team-api';
import { exportCsv } from '../../../components/ui/list-filters';
import { useBusinessTime } from '../../../lib/business-time';

const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
};

function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <Text size="sm">—</Text>;
  return (
    <Stack gap={2}>
      {entry.changes.map((c, i) => (
        <Text key={`${c.field}-${i}`} size="xs">
          <Text span fw={600} size="xs">
            {c.field}
          </Text>
          : {shown(c.before)} → {shown(c.after)}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * /business/setup/audit: every change to the business, its team, payers and requests — who, when,
 * what changed (before → after), from which address — newest first, with filters, search and CSV
 * export. Entries are append-only; the database refuses to change them.
 */
export function AuditLogPage() {
  useDocumentTitle('Audit log');
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const { get, update, page, pageSize } = useListParams();
  const kind = get('kind');
  const query: AuditQuery = {
    page,
    pageSize,
    sortDirection: get('sortDirection') === 'asc' ? 'asc' : 'desc',
    ...(get('search') ? { search: get('search') } : {}),
    ...(get('actor') ? { actor: get('actor') } : {}),
    ...((AUDIT_KINDS as readonly string[]).includes(kind ?? '') ? { kind: kind as AuditKind } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
  };
  const audit = useAudit(query);
  const actors = useAuditActors();
  const filtered = Boolean(query.search || query.actor || query.kind || query.from || query.to);

  const columns: Column<AuditEntry>[] = [
    { key: 'when', header: 'When', sortKey: 'createdAt', render: (e) => clock.dateTime(e.createdAt) },
    { key: 'who', header: 'Who', render: (e) => e.actor },
    {
      key: 'what',
      header: 'What',
      render: (e) => (
        <div>
          <Text size="sm">{e.summary}</Text>
          <Text size="xs" c="dimmed">
            {AUDIT_KIND_LABELS[e.kind]}
          </Text>
        </div>
      ),
    },
    { key: 'changes', header: 'Changes', render: (e) => <Changes entry={e} /> },
    { key: 'address', header: 'Address', render: (e) => e.ipAddress ?? '—' },
  ];

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Audit log</Title>
        <Text c="dimmed" size="sm">
          Every change to this business, who made it, when and from where. Entries can never be changed or deleted.
        </Text>
      </div>
      <DataTable
        caption="Audit log"
        columns={columns}
        rows={audit.data?.items}
        rowKey={(e) => e.id}
        total={audit.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={(page) => update({ page }, false)}
        onPageSizeChange={(pageSize) => update({ pageSize })}
        sortBy="createdAt"
        sortDirection={query.sortDirection ?? 'desc'}
        onSortChange={(_, sortDirection) => update({ sortDirection })}
        search={query.search ?? ''}
        onSearchChange={(search) => update({ search })}
        searchPlaceholder="Person, action or value"
        filters={
          <>
            <Select
              label="Person"
              placeholder="Anyone"
              data={(actors.data ?? []).map((a) => ({ value: a.actorUserId ?? a.actor, label: a.actor }))}
              value={query.actor ?? null}
              onChange={(value) => update({ actor: value })}
              clearable
              searchable
              w={220}
            />
            <Select
              label="Kind"
              placeholder="Every kind"
              data={AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }))}
              value={query.kind ?? null}
              onChange={(value) => update({ kind: value })}
              clearable
              w={200}
            />
            <TextInput label="From" type="date" value={query.from ?? ''} onChange={(e) => update({ from: e.currentTarget.value })} />
            <TextInput label="To" type="date" value={query.to ?? ''} onChange={(e) => update({ to: e.currentTarget.value })} />
          </>
        }
        onExport={() => businessId && exportCsv(downloadAuditCsv(businessId, query))}
        loading={audit.isPending || audit.isPlaceholderData}
        error={audit.error}
        onRetry={() => void audit.refetch()}
        empty={
          filtered
            ? { title: 'No entry matches', description: 'Change the search or filters to see more.' }
            : { title: 'Nothing on record yet', description: 'Changes to the business, its team, payers and requests appear here as they are made.' }
        }
      />
    </Stack>
  );
}
