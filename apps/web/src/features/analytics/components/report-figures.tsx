import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney, type ReportFigures as Figures } from '@tay/contract';
import { wrapAnywhere } from '../../../components/ui/wrap-anywhere';
import { historyHref, type HistoryDays } from '../report-dates';

/** The states whose requests still owe something: what *outstanding* adds up (ADR 039). */
const OPEN_STATES = 'Sent,Resent,Accepted,PartiallyPaid,Error';

interface FigureCard {
  label: string;
  cents: number;
  hint: string;
  /** The history narrowed to the requests behind the figure: the days it counts, and a status when it has one. */
  history?: { days: HistoryDays; status?: string; words: string };
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * A report's seven figures (ADR 039 defines each, ADR 051 the refunds): billed, collected,
 * outstanding, returned, refunded, disputed, fees and net, each with its count and, where the history can
 * show them, a link to its requests on the days the figure counts them (first sent, paid or returned).
 */
export function ReportFigures({ figures, range }: { figures: Figures; range: { from: string; to: string } }) {
  const cards: FigureCard[] = [
    {
      label: 'Billed',
      cents: figures.billedCents,
      hint: plural(figures.billedCount, 'request sent', 'requests sent'),
      history: { days: 'sent', words: 'requests' },
    },
    {
      label: 'Collected',
      cents: figures.collectedCents,
      hint: plural(figures.collectedCount, 'payment', 'payments'),
      history: { days: 'paid', words: 'paid requests' },
    },
    {
      label: 'Outstanding',
      cents: figures.outstandingCents,
      hint: 'Still owed on the requests billed',
      history: { days: 'sent', status: OPEN_STATES, words: 'unpaid requests' },
    },
    {
      label: 'Returned',
      cents: figures.returnedCents,
      hint: plural(figures.returnedCount, 'payment returned', 'payments returned'),
      history: { days: 'returned', words: 'returned requests' },
    },
    { label: 'Refunded', cents: figures.refundedCents, hint: plural(figures.refundedCount, 'refund', 'refunds') },
    { label: 'Disputed', cents: figures.disputedCents, hint: `${plural(figures.disputedCount, 'dispute opened', 'disputes opened')}, less won back` },
    {
      label: 'Fees',
      cents: figures.feesCents,
      hint: 'On collections, less fees given back',
      history: { days: 'paid', words: 'paid requests' },
    },
    { label: 'Net', cents: figures.netCents, hint: 'Collected − returned − refunded − disputed − fees' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, xl: 8 }} spacing="sm">
      {cards.map((card) => (
        <Card key={card.label} withBorder radius="md" padding="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {card.label}
          </Text>
          <Text fz={22} fw={700} mt={4} style={wrapAnywhere}>
            {formatMoney(card.cents)}
          </Text>
          <Text size="xs" c="dimmed">
            {card.hint}
          </Text>
          {card.history && (
            <Anchor
              component={Link}
              to={historyHref(range, card.history.days, { status: card.history.status })}
              size="xs"
              className="target-24"
              aria-label={`${card.label} ${formatMoney(card.cents)}: see the ${card.history.words} in the transaction history`}
            >
              See the {card.history.words}
            </Anchor>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
