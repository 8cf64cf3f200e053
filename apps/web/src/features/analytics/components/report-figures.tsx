import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney, PAYABLE_STATES, type ReportFigures as Figures } from '@tay/contract';
import { historyHref } from '../report-dates';

const PAID_STATES = 'Paid,PartiallyPaid';

interface FigureCard {
  label: string;
  cents: number;
  hint: string;
  /** The history narrowed to the requests behind the figure, when a filter of the history matches it. */
  history?: { status?: string; words: string };
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * A report's six figures (ADR 039 defines each): billed, collected, outstanding, returned, fees
 * and net, each with its count and, where the history can show them, a link to its requests.
 */
export function ReportFigures({ figures, range }: { figures: Figures; range: { from: string; to: string } }) {
  const cards: FigureCard[] = [
    {
      label: 'Billed',
      cents: figures.billedCents,
      hint: plural(figures.billedCount, 'request sent', 'requests sent'),
      history: { words: 'requests' },
    },
    {
      label: 'Collected',
      cents: figures.collectedCents,
      hint: plural(figures.collectedCount, 'payment', 'payments'),
      history: { status: PAID_STATES, words: 'paid requests' },
    },
    {
      label: 'Outstanding',
      cents: figures.outstandingCents,
      hint: 'Still owed on the requests billed',
      history: { status: PAYABLE_STATES.join(','), words: 'unpaid requests' },
    },
    { label: 'Returned', cents: figures.returnedCents, hint: plural(figures.returnedCount, 'payment returned', 'payments returned') },
    { label: 'Fees', cents: figures.feesCents, hint: 'On collections, less fees given back' },
    { label: 'Net', cents: figures.netCents, hint: 'Collected − returned − fees' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      {cards.map((card) => (
        <Card key={card.label} withBorder radius="md" padding="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {card.label}
          </Text>
          <Text fz={22} fw={700} mt={4} style={{ overflowWrap: 'anywhere' }}>
            {formatMoney(card.cents)}
          </Text>
          <Text size="xs" c="dimmed">
            {card.hint}
          </Text>
          {card.history && (
            <Anchor
              component={Link}
              to={historyHref(range, card.history.status)}
              size="xs"
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
