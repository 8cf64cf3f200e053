import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatDay } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBillingReport } from '../api/reports-api';
import { HoursChart } from '../components/report-charts';
import { ReportFigures } from '../components/report-figures';
import { ReportHeader } from '../components/report-header';
import {
  BadPeriod,
  HoursTable,
  isEmptyReport,
  MethodCounts,
  PeriodStepper,
  ReportDownloads,
  ReportEmpty,
  ReportSkeleton,
  StatusCounts,
} from '../components/report-parts';
import { addDays, badParam, isDay, todayIn } from '../report-dates';

/** The day a daily report shows, for the requests list the route puts under it. */
export interface ReportDay {
  date: string;
  /** "Nov 24, 2026" */
  label: string;
}

/** Parameters of the requests list under the report that belong to the day shown (its page, an opened request). */
const DAY_SCOPED = ['page', 'after', 'before', 'transid', 'receipt'];

/**
 * /business/analytics/billing/daily?date=YYYY-MM-DD: one day of the business's calendar — the
 * figures, the counts by status and by method, the hours on its clock (23 or 25 on a DST day),
 * and the day's requests (`transactions`, composed by the route). No date is today on the
 * business's clock; a date that is not one (`2026-02-30`) is named, with the picker, and no day's
 * figures stand in for it.
 */
export function DailyReportPage({ transactions }: { transactions?: (day: ReportDay) => ReactNode }) {
  useDocumentTitle('Daily Billing Report');
  const [params, setParams] = useSearchParams();
  const timeZone = useBusinessTimeZone();
  const today = timeZone.data ? todayIn(timeZone.data) : null;
  const asked = params.get('date');
  const bad = badParam(asked, isDay);
  const date = bad ? null : isDay(asked) ? asked : today;
  const query = { from: date ?? '', to: date ?? '', groupBy: 'day' as const };
  const report = useBillingReport(query, Boolean(date));
  const label = date ? formatDay(date) : '';

  const show = (next: string) => {
    const changed = new URLSearchParams(params);
    changed.set('date', next);
    for (const key of DAY_SCOPED) changed.delete(key);
    setParams(changed);
  };

  const controls = <PeriodStepper unit="day" label="Day" inputType="date" value={date} latest={today} isValid={isDay} step={addDays} onChange={show} />;

  const error = timeZone.error ?? report.error;
  let body: ReactNode;
  if (bad) {
    body = <BadPeriod problems={[`${bad} is not a date.`]} unit="day" />;
  } else if (error) {
    body = <LoadError title="The report could not be loaded" error={error} onRetry={() => void (timeZone.error ? timeZone.refetch() : report.refetch())} />;
  } else if (!report.data) {
    body = <ReportSkeleton />;
  } else if (isEmptyReport(report.data)) {
    body = <ReportEmpty when={`on ${label}`} />;
  } else {
    const r = report.data;
    body = (
      <Stack gap="lg">
        <ReportFigures figures={r.totals} range={r} />
        <Stack gap="xs">
          <Title order={2} size="h3">
            By hour
          </Title>
          <HoursChart hours={r.hours} />
          <HoursTable hours={r.hours} caption={`Billed and collected by hour on ${label}`} />
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <StatusCounts report={r} />
          <MethodCounts byMethod={r.byMethod} range={r} />
        </SimpleGrid>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <ReportHeader
        title="Daily Billing Report"
        covers={bad ? 'No day chosen' : date ? label : 'Today'}
        timeZone={report.data?.timeZone ?? timeZone.data}
        controls={controls}
        downloads={<ReportDownloads query={query} disabled={!date} />}
      />
      {body}
      {date && transactions && (
        <Stack gap="xs">
          <Title order={2} size="h3">
            Requests billed on {label}
          </Title>
          {transactions({ date, label })}
        </Stack>
      )}
    </Stack>
  );
}
