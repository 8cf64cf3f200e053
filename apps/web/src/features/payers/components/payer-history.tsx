import { Card, Text, Timeline, Title } from '@mantine/core';
import { LoadError } from '../../../components/ui/load-error';
import { PageLoader } from '../../../components/ui/page-loader';
import { useBusinessTime } from '../../../lib/business-time';
import { usePayerHistory } from '../api/payers-api';

/** The payer's history: every change to it, who made it and when, newest first. */
export function PayerHistoryCard({ payerId }: { payerId: string }) {
  const history = usePayerHistory(payerId);
  const clock = useBusinessTime();
  const data = history.data;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="payer-history-title">
      <Title id="payer-history-title" order={2} fz="lg" mb="sm">
        History
      </Title>
      {history.error ? (
        <LoadError title="We could not load this payer’s history" error={history.error} onRetry={() => void history.refetch()} />
      ) : !data ? (
        <PageLoader />
      ) : data.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes recorded.
        </Text>
      ) : (
        <>
          <Timeline bulletSize={14} lineWidth={2}>
            {data.items.map((e) => (
              <Timeline.Item key={e.eventId} title={e.text}>
                <Text size="xs" c="dimmed">
                  {clock.dateTime(e.createdAt)} · {e.actor === 'payer' ? 'the payer' : e.actor}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
          {data.more && (
            <Text size="xs" c="dimmed" mt="sm">
              Only the newest {data.items.length} changes are shown.
            </Text>
          )}
        </>
      )}
    </Card>
  );
}
