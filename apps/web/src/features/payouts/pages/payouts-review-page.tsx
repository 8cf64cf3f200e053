import { Alert, Button, Card, Group, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { formatDay, formatMoney, type Payout } from '@tay/contract';
import { LoadError } from '../../../components/ui/load-error';
import { ReceiverReviewBadge } from '../../../components/ui/receiver-review-badge';
import { PageLoader } from '../../../components/ui/page-loader';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAvailableBalance, useBatchDecision, usePayoutList, usePayoutSettings } from '../api/payouts-api';
import { PAYOUT_ACTION_LABELS, permittedPayoutActions, usePayoutActions } from '../components/payout-actions';

/** Payouts waiting for approval: single ones apart, each bulk batch as one group. */
export function groupForReview(payouts: readonly Payout[]): { singles: Payout[]; batches: { batchId: string; payouts: Payout[]; totalCents: number }[] } {
  const singles: Payout[] = [];
  const byBatch = new Map<string, Payout[]>();
  for (const p of payouts) {
    if (p.batchId) byBatch.set(p.batchId, [...(byBatch.get(p.batchId) ?? []), p]);
    else singles.push(p);
  }
  return {
    singles,
    batches: [...byBatch].map(([batchId, list]) => ({ batchId, payouts: list, totalCents: list.reduce((s, p) => s + p.amountCents, 0) })),
  };
}

/**
 * Whether the server will refuse this person's decision on the payout: while a second approver is
 * required — by the business now, or by the rule the payout was submitted under — whoever
 * submitted it or created it may not decide it (403).
 */
export function isOwnSubmission(
  payout: Pick<Payout, 'submittedBy' | 'createdByUserId' | 'secondApproverRequired'>,
  me: { email?: string | undefined; userId?: string | undefined },
  approvalRequired: boolean,
): boolean {
  if (!approvalRequired && !payout.secondApproverRequired) return false;
  const submitted = !!me.email && !!payout.submittedBy && payout.submittedBy.toLowerCase() === me.email.toLowerCase();
  const created = !!me.userId && payout.createdByUserId === me.userId;
  return submitted || created;
}

export const OWN_SUBMISSION_NOTE = 'You submitted or created this payout; another person must approve it.';

