import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from 'react-router';
import { formatMoney, type InvoiceAction, type InvoiceListItem, invoiceEndpoints } from '@tay/contract';
import { copyInvoiceHref, editInvoiceHref, invoicePaths } from '../../../lib/invoice-paths';
import { useBusinessId } from '../../../lib/session';
import { useEndpointAccess } from '../../../lib/endpoint-access';
import { downloadInvoicePdf, useInvoiceCommand, type InvoiceCommand } from '../api/invoices-api';

type Target = Pick<InvoiceListItem, 'invoiceId' | 'number' | 'payerName' | 'totalCents'>;

/** How each action reads on a button and in a row's menu. */
export const INVOICE_ACTION_LABELS: Record<InvoiceAction, string> = {
  Edit: 'Edit',
  Copy: 'Copy',
  Delete: 'Delete',
  Cancel: 'Cancel',
  Resend: 'Resend',
  Withdraw: 'Withdraw',
  'View/Download': 'Download PDF',
};

const KNOWN = new Set<string>(Object.keys(INVOICE_ACTION_LABELS));

/** The actions that undo or end something: red, and confirmed first. */
export const DANGEROUS_ACTIONS: ReadonlySet<InvoiceAction> = new Set(['Delete', 'Cancel', 'Withdraw']);

/** The invoice's actions (as the API lists them, from `invoiceActions`), less those that change anything when the person may not. */
export function permittedInvoiceActions(actions: readonly string[], canWrite: boolean): InvoiceAction[] {
  const known = actions.filter((a): a is InvoiceAction => KNOWN.has(a));
  return canWrite ? known : known.filter((a) => a === 'View/Download');
}

const CONFIRM: Record<InvoiceCommand, { title: string; verb: string; confirm: string; text: (i: Target) => string }> = {
  delete: { title: 'Delete', verb: 'deleted', confirm: 'Yes, delete', text: () => 'The draft is removed for good.' },
  cancel: { title: 'Cancel', verb: 'cancelled', confirm: 'Yes, cancel it', text: (i) => `The scheduled invoice will not be sent to ${i.payerName}.` },
  resend: {
    title: 'Resend',
    verb: 'resent',
    confirm: 'Yes, resend',
    text: (i) => `${i.payerName} gets the invoice again with a new link; earlier links stop working.`,
  },
  withdraw: {
    title: 'Withdraw',
    verb: 'withdrawn',
    confirm: 'Yes, withdraw',
    text: (i) => `${i.payerName} can no longer pay it; their page will say it was withdrawn.`,
  },
};

/**
 * What each action does, the same from a list row and from the details: Edit and Copy open the
 * form, the PDF downloads, and the commands are confirmed first, then said in a toast.
 */
export function useInvoiceActions({ onDeleted }: { onDeleted?: () => void } = {}) {
  const navigate = useNavigate();
  const businessId = useBusinessId();
  const canWrite = useEndpointAccess(invoiceEndpoints.create).allowed;
  const command = useInvoiceCommand();

  const confirm = (invoice: Target, name: InvoiceCommand) => {
    const c = CONFIRM[name];
    modals.openConfirmModal({
      title: `${c.title} ${invoice.number}?`,
      children: <Text size="sm">{c.text(invoice)}</Text>,
      labels: { confirm: c.confirm, cancel: 'Keep it' },
      confirmProps: name === 'resend' ? {} : { color: 'red' },
      onConfirm: () =>
        command.mutate(
          { invoiceId: invoice.invoiceId, command: name },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', title: `Invoice ${c.verb}`, message: `${invoice.number} for ${formatMoney(invoice.totalCents)}.` });
              if (name === 'delete') onDeleted?.();
            },
            onError: (error) => notifications.show({ color: 'red', title: `${invoice.number} was not ${c.verb}`, message: error.message }),
          },
        ),
    });
  };

  const download = (invoice: Target) => {
    if (!businessId) return;
    void downloadInvoicePdf(businessId, invoice).catch((error: Error) =>
      notifications.show({ color: 'red', title: 'The PDF could not be downloaded', message: error.message }),
    );
  };

  const run = (action: InvoiceAction, invoice: Target) => {
    switch (action) {
      case 'Edit':
        return void navigate(editInvoiceHref(invoice.invoiceId));
      case 'Copy':
        return void navigate(copyInvoiceHref(invoice.invoiceId));
      case 'Delete':
        return confirm(invoice, 'delete');
      case 'Cancel':
        return confirm(invoice, 'cancel');
      case 'Resend':
        return confirm(invoice, 'resend');
      case 'Withdraw':
        return confirm(invoice, 'withdraw');
      case 'View/Download':
        return download(invoice);
    }
  };

  return { run, canWrite, pending: command.isPending };
}

/** "New invoice": the way to a new draft, or a disabled button when the person may not write invoices. */
export function NewInvoiceButton({ allowed }: { allowed: boolean }) {
  return allowed ? (
    <Button component={Link} to={invoicePaths.draft} leftSection={<IconPlus size={16} />}>
      New invoice
    </Button>
  ) : (
    <Button leftSection={<IconPlus size={16} />} disabled>
      New invoice
    </Button>
  );
}
