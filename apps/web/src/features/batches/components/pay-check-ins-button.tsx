import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconCash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { formatMoney, paths } from '@tay/contract';
import { usePayCheckIns } from '../api/batches-api';

/**
 * "Pay checked-in receivers" on an event's check-ins (ADR 035): the check-ins no payout pays yet
 * become one payouts batch, checked like an uploaded file, and the review opens on it.
 */
export function PayCheckInsButton({
  eventId,
  eventName,
  checkIns,
  amountCents,
  disabled,
}: {
  eventId: string;
  eventName: string;
  /** Check-ins of the event (none: nothing to pay). */
  checkIns: number;
  amountCents: number;
  disabled?: boolean;
}) {
  const pay = usePayCheckIns();
  const navigate = useNavigate();
  const confirm = () =>
    modals.openConfirmModal({
      title: 'Pay checked-in receivers?',
      children: (
        <Text size="sm">
          Every check-in to {eventName} that no payout pays yet becomes a row of one payouts batch, at {formatMoney(amountCents)} each, for you to review.
          Nothing is paid until you submit it, and a check-in is never paid twice.
        </Text>
      ),
      labels: { confirm: 'Make the batch', cancel: 'Not now' },
      onConfirm: () =>
        pay.mutate(eventId, {
          onSuccess: (batch) => {
            notifications.show({ color: 'teal', title: 'Batch ready for review', message: `${batch.fileName}: check the rows, then submit.` });
            void navigate(`${paths.payouts.bulkReview}?batchId=${encodeURIComponent(batch.batchId)}`);
          },
          onError: (error) => notifications.show({ color: 'red', title: 'No batch was made', message: error.message }),
        }),
    });
  return (
    <Button leftSection={<IconCash size={16} />} onClick={confirm} loading={pay.isPending} disabled={disabled === true || checkIns === 0}>
      Pay checked-in receivers
    </Button>
  );
}