/** /business/payouts/payment/request/payoutsreview: the approval queue, with its totals against the available balance. */
export function PayoutsReviewPage() {
  useDocumentTitle('Approve payouts');
  const list = usePayoutList({ state: 'Submitted', pageSize: 100, sortBy: 'createdAt', sortDirection: 'asc' });
  const balance = useAvailableBalance();
  const settings = usePayoutSettings();
  const fee = settings.data?.feeCents ?? 0;
  const { run, modals, canApprove } = usePayoutActions(fee);
  const { user } = useSession();
  const me = { email: user?.email, userId: user?.id };
  const approvalRequired = settings.data?.approvalRequired ?? false;
  const own = (p: Payout) => isOwnSubmission(p, me, approvalRequired);
  const decision = useBatchDecision();
  const [rejectingBatch, setRejectingBatch] = useState<string | null>(null);
  const [reason, setReason] = useState('');

  if (list.isPending) return <PageLoader />;
  if (list.error) return <LoadError title="The approval queue could not be loaded" error={list.error} onRetry={() => void list.refetch()} />;
  const payouts = list.data.items;
  const { singles, batches } = groupForReview(payouts);
  const needed = payouts.reduce((s, p) => s + p.amountCents + fee, 0);
  const available = balance.data?.availableCents ?? 0;

  const decide = async (batchId: string, approve: boolean) => {
    try {
      const result = await decision.mutateAsync({ batchId, approve, reason: reason.trim() });
      notifications.show({ color: 'green', title: `Batch ${approve ? 'approved' : 'rejected'}`, message: `${result.payouts.length} payouts.` });
      setRejectingBatch(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The batch was not changed', message: (error as Error).message });
    }
  };

  // A phone is narrower than these columns: the table scrolls sideways inside its card, so the
  // last column's Approve and Reject stay reachable instead of being cut off by the card's edge.
  const rows = (items: Payout[]) => (
    <Table.ScrollContainer minWidth={640}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Receiver</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Pay on</Table.Th>
            <Table.Th>Submitted by</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((p) => (
            <Table.Tr key={p.payoutId}>
              <Table.Td>{p.reference}</Table.Td>
              <Table.Td>
                {p.receiverName}
                <ReceiverReviewBadge reviewed={p.receiverReviewed} />
              </Table.Td>
              <Table.Td ta="right">{formatMoney(p.amountCents)}</Table.Td>
              <Table.Td>{p.payOn ? formatDay(p.payOn) : 'Once approved'}</Table.Td>
              <Table.Td>{p.submittedBy ?? '—'}</Table.Td>
              <Table.Td>
                {!p.batchId &&
                  (canApprove && own(p) ? (
                    <Text size="sm" c="dimmed" ta="right">
                      {OWN_SUBMISSION_NOTE}
                    </Text>
                  ) : (
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {permittedPayoutActions(p.actions, true, canApprove)
                        .filter((a) => a === 'Approve' || a === 'Reject')
                        .map((a) => (
                          <Button
                            key={a}
                            size="xs"
                            variant={a === 'Approve' ? 'filled' : 'default'}
                            color={a === 'Reject' ? 'red' : undefined}
                            onClick={() => run(a, p)}
                          >
                            {PAYOUT_ACTION_LABELS[a]}
                          </Button>
                        ))}
                    </Group>
                  ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Approve payouts</Title>
        <Text c="dimmed" size="sm">
          Approving takes the amount and the {formatMoney(fee)} fee of each payout from the available balance and sends it.
        </Text>
      </div>
      <Group>
        <Text>
          Waiting: <strong>{payouts.length}</strong> payouts, <strong>{formatMoney(needed)}</strong> with fees.
        </Text>
        <Text>
          Available: <strong>{formatMoney(available)}</strong>
        </Text>
      </Group>
      {needed > available && payouts.length > 0 && (
        <Alert color="yellow" title="Not everything can be approved">
          Approving every payout here needs {formatMoney(needed - available)} more than the available balance.
        </Alert>
      )}
      {!canApprove && <Alert color="gray">Only an owner or admin can approve or reject payouts.</Alert>}
      {canApprove && payouts.some((p) => !p.receiverReviewed) && (
        <Alert color="orange" title="New receivers">
          Some payouts here go to receivers a member or a check-in added, whom no owner or admin has reviewed yet. Check who they are before you approve:
          approving a payout marks its receiver reviewed.
        </Alert>
      )}
      {payouts.length === 0 && <Text c="dimmed">Nothing waits for approval.</Text>}
      {batches.map((b) => (
        <Card key={b.batchId} withBorder>
          <Group justify="space-between" mb="xs">
            <Text fw={600}>
              Batch {b.batchId}: {b.payouts.length} payouts, {formatMoney(b.totalCents + b.payouts.length * fee)} with fees
            </Text>
            {canApprove && b.payouts.some(own) && (
              <Text size="sm" c="dimmed">
                You submitted or created payouts in this batch; another person must approve it.
              </Text>
            )}
            {canApprove && !b.payouts.some(own) && (
              <Group gap="xs">
                <Button size="xs" loading={decision.isPending} onClick={() => void decide(b.batchId, true)}>
                  Approve batch
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="default"
                  onClick={() => {
                    setReason('');
                    setRejectingBatch(b.batchId);
                  }}
                >
                  Reject batch
                </Button>
              </Group>
            )}
          </Group>
          {rows(b.payouts)}
        </Card>
      ))}
      {singles.length > 0 && <Card withBorder>{rows(singles)}</Card>}
      {modals}
      <Modal opened={rejectingBatch !== null} onClose={() => setRejectingBatch(null)} title={`Reject batch ${rejectingBatch ?? ''}`}>
        <Stack>
          <Textarea label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={500} required autosize minRows={2} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejectingBatch(null)}>
              Keep it
            </Button>
            <Button color="red" disabled={!reason.trim()} loading={decision.isPending} onClick={() => rejectingBatch && void decide(rejectingBatch, false)}>
              Reject batch
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
