import { Alert, Anchor, Button, Group, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconDownload, IconFileTypePdf, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  formatMoney,
  REPORT_METHOD_LABELS,
  type BillingReport,
  type BillingReportQuery,
  type ReportHour,
  type ReportMethod,
  type RequestState,
} from '@tay/contract';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { StatusBadge } from '../../../components/ui/request-state-badge';
import { useBusinessId } from '../../../lib/session';
import { downloadBillingReport } from '../api/reports-api';
import { historyHref } from '../report-dates';

/** "Download CSV" and "Download PDF" of exactly the report on screen (its range and grouping). */
export function ReportDownloads({ query, disabled = false }: { query: BillingReportQuery; disabled?: boolean }) {
  const businessId = useBusinessId();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const download = (format: 'csv' | 'pdf') => {
    if (!businessId) return;
    setBusy(format);
    downloadBillingReport(businessId, query, format)
      .catch((error: Error) => notifications.show({ color: 'red', title: 'Download failed', message: error.message }))
      .finally(() => setBusy(null));
  };
  return (
    <Group gap="xs">
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => download('csv')} loading={busy === 'csv'} disabled={disabled}>
        Download CSV
      </Button>
      <Button variant="default" leftSection={<IconFileTypePdf size={16} />} onClick={() => download('pdf')} loading={busy === 'pdf'} disabled={disabled}>
        Download PDF
      </Button>
    </Group>
  );
}

/** The shape of a report while it loads: the figures, then the chart. */
export function ReportSkeleton() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading the report">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} h={92} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={260} radius="md" />
    </Stack>
  );
}

/** Whether nothing was billed, collected or returned in the report's range (nothing to draw). */
export function isEmptyReport(report: BillingReport): boolean {
  const t = report.totals;
  return t.billedCount === 0 && t.collectedCount === 0 && t.returnedCount === 0 && t.outstandingCents === 0 && t.feesCents === 0;
}

/** What an empty report says instead of an empty chart. */
export function ReportEmpty({ when }: { when: string }) {
  return (
    <Alert color="gray" variant="light" icon={<IconInfoCircle />} title={`No payments or requests ${when}`}>
      <Text size="sm">Requests you send and payments you take show here, on the days of your business’s calendar.</Text>
    </Alert>
  );
}

/**
 * What a report says when its link names a day or month that is not one (`2026-02-30`, `2026-13`):
 * each bad value by name, and the picker above to choose again. No figures are fetched or shown
 * in its place: another period's would pass for the one asked for.
 */
export function BadPeriod({ problems, unit }: { problems: string[]; unit: 'day' | 'month' | 'range' }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={problems.join(' ')} role="alert">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        The link names a {unit === 'range' ? 'date' : unit} that does not exist, so no figures are shown. Choose the {unit} above.
      </Text>
    </Alert>
  );
}

/** Requests billed in the range by their status now, each count leading to those requests in the history. */
export function StatusCounts({ report }: { report: BillingReport }) {
  const caption = 'Requests billed, by status now';
  if (report.byStatus.length === 0) return null;
  return (
    <ScrollRegion label={caption} minWidth={320}>
      <Table captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" ta="right">
              Requests
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.byStatus.map((s) => (
            <Table.Tr key={s.status}>
              <Table.Th scope="row" fw={400}>
                <StatusBadge state={s.status as RequestState} />
              </Table.Th>
              <Table.Td ta="right">
                <Anchor
                  component={Link}
                  to={historyHref(report, 'sent', { status: s.status })}
                  size="sm"
                  aria-label={`${s.count} ${s.status} requests in the transaction history`}
                >
                  {s.count.toLocaleString('en-US')}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">{formatMoney(s.cents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/** Payments collected in the range by how they were paid; the requests they paid open in the history. */
export function MethodCounts({ byMethod, range }: { byMethod: BillingReport['byMethod']; range: { from: string; to: string } }) {
  const caption = 'Payments collected, by method';
  return (
    <ScrollRegion label={caption} minWidth={320}>
      <Table captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Method</Table.Th>
            <Table.Th scope="col" ta="right">
              Payments
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {byMethod.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text size="sm" c="dimmed">
                  No payments collected.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            byMethod.map((m) => (
              <Table.Tr key={m.method}>
                <Table.Th scope="row" fw={400}>
                  {REPORT_METHOD_LABELS[m.method as ReportMethod]}
                </Table.Th>
                <Table.Td ta="right">{m.count.toLocaleString('en-US')}</Table.Td>
                <Table.Td ta="right">{formatMoney(m.cents)}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      {byMethod.length > 0 && (
        // The history does not tell methods apart: the link is to every request paid in the range.
        <Anchor component={Link} to={historyHref(range, 'paid')} size="sm">
          See the requests these payments paid
        </Anchor>
      )}
    </ScrollRegion>
  );
}

/** A day's hours on the business's clock: the hour chart's numbers, for screen readers and anyone who wants them. */
export function HoursTable({ hours, caption }: { hours: readonly ReportHour[]; caption: string }) {
  return (
    <ScrollRegion label={caption} minWidth={480}>
      <Table striped captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Hour</Table.Th>
            <Table.Th scope="col" ta="right">
              Requests billed
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Billed
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Payments
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Collected
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {hours.map((h) => (
            <Table.Tr key={h.start}>
              <Table.Th scope="row" fw={400}>
                {h.label}
              </Table.Th>
              <Table.Td ta="right">{h.billedCount.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatMoney(h.billedCents)}</Table.Td>
              <Table.Td ta="right">{h.collectedCount.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatMoney(h.collectedCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/**
 * Previous / picker / Next for a report of one period (a day, a month): `step(value, ±1)` gives
 * the period before or after; Next stops at the current period (`latest`).
 */
export function PeriodStepper({
  unit,
  label,
  inputType,
  value,
  latest,
  isValid,
  step,
  onChange,
}: {
  unit: 'day' | 'month';
  label: string;
  inputType: 'date' | 'month';
  value: string | null;
  latest: string | null;
  isValid: (value: string) => boolean;
  step: (value: string, by: number) => string;
  onChange: (next: string) => void;
}) {
  return (
    <>
      <Button variant="default" leftSection={<IconChevronLeft size={16} />} onClick={() => value && onChange(step(value, -1))} disabled={!value}>
        Previous {unit}
      </Button>
      <TextInput
        label={label}
        type={inputType}
        value={value ?? ''}
        onChange={(e) => isValid(e.currentTarget.value) && onChange(e.currentTarget.value)}
        w={170}
      />
      <Button
        variant="default"
        rightSection={<IconChevronRight size={16} />}
        onClick={() => value && onChange(step(value, 1))}
        disabled={!value || (latest !== null && value >= latest)}
      >
        Next {unit}
      </Button>
    </>
  );
}
