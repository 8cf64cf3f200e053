import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney, getHref, paths, type ReportBucket, type ReportFigures } from '@tay/contract';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { historyHref, type HistoryDays } from '../report-dates';

/** Where a row's period leads: a day to its daily report, a longer period to its days. */
function drillDown(bucket: ReportBucket): string {
  return bucket.from === bucket.to
    ? getHref(paths.analytics.daily, undefined, { date: bucket.from })
    : getHref(paths.analytics.custom, undefined, { from: bucket.from, to: bucket.to, groupBy: 'day' });
}

const count = (n: number) => n.toLocaleString('en-US');

/** A figure of a period, leading to its requests in the history on the days it counts them (when there are any). */
function FigureLink({ text, to, label, none }: { text: string; to: string; label: string; none: boolean }) {
  return none ? (
    <>{text}</>
  ) : (
    <Anchor component={Link} to={to} size="sm" aria-label={label} className="target-24">
      {text}
    </Anchor>
  );
}

/** A row's figures; a period's (`bucket`) link its billed, payments and returned to their requests. */
function FigureCells({ figures, bucket }: { figures: ReportFigures; bucket?: ReportBucket }) {
  const link = (text: string, days: HistoryDays, words: string, none: boolean) =>
    bucket ? (
      <FigureLink text={text} to={historyHref(bucket, days)} label={`${words} ${bucket.label}: ${text}, in the transaction history`} none={none} />
    ) : (
      text
    );
  return (
    <>
      <Table.Td ta="right">{link(count(figures.billedCount), 'sent', 'Requests billed on', figures.billedCount === 0)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.billedCents)}</Table.Td>
      <Table.Td ta="right">{link(count(figures.collectedCount), 'paid', 'Payments collected on', figures.collectedCount === 0)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.collectedCents)}</Table.Td>
      <Table.Td ta="right">{link(formatMoney(figures.returnedCents), 'returned', 'Returned on', figures.returnedCount === 0)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.refundedCents)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.disputedCents)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.feesCents)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.netCents)}</Table.Td>
      <Table.Td ta="right">{formatMoney(figures.outstandingCents)}</Table.Td>
    </>
  );
}

/**
 * A report's rows (days, weeks or months) with every figure and the totals: the chart's numbers
 * for screen readers, and what the CSV holds. A period opens its own report; its requests open
 * in the transaction history on the days each figure counts them (billed: first sent; payments:
 * processed; returned: returned).
 */
export function BucketsTable({ caption, buckets, totals }: { caption: string; buckets: readonly ReportBucket[]; totals: ReportFigures }) {
  return (
    <ScrollRegion label={caption} minWidth={960}>
      <Table striped highlightOnHover captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Period</Table.Th>
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
            <Table.Th scope="col" ta="right">
              Returned
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Refunded
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Disputed
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Fees
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Net
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Outstanding
            </Table.Th>
            <Table.Th scope="col">Requests</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {buckets.map((bucket) => (
            <Table.Tr key={bucket.from}>
              <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                <Anchor component={Link} to={drillDown(bucket)} size="sm" className="target-24">
                  {bucket.label}
                </Anchor>
              </Table.Th>
              <FigureCells figures={bucket} bucket={bucket} />
              <Table.Td>
                <Anchor
                  component={Link}
                  to={historyHref(bucket, 'sent')}
                  size="sm"
                  className="target-24"
                  aria-label={`Requests of ${bucket.label} in the transaction history`}
                >
                  History
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th scope="row">Total</Table.Th>
            <FigureCells figures={totals} />
            <Table.Td />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollRegion>
  );
}
