import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { getHref, MONEY_RULES, paths, ReceiverAction, type Receiver, receiverEndpoints } from '@tay/contract';
import { useRoleAllows, useEndpointAccess } from '../../../lib/endpoint-access';
import { useReceiverCommand, type ReceiverCommand } from '../api/receivers-api';

/** The actions that change nothing: all a person may use who cannot change the business's receivers. */
const READ_ONLY: ReadonlySet<ReceiverAction> = new Set(['Transactions']);

/**
 * The receiver's actions (as the API lists them, from `receiverActions`), less those that change
 * it when the person may not; Mark reviewed only for who may review (an owner or admin).
 */
export function permittedReceiverActions(actions: readonly string[], canWrite: boolean, canReview = false): ReceiverAction[] {
  const known = actions.filter((a): a is ReceiverAction => (ReceiverAction.options as readonly string[]).includes(a));
  return (canWrite ? known : known.filter((a) => READ_ONLY.has(a))).filter((a) => a !== 'Mark reviewed' || (canWrite && canReview));
}

/** A receiver's payouts: the payouts list filtered to them. */
export const receiverTransactionsHref = (receiverId: string) => getHref(paths.payouts.transactions, undefined, { receiverId });

const nameOf = (r: Pick<Receiver, 'firstName' | 'lastName'>) => `${r.firstName} ${r.lastName}`;

const DONE: Record<ReceiverCommand, { title: string; verb: string; text: (r: Receiver) => string }> = {
  enable: { title: 'Receiver enabled', verb: 'enabled', text: (r) => `${nameOf(r)} can be paid again.` },
  disable: { title: 'Receiver disabled', verb: 'disabled', text: (r) => `${nameOf(r)} cannot be paid until you enable them.` },
  resendLink: { title: 'Link sent', verb: 'sent a new link', text: (r) => `We e-mailed ${r.email} a new secure link; the previous one no longer works.` },
  review: { title: 'Receiver reviewed', verb: 'marked reviewed', text: (r) => `${nameOf(r)} can now be paid in bulk payouts.` },
  delete: { title: 'Receiver deleted', verb: 'deleted', text: (r) => `${nameOf(r)} is gone.` },
};

/**
 * What each row action does: Edit opens the form, Transactions the receiver's payouts; Disable and
 * Delete ask first; Enable and Resend verification happen at once. Each change is said in a toast.
 */
export function useReceiverActions({ onEdit }: { onEdit: (receiver: Receiver) => void }) {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(receiverEndpoints.create).allowed;
  const canReview = useRoleAllows(MONEY_RULES.approvePayout.access);
  const command = useReceiverCommand();

  const change = (receiver: Receiver, name: ReceiverCommand) =>
    command.mutate(
      { receiverId: receiver.receiverId, command: name },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(receiver) }),
        onError: (error) => notifications.show({ color: 'red', title: `${nameOf(receiver)} was not ${DONE[name].verb}`, message: error.message }),
      },
    );

  const confirm = (receiver: Receiver, name: 'disable' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete ${nameOf(receiver)}?` : `Disable ${nameOf(receiver)}?`,
      children: (
        <Text size="sm">
          {name === 'delete'
            ? 'The receiver and the bank account they entered are removed for good.'
            : 'They cannot be paid until you enable them again. Nothing already sent changes.'}
        </Text>
      ),
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, disable', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(receiver, name),
    });

  const run = (action: ReceiverAction, receiver: Receiver) => {
    switch (action) {
      case 'Edit':
        return onEdit(receiver);
      case 'Enable':
        return change(receiver, 'enable');
      case 'Disable':
        return confirm(receiver, 'disable');
      case 'Delete':
        return confirm(receiver, 'delete');
      case 'Resend verification':
        return change(receiver, 'resendLink');
      case 'Mark reviewed':
        return change(receiver, 'review');
      case 'Transactions':
        return void navigate(receiverTransactionsHref(receiver.receiverId));
    }
  };

  return { run, canWrite, canReview };
}
