import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  formatDay,
  formatMoney,
  MONEY_RULES,
  paths,
  RECEIVER_VERIFICATION_LABELS,
  type EventCheckIn,
  type EventCheckInList,
  type EventCheckInQuery,
} from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { ReceiverReviewBadge } from '../../../components/ui/receiver-review-badge';
import { baseListQuery, listTableProps, useListParams } from '../../../lib/list-params';
import { useBusinessId } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { downloadCheckInsCsv, useEventCheckIns, useReviewCheckedInReceiver } from '../api/events-api';
import { exportCsv } from '../../../components/ui/list-filters';
import { useBusinessTime } from '../../../lib/business-time';

const SORTS = ['checkedInAt', 'name'] as const;

export interface EventCheckInsPageProps {
  /**
   * Buttons beside the title, given the event and its check-ins' first page: where "Pay checked-in
   * receivers" goes (it makes a payouts batch, ADR 035).
   */
  actions?: (data: EventCheckInList) => ReactNode;
}

/** /business/payouts/qrcode/check-ins?eventId= — Event Check-Ins: who checked in, when, and the payout that paid each. */
export function EventCheckInsPage({ actions: headerActions }: EventCheckInsPageProps = {}) {
  const [params] = useSearchParams();
  const eventId = params.get('eventId') ?? '';
  const businessId = useBusinessId();
  const clock = useBusinessTime();
  const listParams = useListParams();
  const { update, page, pageSize } = listParams;
  const query: EventCheckInQuery = baseListQuery(listParams, SORTS, 'checkedInAt');
  const list = useEventCheckIns(eventId, query);
  const event = list.data?.event;
  useDocumentTitle(event ? `Check-ins: ${event.name}` : 'Event check-ins');
  const canReview = useRoleAllows(MONEY_RULES.approvePayout.access);
  const review = useReviewCheckedInReceiver();
  const unreviewed = event?.unreviewedCheckInsCount ?? 0;

  const actions = (c: EventCheckIn): RowAction<EventCheckIn>[] =>
    canReview && !c.receiverReviewed
      ? [
          {
            label: 'Mark reviewed',
            onClick: (row) =>
              review.mutate(row.receiverId, {
                onSuccess: () =>
                  notifications.show({
                    color: 'teal',
                    title: 'Receiver reviewed',
                    message: `${row.receiverName} is included when you pay checked-in receivers.`,
                  }),
                onError: (error) => notifications.show({ color: 'red', title: `${row.receiverName} was not marked reviewed`, message: error.message }),
              }),
          },
        ]
      : [];

  const columns: Column<EventCheckIn>[] = [
    {
      key: 'name',
      header: 'Receiver',
      sortKey: 'name',
      render: (c) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm">{c.receiverName}</Text>
          <ReceiverReviewBadge reviewed={c.receiverReviewed} addedVia={c.addedVia} />
        </Stack>
      ),
    },
    { key: 'email', header: 'E-mail', render: (c) => c.email },
    {
      key: 'verification',
      header: 'Verification',
      render: (c) => (
        <Badge color={c.verification === 'verified' ? 'blue' : 'yellow'} variant="light">
          {RECEIVER_VERIFICATION_LABELS[c.verification]}
        </Badge>
      ),
    },
    { key: 'checkedInAt', header: 'Checked in', sortKey: 'checkedInAt', render: (c) => clock.dateTime(c.checkedInAt) },
    { key: 'payout', header: 'Payout', render: (c) => c.payoutId ?? 'Not paid yet' },
  ];

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.payouts.events} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden="true" />
          Events
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Event Check-Ins</Title>
          {event && (
            <Text c="dimmed" size="sm">
              {event.name} · {formatDay(event.eventDate)}
              {event.place ? ` · ${event.place}` : ''} · {formatMoney(event.amountCents)} per check-in
            </Text>
          )}
        </div>
        {list.data && headerActions ? <Group>{headerActions(list.data)}</Group> : null}
      </Group>
      {unreviewed > 0 && (
        <Alert color="orange" title={`${unreviewed.toLocaleString('en-US')} new ${unreviewed === 1 ? 'receiver' : 'receivers'} not reviewed`}>
          Anyone holding this event’s link can check in, so a check-in by someone new is left out of “Pay checked-in receivers” until an owner or admin reviews
          them{canReview ? ': use Mark reviewed on their row once you know who they are.' : '.'}
        </Alert>
      )}
      {!eventId ? (
        <Text>
          Choose an event on the{' '}
          <Anchor component={Link} to={paths.payouts.events}>
            events page
          </Anchor>{' '}
          to see who checked in.
        </Text>
      ) : (
        <DataTable
          caption="Check-ins"
          columns={columns}
          {...listTableProps(list, query, { update, page, pageSize }, { sortBy: 'checkedInAt', sortDirection: 'desc' })}
          rowKey={(c) => c.receiverId}
          actions={actions}
          searchPlaceholder="Name or e-mail"
          onExport={() => businessId && exportCsv(downloadCheckInsCsv(businessId, eventId, query))}
          empty={{
            title: 'No check-ins yet',
            description: 'People check in by scanning the event’s QR code with their phone. Download it on the events page.',
            action: (
              <Button mt="xs" variant="default" component={Link} to={paths.payouts.events}>
                Back to events
              </Button>
            ),
          }}
        />
      )}
    </Stack>
  );
}
