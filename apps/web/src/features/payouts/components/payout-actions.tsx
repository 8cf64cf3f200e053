import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatMoney, MONEY_RULES, type Payout, type PayoutAction } from '@tay/contract';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { usePayoutCommand, type PayoutCommand } from '../api/payouts-api';
import { payoutFormHref } from '../payout-paths';

/** Which of the API's actions this member may take: approving and rejecting need an owner or admin. */
export function permittedPayoutActions(actions: readonly PayoutAction[], canOperate: boolean, canApprove: boolean): PayoutAction[] {
  return actions.filter((a) => {
    if (a === 'Approve' || a === 'Reject') return canApprove;
    return canOperate;
  });
}

export const PAYOUT_ACTION_LABELS: Record<PayoutAction, string> = {
  Edit: 'Edit',
  Submit: 'Submit',
  Approve: 'Approve',
  Reject: 'Reject',
  Cancel: 'Cancel payout',
  Copy: 'Copy as new',
};

/**
 * Runs a payout's actions with their confirmations: Reject asks for a reason, Approve and Submit
 * show what leaves the balance; each outcome, and a refusal (the shortfall), is a toast.
 */
export function usePayoutActions(feeCents: number) {
  const navigate = useNavigate();
  const command = usePayoutCommand();
  const canOperate = useRoleAllows('business:operate');
  const canApprove = useRoleAllows(MONEY_RULES.approvePayout.access);
  const [rejecting, setRejecting] = useState<Payout | null>(null);
  const [confirming, setConfirming] = useState<{ payout: Payout; action: 'submit' | 'approve' } | null>(null);
  const [reason, setReason] = useState('');

  const perform = async (payout: Payout, which: PayoutCommand, extra: { reason?: string } = {}) => {
    try {
      const result = await command.mutateAsync({ payoutId: payout.payoutId, command: which, ...extra });
      const done: Record<PayoutCommand, string> = {
        submit: result?.state === 'Approved' ? 'approved and on its way' : 'submitted for approval',
        approve: 'approved and on its way',
        reject: 'rejected',
        cancel: 'cancelled',
        delete: 'deleted',
      };
      notifications.show({
        color: 'green',
        title: `${payout.reference} ${done[which]}`,
        message: `${formatMoney(payout.amountCents)} to ${payout.receiverName}.`,
      });
      return true;
    } catch (error) {
      notifications.show({ color: 'red', title: `${payout.reference} was not changed`, message: (error as Error).message });
      return false;
    }
  };

  const run = (action: PayoutAction, payout: Payout) => {
    switch (action) {
      case 'Edit':
      case 'Copy':
        void navigate(payoutFormHref(payout.payoutId));
        return;
      case 'Reject':
        setReason('');
        setRejecting(payout);
        return;
      case 'Submit':
      case 'Approve':
        setConfirming({ payout, action: action === 'Submit' ? 'submit' : 'approve' });
        return;
      case 'Cancel':
        void perform(payout, 'cancel');
        return;
    }
  };

  const modals = (
    <>
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={`Reject ${rejecting?.reference ?? ''}`}>
        <Stack>
          <Textarea
            label="Reason"
            description="The submitter sees it on the payout."
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={500}
            required
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(null)}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={command.isPending}
              disabled={reason.trim().length === 0}
              onClick={() => rejecting && void perform(rejecting, 'reject', { reason: reason.trim() }).then((ok) => ok && setRejecting(null))}
            >
              Reject payout
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={confirming?.action === 'approve' ? 'Approve payout' : 'Submit payout'}>
        {confirming && (
          <Stack>
            <Text>
              {formatMoney(confirming.payout.amountCents)} to {confirming.payout.receiverName}, plus a {formatMoney(feeCents)} fee:{' '}
              <strong>{formatMoney(confirming.payout.amountCents + feeCents)}</strong> from the available balance once approved.
            </Text>
            {confirming.action === 'approve' && !confirming.payout.receiverReviewed && (
              <Text size="sm" c="orange.9">
                {confirming.payout.receiverName} was added by a member or a check-in, and no owner or admin has reviewed them yet. Approving marks them
                reviewed.
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                Not now
              </Button>
              <Button loading={command.isPending} onClick={() => void perform(confirming.payout, confirming.action).then((ok) => ok && setConfirming(null))}>
                {confirming.action === 'approve' ? 'Approve' : 'Submit'}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );

  return { run, modals, canOperate, canApprove, pending: command.isPending };
}
