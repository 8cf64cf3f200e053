import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { BillingReport } from '@tay/contract';
import { BucketsTable } from './buckets-table';
import { BucketsChart } from './report-charts';
import { ReportFigures } from './report-figures';
import { isEmptyReport, MethodCounts, ReportEmpty, StatusCounts } from './report-parts';

/**
 * A report over several days (a month, a custom range): the figures, the chart of billed and
 * collected per period with its table beside it, and the counts by status and by method.
 */
export function RangeReport({ report, when, caption }: { report: BillingReport; when: string; caption: string }) {
  if (isEmptyReport(report)) return <ReportEmpty when={when} />;
  return (
    <Stack gap="lg">
      <ReportFigures figures={report.totals} range={report} />
      <Stack gap="xs">
        <Title order={2} size="h3">
          Billed and collected
        </Title>
        <BucketsChart buckets={report.buckets} />
        <BucketsTable caption={caption} buckets={report.buckets} totals={report.totals} />
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <StatusCounts report={report} />
        <MethodCounts byMethod={report.byMethod} range={report} />
      </SimpleGrid>
    </Stack>
  );
}
