import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { QrCodeAction, type QrCode, qrCodeEndpoints } from '@tay/contract';
import { qrCodeDownloadHref, qrCodeManageHref, qrCodeTransactionsHref } from '../../../lib/qr-code-paths';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { useQrCodeCommand, type QrCodeCommand } from '../api/qr-codes-api';

type Target = Pick<QrCode, 'qrId' | 'label'>;

/** How each action reads in a row's menu and on a button. */
export const QR_ACTION_LABELS: Record<QrCodeAction, string> = {
  Edit: 'Edit',
  Enable: 'Enable',
  Disable: 'Disable',
  Delete: 'Delete',
  'View/Download': 'View/Download',
  Transactions: 'Transactions',
};

/** The actions that change nothing: all a person may use who cannot change the business's codes. */
const READ_ONLY: ReadonlySet<QrCodeAction> = new Set(['View/Download', 'Transactions']);

/** The code's actions (as the API lists them, from `qrCodeActions`), less those that change it when the person may not. */
export function permittedQrCodeActions(actions: readonly string[], canWrite: boolean): QrCodeAction[] {
  const known = actions.filter((a): a is QrCodeAction => (QrCodeAction.options as readonly string[]).includes(a));
  return canWrite ? known : known.filter((a) => READ_ONLY.has(a));
}

const DONE: Record<QrCodeCommand, { title: string; verb: string; text: (label: string) => string }> = {
  enable: { title: 'QR code enabled', verb: 'enabled', text: (label) => `“${label}” takes payments again.` },
  disable: { title: 'QR code disabled', verb: 'disabled', text: (label) => `“${label}” takes no payments; payers who scan it are told so.` },
  delete: { title: 'QR code deleted', verb: 'deleted', text: (label) => `“${label}” is gone.` },
};

/**
 * What each action does, the same from a list row and from a code's page: Edit, View/Download and
 * Transactions open their pages; Enable and Disable happen at once; Delete asks first. Each
 * change is said in a toast.
 */
export function useQrCodeActions({ onDeleted }: { onDeleted?: () => void } = {}) {
  const navigate = useNavigate();
  const canWrite = useEndpointAccess(qrCodeEndpoints.create).allowed;
  const command = useQrCodeCommand();

  const change = (code: Target, name: QrCodeCommand) =>
    command.mutate(
      { qrId: code.qrId, command: name },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: DONE[name].title, message: DONE[name].text(code.label) });
          if (name === 'delete') onDeleted?.();
        },
        onError: (error) => notifications.show({ color: 'red', title: `“${code.label}” was not ${DONE[name].verb}`, message: error.message }),
      },
    );

  const confirmDelete = (code: Target) =>
    modals.openConfirmModal({
      title: `Delete “${code.label}”?`,
      children: <Text size="sm">The code is removed for good. Printed copies stop working: payers who scan them are told the code is not available.</Text>,
      labels: { confirm: 'Yes, delete', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(code, 'delete'),
    });

  const run = (action: QrCodeAction, code: Target) => {
    switch (action) {
      case 'Edit':
        return void navigate(qrCodeManageHref(code.qrId));
      case 'Enable':
        return change(code, 'enable');
      case 'Disable':
        return change(code, 'disable');
      case 'Delete':
        return confirmDelete(code);
      case 'View/Download':
        return void navigate(qrCodeDownloadHref(code.qrId));
      case 'Transactions':
        return void navigate(qrCodeTransactionsHref(code.qrId));
    }
  };

  return { run, canWrite, pending: command.isPending };
}
