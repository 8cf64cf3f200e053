import { Alert, Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { daysLeftLabel, disputeSummaryEndpoint, getHref, paths } from '@tay/contract';
import { endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessId } from '../../../lib/session';

/**
 * Home's "Needs response" (ADR 051): how many disputes wait for the business's answer and the
 * days left on the soonest, with the way to them. Nothing while none does.
 */
export function DisputesNotice({ enabled }: { enabled: boolean }) {
  const businessId = useBusinessId();
  const summary = useQuery({ ...endpointQuery(disputeSummaryEndpoint, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) && enabled });
  const s = summary.data;
  if (!s || s.needsResponseCount === 0) return null;
  const many = s.needsResponseCount > 1;
  return (
    <section aria-label="Disputes that need a response">
      <Alert color="orange" variant="light" title="Needs response">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {many ? `${s.needsResponseCount} disputes need` : 'A dispute needs'} your evidence
            {s.nextDueAt ? ` — ${many ? 'the soonest: ' : ''}${daysLeftLabel(s.nextDueAt).toLowerCase()}` : ''}.
          </Text>
          <Button
            component={Link}
            to={getHref(paths.payments.disputes, undefined, { state: 'NeedsResponse', sortBy: 'evidenceDueAt', sortDirection: 'asc' })}
            size="xs"
            color="orange"
          >
            Respond
          </Button>
        </Group>
      </Alert>
    </section>
  );
}
