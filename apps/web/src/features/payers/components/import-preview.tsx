import { Alert, Badge, Button, Group, List, Progress, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { PAYER_IMPORT_FIELD_LABELS, PayerImportField, type PayerImportPreview, type PayerImportRow, type PayerImportRowStatus } from '@tay/contract';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { formatPhone } from '../../../lib/phone';

const STATUS: Record<PayerImportRowStatus, { label: string; color: string }> = {
  new: { label: 'New', color: 'teal' },
  duplicate: { label: 'Duplicate', color: 'gray' },
  error: { label: 'Error', color: 'red' },
};

function fieldLabel(field: string): string {
  const parsed = PayerImportField.safeParse(field);
  return parsed.success ? PAYER_IMPORT_FIELD_LABELS[parsed.data] : 'Row';
}

const PAGE_SIZE = 25;

interface Props {
  preview: PayerImportPreview;
  committing: boolean;
  onCommit: () => void;
}

/**
 * What importing the file would do, row by row: new payers, duplicates that are skipped (and
 * why), and errors by field. Importing is all or nothing, so the button waits until no row has an
 * error; while it runs, a progress bar shows.
 */
export function ImportPreview({ preview, committing, onCommit }: Props) {
  const [show, setShow] = useState<PayerImportRowStatus | null>(null);
  const [page, setPage] = useState(1);
  const rows = show ? preview.rows.filter((r) => r.status === show) : preview.rows;
  const visible = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const { counts } = preview;

  const columns: Column<PayerImportRow>[] = [
    { key: 'line', header: 'Line', render: (r) => r.row },
    { key: 'name', header: 'Name', render: (r) => r.payer.displayName || '—' },
    { key: 'email', header: 'E-mail', render: (r) => r.payer.email || '—' },
    { key: 'mobile', header: 'Mobile', render: (r) => (r.payer.mobileNumber ? formatPhone(r.payer.mobileNumber) : '—') },
    { key: 'reference', header: 'Reference', render: (r) => r.payer.reference ?? '—' },
    {
      key: 'status',
      header: 'Result',
      render: (r) => (
        <Badge color={STATUS[r.status].color} variant="light" radius="sm">
          {STATUS[r.status].label}
        </Badge>
      ),
    },
    {
      key: 'details',
      header: 'Details',
      render: (r) =>
        r.status === 'error' ? (
          <List size="sm" spacing={2} c="red.8">
            {Object.entries(r.errors).map(([field, message]) => (
              <List.Item key={field}>
                {fieldLabel(field)}: {message}
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            {r.note ?? 'Will be added'}
          </Text>
        ),
    },
  ];

  return (
    <Stack gap="md">
      <Group gap="xs" aria-label="Preview summary">
        <Badge color="teal" variant="light" size="lg">
          {counts.new} new
        </Badge>
        <Badge color="gray" variant="light" size="lg">
          {counts.duplicate} {counts.duplicate === 1 ? 'duplicate' : 'duplicates'}
        </Badge>
        <Badge color="red" variant="light" size="lg">
          {counts.error} {counts.error === 1 ? 'error' : 'errors'}
        </Badge>
      </Group>
      {counts.error > 0 && (
        <Alert color="red" icon={<IconAlertTriangle />} title={`${counts.error} ${counts.error === 1 ? 'row has' : 'rows have'} errors`} role="alert">
          Nothing is imported while any row has an error. Fix the rows below in your file and choose it again.
        </Alert>
      )}
      <DataTable
        caption="Import preview"
        columns={columns}
        rows={visible}
        rowKey={(r) => String(r.row)}
        total={rows.length}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        filters={
          <Select
            aria-label="Show rows"
            placeholder="All rows"
            data={[
              { value: 'new', label: 'New' },
              { value: 'duplicate', label: 'Duplicates' },
              { value: 'error', label: 'Errors' },
            ]}
            value={show}
            onChange={(value) => {
              setShow(value as PayerImportRowStatus | null);
              setPage(1);
            }}
            clearable
            w={160}
          />
        }
        empty={{ title: 'No rows to show', description: 'Choose another filter.' }}
      />
      {committing && (
        <Stack gap={4}>
          <Text size="sm">Importing {counts.new === 1 ? '1 payer' : `${counts.new} payers`}…</Text>
          <Progress value={100} animated striped aria-label="Importing payers" />
        </Stack>
      )}
      <Group>
        <Button onClick={onCommit} disabled={counts.error > 0 || committing} loading={committing}>
          {counts.new === 1 ? 'Import 1 payer' : `Import ${counts.new} payers`}
        </Button>
        {counts.duplicate > 0 && (
          <Text size="sm" c="dimmed">
            {counts.duplicate} {counts.duplicate === 1 ? 'duplicate is' : 'duplicates are'} skipped.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
