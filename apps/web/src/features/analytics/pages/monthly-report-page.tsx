import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/ui/load-error';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBillingReport } from '../api/reports-api';
import { RangeReport } from '../components/range-report';
import { ReportHeader } from '../components/report-header';
import { BadPeriod, PeriodStepper, ReportDownloads, ReportSkeleton } from '../components/report-parts';
import { addMonths, badParam, formatMonth, isMonth, monthOf, monthRange, todayIn } from '../report-dates';

/**
 * /business/analytics/billing/monthly?month=YYYY-MM: one month of the business's calendar by day —
 * the figures, a chart of billed and collected per day, a table of every day with the totals.
 * No month is this month on the business's clock; a month that is not one (`2026-13`) is named,
 * with the picker, and no month's figures stand in for it.
 */
export function MonthlyReportPage() {
  useDocumentTitle('Monthly Billing Report');
  const [params, setParams] = useSearchParams();
  const timeZone = useBusinessTimeZone();
  const thisMonth = timeZone.data ? monthOf(todayIn(timeZone.data)) : null;
  const asked = params.get('month');
  const bad = badParam(asked, isMonth);
  const month = bad ? null : isMonth(asked) ? asked : thisMonth;
  const query = { ...(month ? monthRange(month) : { from: '', to: '' }), groupBy: 'day' as const };
  const report = useBillingReport(query, Boolean(month));
  const label = month ? formatMonth(month) : '';

  const show = (next: string) => setParams(new URLSearchParams({ month: next }));

  const controls = (
    <PeriodStepper unit="month" label="Month" inputType="month" value={month} latest={thisMonth} isValid={isMonth} step={addMonths} onChange={show} />
  );

  const error = timeZone.error ?? report.error;
  let body: ReactNode;
  if (bad) {
    body = <BadPeriod problems={[`${bad} is not a month.`]} unit="month" />;
  } else if (error) {
    body = <LoadError title="The report could not be loaded" error={error} onRetry={() => void (timeZone.error ? timeZone.refetch() : report.refetch())} />;
  } else if (!report.data) {
    body = <ReportSkeleton />;
  } else {
    body = <RangeReport report={report.data} when={`in ${label}`} caption={`${label} by day`} />;
  }

  return (
    <Stack gap="lg">
      <ReportHeader
        title="Monthly Billing Report"
        covers={bad ? 'No month chosen' : month ? label : 'This month'}
        timeZone={report.data?.timeZone ?? timeZone.data}
        controls={controls}
        downloads={<ReportDownloads query={query} disabled={!month} />}
      />
      {body}
    </Stack>
  );
}
