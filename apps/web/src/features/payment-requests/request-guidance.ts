import { requestActions, type RequestAction, type RequestState } from '@tay/contract';

/** How each row action reads on a button and in a menu. */
export const ACTION_LABELS: Record<RequestAction, string> = {
  Edit: 'Edit',
  Copy: 'Copy',
  Delete: 'Delete',
  Cancel: 'Cancel',
  Resend: 'Resend',
  Withdraw: 'Withdraw',
  'View/Download': 'View/Download receipt',
};

/** Each action as the end of "You can …". */
const ACTION_PHRASES: Record<RequestAction, string> = {
  Edit: 'edit it',
  Copy: 'copy it into a new request',
  Delete: 'delete it',
  Cancel: 'cancel it so it is never sent',
  Resend: 'resend it with a new link',
  Withdraw: 'withdraw it so it can no longer be paid',
  'View/Download': 'view or download the receipt',
};

type Situation = (payer: string) => { title: string; text: string; color: string };

const SITUATIONS: Record<RequestState, Situation> = {
  Draft: (p) => ({ title: 'Not sent yet', text: `This draft has not gone to ${p}.`, color: 'gray' }),
  Pending: (p) => ({ title: 'Scheduled', text: `It goes to ${p} at the scheduled time.`, color: 'blue' }),
  Sent: (p) => ({ title: 'Waiting for payment', text: `${p} has the link and has not paid yet.`, color: 'blue' }),
  Resent: (p) => ({ title: 'Waiting for payment', text: `${p} has a new link and has not paid yet; earlier links no longer work.`, color: 'blue' }),
  Accepted: (p) => ({ title: 'Payment on its way', text: `${p} paid; the money is being settled.`, color: 'teal' }),
  Paid: () => ({ title: 'Paid in full', text: 'Nothing remains to pay.', color: 'teal' }),
  PartiallyPaid: (p) => ({ title: 'Partly paid', text: `${p} can pay the rest from the same link until it expires.`, color: 'teal' }),
  Error: (p) => ({
    title: 'The last payment failed',
    text: `${p} can try again from the same link until it expires, or you can reach out to them.`,
    color: 'orange',
  }),
  Rejected: (p) => ({ title: 'The payer declined', text: `${p} declined this request.`, color: 'orange' }),
  Expired: () => ({ title: 'Expired', text: 'It expired before it was paid in full.', color: 'gray' }),
  Withdrawn: (p) => ({ title: 'Withdrawn', text: `You withdrew it; ${p} can no longer pay it.`, color: 'gray' }),
  Cancelled: (p) => ({ title: 'Cancelled', text: `You cancelled it before it went to ${p}.`, color: 'gray' }),
};

/**
 * A payment through a QR code was sent to no one: where its words differ from a sent request's
 * (there is no link in an e-mail to go back to), the code's own.
 */
const QR_SITUATIONS: Partial<Record<RequestState, Situation>> = {
  Accepted: (p) => ({ title: 'Payment on its way', text: `${p} paid through a QR code; the money is being settled.`, color: 'teal' }),
  Paid: () => ({ title: 'Paid in full', text: 'Paid through a QR code; nothing remains to pay.', color: 'teal' }),
  PartiallyPaid: (p) => ({ title: 'Partly paid', text: `Only part of what ${p} paid through a QR code was collected.`, color: 'teal' }),
  Error: (p) => ({
    title: 'The payment failed',
    text: `${p}’s payment through a QR code failed. They can try again from the page the code opened, or scan the code again.`,
    color: 'orange',
  }),
};

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * What the detail view tells the business about a request: where it stands, and exactly the
 * actions the state machine offers for it (requestActions), never one it does not. A request that
 * collects an invoice (`invoiceNumber`) is changed through its invoice, so it offers no Edit; a
 * payment through a QR code (`viaQrCode`) offers its receipt once paid, and nothing else.
 */
export function requestGuidance(
  state: RequestState,
  payerName: string,
  canWrite = true,
  invoiceNumber: string | null = null,
  viaQrCode = false,
): { title: string; text: string; color: string; actions: RequestAction[] } {
  const situation = ((viaQrCode ? QR_SITUATIONS[state] : undefined) ?? SITUATIONS[state])(payerName);
  const actions = withoutInvoiceEdit(permittedRequestActions(requestActions(state, viaQrCode), canWrite), invoiceNumber);
  const text = invoiceNumber ? `${situation.text} It collects invoice ${invoiceNumber}.` : situation.text;
  if (actions.length === 0) return { ...situation, text, actions };
  return { ...situation, text: `${text} You can ${list(actions.map((a) => ACTION_PHRASES[a]))}.`, actions };
}

/** A request that collects an invoice is edited through the invoice (the API refuses to edit the request). */
export function withoutInvoiceEdit(actions: readonly RequestAction[], invoiceId: string | null): RequestAction[] {
  return invoiceId ? actions.filter((a) => a !== 'Edit') : [...actions];
}

/** The actions that change nothing: all a person may use who cannot change the business's requests. */
const READ_ONLY_ACTIONS: readonly RequestAction[] = ['View/Download'];

/** A request's actions, less those that change it (or start a new one) when the person may not. */
export function permittedRequestActions(actions: readonly RequestAction[], canWrite: boolean): RequestAction[] {
  return canWrite ? [...actions] : actions.filter((a) => READ_ONLY_ACTIONS.includes(a));
}
