import { Select, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { formatDay, ReportGroupBy } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ApiError } from '../../../lib/api-client';
import { useBusinessTimeZone } from '../../../lib/business-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useBillingReport } from '../api/reports-api';
import { RangeReport } from '../components/range-report';
import { ReportHeader } from '../components/report-header';
import { BadPeriod, ReportDownloads, ReportSkeleton } from '../components/report-parts';
import { addDays, badParam, isDay, todayIn } from '../report-dates';

const GROUPS: { value: ReportGroupBy; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week (Monday to Sunday)' },
  { value: 'month', label: 'Month' },
];

/** The rows of a custom report, in words for its table's caption. */
const GROUP_WORDS: Record<ReportGroupBy, string> = { day: 'by day', week: 'by week', month: 'by month' };

/**
 * /business/analytics/billing/custom?from=&to=&groupBy=day|week|month: any range of the business's
 * calendar up to two years, by day, week or month. No range is the 30 days ending today on the
 * business's clock. A range the server refuses (To before From, over two years) is said under
 * the field it names; a From or To that is not a date (`2026-02-30`) is named, and no other range
 * stands in for it.
 */
export function CustomReportPage() {
  useDocumentTitle('Custom Billing Report');
  const [params, setParams] = useSearchParams();
  const timeZone = useBusinessTimeZone();
  const today = timeZone.data ? todayIn(timeZone.data) : null;
  const askedFrom = params.get('from');
  const askedTo = params.get('to');
  const badFrom = badParam(askedFrom, isDay);
  const badTo = badParam(askedTo, isDay);
  const to = badTo ? null : isDay(askedTo) ? askedTo : today;
  const from = badFrom ? null : isDay(askedFrom) ? askedFrom : to ? addDays(to, -29) : null;
  const parsedGroup = ReportGroupBy.safeParse(params.get('groupBy'));
  const groupBy: ReportGroupBy = parsedGroup.success ? parsedGroup.data : 'day';
  const ready = Boolean(from && to) && !badFrom && !badTo;
  const query = { from: from ?? '', to: to ?? '', groupBy };
  const report = useBillingReport(query, ready);

  const change = (key: 'from' | 'to' | 'groupBy', value: string | null) => {
    // A bad date the person has not replaced stays in the link, still named.
    const keptFrom = askedFrom && badFrom ? askedFrom : from;
    const keptTo = askedTo && badTo ? askedTo : to;
    const next = new URLSearchParams({ ...(keptFrom ? { from: keptFrom } : {}), ...(keptTo ? { to: keptTo } : {}), groupBy });
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

  const fields = report.error instanceof ApiError && report.error.status === 400 ? (report.error.fields ?? {}) : null;
  const fieldError = (key: string) => fields?.[key];
  const controls = (
    <>
      <TextInput label="From" type="date" value={from ?? ''} onChange={(e) => change('from', e.currentTarget.value)} error={fieldError('from')} w={170} />
      <TextInput label="To" type="date" value={to ?? ''} onChange={(e) => change('to', e.currentTarget.value)} error={fieldError('to')} w={170} />
      <Select
        label="Group by"
        data={GROUPS}
        value={groupBy}
        onChange={(value) => change('groupBy', value)}
        allowDeselect={false}
        error={fieldError('groupBy')}
        w={230}
      />
    </>
  );

  const covers = badFrom || badTo ? 'No range chosen' : from && to ? `${formatDay(from)} to ${formatDay(to)}` : 'The last 30 days';
  const error = timeZone.error ?? report.error;
  let body: ReactNode;
  if (badFrom || badTo) {
    const problems = [...(badFrom ? [`From: ${badFrom} is not a date.`] : []), ...(badTo ? [`To: ${badTo} is not a date.`] : [])];
    body = <BadPeriod problems={problems} unit="range" />;
  } else if (fields && Object.keys(fields).length > 0) {
    body = null;
  } else if (error) {
    body = <LoadError title="The report could not be loaded" error={error} onRetry={() => void (timeZone.error ? timeZone.refetch() : report.refetch())} />;
  } else if (!report.data) {
    body = <ReportSkeleton />;
  } else {
    body = <RangeReport report={report.data} when={`from ${covers}`} caption={`${covers}, ${GROUP_WORDS[groupBy]}`} />;
  }

  return (
    <Stack gap="lg">
      <ReportHeader
        title="Custom Billing Report"
        covers={covers}
        timeZone={report.data?.timeZone ?? timeZone.data}
        controls={controls}
        downloads={<ReportDownloads query={query} disabled={!report.data} />}
      />
      {body}
    </Stack>
  );
}
