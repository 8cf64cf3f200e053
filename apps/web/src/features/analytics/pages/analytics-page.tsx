import { Anchor, Button, Card, ColorSwatch, Group, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconReportAnalytics } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  formatDay,
  formatMoney,
  getHref,
  paths,
  REPORT_KIND_LABELS,
  REPORT_METHOD_LABELS,
  ReportKind,
  ReportMethod,
  type EntityType,
  type ReportOverview,
} from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useReportOverview } from '../api/reports-api';
import { DailyCollectedChart, SharesChart, type Share } from '../components/report-charts';
import { ReportSkeleton } from '../components/report-parts';
import { historyHref, monthRange } from '../report-dates';

const METHOD_COLORS: Record<ReportMethod, string> = { card: 'blue.6', bank_account: 'teal.6' };
const KIND_COLORS: Record<ReportKind, string> = { request: 'blue.6', invoice: 'violet.6', qr: 'orange.6', student: 'teal.6', patient: 'pink.6' };

/** The kinds a business's template collects, shown even at $0.00 (a school's student billing). */
const TEMPLATE_KINDS: Record<EntityType, readonly ReportKind[]> = {
  standard: ['request', 'invoice', 'qr'],
  student: ['request', 'invoice', 'qr', 'student'],
  healthCare: ['request', 'invoice', 'qr', 'patient'],
};

/** "Up 12% on October 2026 ($1,000.00)": a figure of this month against the same of last month. */
export function changeAgainst(now: number, before: number, lastLabel: string): string {
  if (before === 0) return now === 0 ? `Same as ${lastLabel} ($0.00)` : `Up from $0.00 in ${lastLabel}`;
  const percent = Math.round(((now - before) / Math.abs(before)) * 100);
  if (percent === 0) return `About the same as ${lastLabel} (${formatMoney(before)})`;
  return `${percent > 0 ? 'Up' : 'Down'} ${Math.abs(percent)}% on ${lastLabel} (${formatMoney(before)})`;
}

/** "83% of the 12 requests paid this month were paid by their due date." */
export function onTimeSentence(onTime: ReportOverview['onTime']): string {
  if (onTime.paidCount === 0) return 'No request has been paid in full this month yet.';
  const percent = Math.round((onTime.onTimeCount / onTime.paidCount) * 100);
  const requests = onTime.paidCount === 1 ? 'the 1 request' : `the ${onTime.paidCount.toLocaleString('en-US')} requests`;
  return `${percent}% of ${requests} paid this month ${onTime.paidCount === 1 ? 'was' : 'were'} paid by ${onTime.paidCount === 1 ? 'its' : 'their'} due date.`;
}

