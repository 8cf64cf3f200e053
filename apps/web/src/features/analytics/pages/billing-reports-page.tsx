import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconCalendarMonth, IconCalendarStats } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@tay/contract';
import { useDocumentTitle } from '../../../lib/use-document-title';

const REPORTS: { title: string; to: string; icon: ReactNode; line: string }[] = [
  {
    title: 'Daily Billing Report',
    to: paths.analytics.daily,
    icon: <IconCalendarEvent size={28} aria-hidden="true" />,
    line: 'One day hour by hour: what you billed and collected, the returns and fees, and the day’s requests.',
  },
  {
    title: 'Monthly Billing Report',
    to: paths.analytics.monthly,
    icon: <IconCalendarMonth size={28} aria-hidden="true" />,
    line: 'One month day by day, with the totals: billed, collected, outstanding, returned, fees and net.',
  },
  {
    title: 'Custom Billing Report',
    to: paths.analytics.custom,
    icon: <IconCalendarStats size={28} aria-hidden="true" />,
    line: 'Any range up to two years, by day, week or month.',
  },
];

/** /business/analytics/billing: the billing reports' landing, one card per report. */
export function BillingReportsPage() {
  useDocumentTitle('Billing Reports');
  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Billing Reports</Title>
        <Text c="dimmed" size="sm">
          Every report is on your business’s calendar days, and downloads as CSV or PDF.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {REPORTS.map((report) => (
          <Card key={report.to} withBorder radius="md" padding="lg">
            <Stack gap="xs">
              {report.icon}
              <Anchor component={Link} to={report.to} fw={600} size="lg">
                {report.title}
              </Anchor>
              <Text size="sm" c="dimmed">
                {report.line}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
