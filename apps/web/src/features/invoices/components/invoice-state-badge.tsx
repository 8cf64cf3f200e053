import { Badge, Group } from '@mantine/core';
import { INVOICE_STATE_LABELS, type InvoiceState } from '@tay/contract';

const COLORS: Record<InvoiceState, string> = {
  Draft: 'gray',
  Scheduled: 'indigo',
  Sent: 'blue',
  Resent: 'blue',
  PartiallyPaid: 'lime',
  Paid: 'teal',
  Rejected: 'orange',
  Expired: 'gray',
  Withdrawn: 'dark',
  Cancelled: 'dark',
};

/** An invoice's state as a badge, and a red "Overdue" beside it when it is still owed past its due date. */
export function InvoiceStateBadge({ state, overdue }: { state: InvoiceState; overdue: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={COLORS[state]} variant="light" radius="sm" data-state={state}>
        {INVOICE_STATE_LABELS[state]}
      </Badge>
      {overdue && (
        <Badge color="red" variant="filled" radius="sm">
          Overdue
        </Badge>
      )}
    </Group>
  );
}
