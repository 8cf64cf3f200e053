import { Alert, Button, Drawer, Group, Loader, Stack, Table, Text, Timeline } from '@mantine/core';
import { formatDay, formatMoney, type Payout, type PayoutAction } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { usePayout } from '../api/payouts-api';
import { PAYOUT_ACTION_LABELS, permittedPayoutActions } from './payout-actions';
import { PayoutStateBadge } from './payout-state-badge';
import { useBusinessTime } from '../../../lib/business-time';

/** One payout: who, how much, where (masked), who submitted and approved, why it stopped, its timeline and actions. */
export function PayoutDetailDrawer({
  payoutId,
  onClose,
  onAction,
  canOperate,
  canApprove,
}: {
  payoutId: string | null;
  onClose: () => void;
  onAction: (action: PayoutAction, payout: Payout) => void;
  canOperate: boolean;
  canApprove: boolean;
}) {
  const detail = usePayout(payoutId);
  const clock = useBusinessTime();
  const p = detail.data;
  const rows: [string, string][] = p
    ? [
        ['Receiver', `${p.receiver.name} (${p.receiver.email})`],
        ['Bank account', p.receiver.accountMasked ? `${p.receiver.bankName ?? 'Bank'} ${p.receiver.accountMasked}` : 'Not entered yet'],
        ['Amount', formatMoney(p.amountCents)],
        ['Fee', p.feeCents > 0 ? formatMoney(p.feeCents) : 'Fixed at approval'],
        ['Memo', p.memo || '—'],
        ['Pay on', p.payOn ? formatDay(p.payOn) : 'As soon as approved'],
        ['Submitted by', p.submittedBy ?? '—'],
        ['Approved by', p.approvedBy ?? '—'],
        ...(p.batchId ? ([['Batch', p.batchId]] as [string, string][]) : []),
      ]
    : [];
  const actions = p ? permittedPayoutActions(p.actions, canOperate, canApprove) : [];
  return (
    <Drawer opened={payoutId !== null} onClose={onClose} position="right" size="lg" title={p ? `Payout ${p.reference}` : 'Payout'}>
      {detail.isPending && <Loader />}
      {detail.error && <LoadError title="The payout could not be loaded" error={detail.error} onRetry={() => void detail.refetch()} />}
      {p && (
        <Stack>
          <Group justify="space-between">
            <PayoutStateBadge state={p.state} />
            <Text fw={700} fz="xl">
              {formatMoney(p.amountCents)}
            </Text>
          </Group>
          {p.rejectReason && (
            <Alert color="red" title="Rejected">
              {p.rejectReason}
            </Alert>
          )}
          {p.failureReason && (
            <Alert color="red" title="Not paid">
              {p.failureReason}
            </Alert>
          )}
          <Table>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={140}>{label}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {actions.length > 0 && (
            <Group>
              {actions.map((a) => (
                <Button
                  key={a}
                  variant={a === 'Approve' || a === 'Submit' ? 'filled' : 'default'}
                  color={a === 'Reject' || a === 'Cancel' ? 'red' : undefined}
                  onClick={() => onAction(a, p)}
                >
                  {PAYOUT_ACTION_LABELS[a]}
                </Button>
              ))}
            </Group>
          )}
          <Text fw={600}>Timeline</Text>
          <Timeline bulletSize={14} lineWidth={2}>
            {p.timeline.map((e, i) => (
              <Timeline.Item key={i} title={e.toState ? `${e.event} → ${e.toState}` : e.event}>
                {e.detail && (
                  <Text size="sm" c="dimmed">
                    {e.detail}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {clock.dateTime(e.at)}
                  {e.actor ? ` · ${e.actor}` : ''}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      )}
    </Drawer>
  );
}