/** A split of this month's collections (by method, by kind): the donut and, as its legend, the table of its numbers. */
function SharesCard({ title, shares, counts }: { title: string; shares: Share[]; counts: number[] }) {
  const total = shares.reduce((sum, s) => sum + s.cents, 0);
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {total === 0 ? (
        <Text size="sm" c="dimmed">
          No payments collected this month yet.
        </Text>
      ) : (
        <Group align="center" gap="md" wrap="wrap">
          <SharesChart shares={shares.filter((s) => s.cents > 0)} />
          <ScrollRegion label={title} minWidth={280}>
            <Table captionSide="top">
              <Table.Caption>{`${title}, this month`}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Paid through</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Payments
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Amount
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    Share
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shares.map((s, i) => (
                  <Table.Tr key={s.name}>
                    <Table.Th scope="row" fw={400}>
                      <Group gap={6} wrap="nowrap">
                        <ColorSwatch color={`var(--mantine-color-${s.color.replace('.', '-')})`} size={12} aria-hidden="true" />
                        {s.name}
                      </Group>
                    </Table.Th>
                    <Table.Td ta="right">{(counts[i] ?? 0).toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{formatMoney(s.cents)}</Table.Td>
                    <Table.Td ta="right">{`${Math.round((s.cents / total) * 100)}%`}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </Group>
      )}
    </Card>
  );
}

function Overview({ overview, template }: { overview: ReportOverview; template: EntityType }) {
  const { thisMonth, lastMonth } = overview;
  const now = thisMonth.figures;
  const before = lastMonth.figures;
  const cards = [
    { label: 'Collected', now: now.collectedCents, before: before.collectedCents },
    { label: 'Outstanding', now: now.outstandingCents, before: before.outstandingCents },
    { label: 'Fees', now: now.feesCents, before: before.feesCents },
    { label: 'Net', now: now.netCents, before: before.netCents },
  ];
  const methods = ReportMethod.options.map((method) => overview.byMethod.find((m) => m.method === method) ?? { method, count: 0, cents: 0 });
  const kinds = ReportKind.options
    .map((kind) => overview.byKind.find((k) => k.kind === kind) ?? { kind, count: 0, cents: 0 })
    .filter((k) => k.cents !== 0 || k.count !== 0 || (TEMPLATE_KINDS[template] ?? TEMPLATE_KINDS.standard).includes(k.kind));
  const days = overview.daily.map((d) => ({ label: formatDay(d.date), ...d }));
  const collected90 = overview.daily.reduce((sum, d) => sum + d.collectedCents, 0);
  const thisMonthHref = getHref(paths.analytics.monthly, undefined, { month: thisMonth.month });

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {thisMonth.label}
        </Title>
        <Text size="sm" c="dimmed">
          Against {lastMonth.label}. <Anchor component={Link} to={thisMonthHref} size="sm">{`See ${thisMonth.label} day by day`}</Anchor>
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="sm">
        {cards.map((card) => (
          <Card key={card.label} withBorder radius="md" padding="md">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {card.label}
            </Text>
            <Text fz={24} fw={700} mt={4}>
              {formatMoney(card.now)}
            </Text>
            <Text size="xs" c="dimmed">
              {changeAgainst(card.now, card.before, lastMonth.label)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="xs">
          Collected per day, last 90 days
        </Title>
        {collected90 === 0 ? (
          <Text size="sm" c="dimmed">
            No payments collected in the last 90 days.
          </Text>
        ) : (
          <>
            <DailyCollectedChart days={days} />
            <VisuallyHidden>
              <table>
                <caption>Collected per day over the 90 days to {formatDay(overview.today)}</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Payments</th>
                    <th scope="col">Collected</th>
                  </tr>
                </thead>
                <tbody>
                  {days.map((d) => (
                    <tr key={d.date}>
                      <th scope="row">{d.label}</th>
                      <td>{d.collectedCount}</td>
                      <td>{formatMoney(d.collectedCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </VisuallyHidden>
          </>
        )}
      </Card>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <SharesCard
          title="Collected by method"
          shares={methods.map((m) => ({ name: REPORT_METHOD_LABELS[m.method], cents: m.cents, color: METHOD_COLORS[m.method] }))}
          counts={methods.map((m) => m.count)}
        />
        <SharesCard
          title="Collected by kind"
          shares={kinds.map((k) => ({ name: REPORT_KIND_LABELS[k.kind], cents: k.cents, color: KIND_COLORS[k.kind] }))}
          counts={kinds.map((k) => k.count)}
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h4" mb="xs">
            Top payers this month
          </Title>
          {overview.topPayers.length === 0 ? (
            <Text size="sm" c="dimmed">
              No payer has paid this month yet.
            </Text>
          ) : (
            <ScrollRegion label="Top payers this month" minWidth={420}>
              <Table captionSide="top">
                <Table.Caption>The payers who paid the most in {thisMonth.label}, net of returns</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Payer</Table.Th>
                    <Table.Th scope="col" ta="right">
                      Payments
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Paid
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {overview.topPayers.map((p) => (
                    <Table.Tr key={p.payerId ?? `${p.name}|${p.email}`}>
                      <Table.Th scope="row" fw={400}>
                        {p.payerId ? (
                          <Anchor
                            component={Link}
                            // The payer's requests paid this month: the payments this table adds up.
                            to={historyHref(monthRange(thisMonth.month), 'paid', { path: paths.payers.transactions, query: { payerId: p.payerId } })}
                            size="sm"
                          >
                            {p.name}
                          </Anchor>
                        ) : (
                          <Text size="sm">{p.name}</Text>
                        )}
                        {p.email && (
                          <Text size="xs" c="dimmed">
                            {p.email}
                          </Text>
                        )}
                      </Table.Th>
                      <Table.Td ta="right">{p.count.toLocaleString('en-US')}</Table.Td>
                      <Table.Td ta="right">{formatMoney(p.cents)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
          )}
        </Card>
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h4" mb="xs">
            Paid on time
          </Title>
          <Text size="sm">{onTimeSentence(overview.onTime)}</Text>
          <Text size="xs" c="dimmed" mt="xs">
            Requests paid in full in {thisMonth.label}, against the due date on your business’s calendar.
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** /business/analytics: this month against last, 90 days of collections, how and for what money came in, top payers, paid on time. */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const { business } = useSession();
  const overview = useReportOverview();
  const template = (business?.entities[0]?.entityType ?? 'standard') as EntityType;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Analytics</Title>
          <Text c="dimmed" size="sm">
            {overview.data ? `Today is ${formatDay(overview.data.today)} on your business’s clock (${overview.data.timeZone}).` : 'Your billing at a glance.'}
          </Text>
        </div>
        <Button component={Link} to={paths.analytics.billing} variant="default" leftSection={<IconReportAnalytics size={16} />}>
          Billing reports
        </Button>
      </Group>
      {overview.error ? (
        <LoadError title="The analytics could not be loaded" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : !overview.data ? (
        <ReportSkeleton />
      ) : (
        <Overview overview={overview.data} template={template} />
      )}
    </Stack>
  );
}
