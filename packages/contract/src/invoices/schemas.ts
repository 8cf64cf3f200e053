import { z } from 'zod';
import { boundedDateTime, boundedDay } from '../common/day-schemas';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { confirmedAmountCents, PaymentSummary, RequestChannel, RequestEmail, type RequestState } from '../payment-requests/schemas';
import { toMilli } from './totals';

/* ---------------------------------------------------------------- states */

export const InvoiceState = z.enum(['Draft', 'Scheduled', 'Sent', 'Resent', 'PartiallyPaid', 'Paid', 'Rejected', 'Expired', 'Withdrawn', 'Cancelled']);
export type InvoiceState = z.infer<typeof InvoiceState>;

export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  Draft: 'Draft',
  Scheduled: 'Scheduled',
  Sent: 'Sent',
  Resent: 'Resent',
  PartiallyPaid: 'Partially Paid',
  Paid: 'Paid',
  Rejected: 'Declined',
  Expired: 'Expired',
  Withdrawn: 'Withdrawn',
  Cancelled: 'Cancelled',
};

/** What moves an invoice: the merchant (send, schedule, resend, withdraw, cancel) or its payment request (the rest). */
export type InvoiceEvent = 'send' | 'schedule' | 'scheduledSend' | 'resend' | 'withdraw' | 'cancel' | 'pays' | 'payerDeclines' | 'expire';

/**
 * The invoice state machine (ADR 033), one table for the API (refusals) and the web app (row
 * actions). Once sent, an invoice is collected by a payment request for its total (the same hosted
 * page, processor, ledger, reminders and expiry as any request), and the invoice's state follows
 * that request's: `invoiceStateFor` says how.
 */
export const INVOICE_TRANSITIONS: Record<InvoiceEvent, { from: readonly InvoiceState[]; to: readonly InvoiceState[] }> = {
  send: { from: ['Draft'], to: ['Sent'] },
  schedule: { from: ['Draft'], to: ['Scheduled'] },
  scheduledSend: { from: ['Scheduled'], to: ['Sent'] },
  resend: { from: ['Sent', 'Resent', 'Expired', 'Rejected'], to: ['Resent'] },
  withdraw: { from: ['Sent', 'Resent'], to: ['Withdrawn'] },
  cancel: { from: ['Scheduled'], to: ['Cancelled'] },
  pays: { from: ['Sent', 'Resent', 'PartiallyPaid'], to: ['PartiallyPaid', 'Paid'] },
  payerDeclines: { from: ['Sent', 'Resent'], to: ['Rejected'] },
  expire: { from: ['Sent', 'Resent'], to: ['Expired'] },
};

export function canApplyToInvoice(event: InvoiceEvent, from: InvoiceState): boolean {
  return INVOICE_TRANSITIONS[event].from.includes(from);
}

/**
 * The invoice's state for its payment request's state. A payment in flight (Accepted) or one that
 * failed (Error) leaves the invoice where it was, or PartiallyPaid once part of it is paid.
 */
export function invoiceStateFor(requestState: RequestState, amountPaidCents: number, amountCents: number, previous: InvoiceState): InvoiceState {
  switch (requestState) {
    case 'Pending':
      return 'Scheduled';
    case 'Sent':
    case 'Resent':
    case 'Paid':
    case 'PartiallyPaid':
    case 'Rejected':
    case 'Expired':
    case 'Withdrawn':
    case 'Cancelled':
      return requestState;
    default:
      if (amountPaidCents > 0 && amountPaidCents < amountCents) return 'PartiallyPaid';
      return previous === 'Draft' || previous === 'Scheduled' ? 'Sent' : previous;
  }
}

export type InvoiceAction = 'Edit' | 'Copy' | 'Delete' | 'Cancel' | 'Resend' | 'Withdraw' | 'View/Download';

/** Row actions by state (docs/product.md, "Invoices"). The PDF can be viewed in every state. */
export function invoiceActions(state: InvoiceState): InvoiceAction[] {
  switch (state) {
    case 'Draft':
      return ['Edit', 'Copy', 'Delete', 'View/Download'];
    case 'Scheduled':
      return ['Edit', 'Cancel', 'Copy', 'View/Download'];
    case 'Sent':
    case 'Resent':
      return ['Resend', 'Withdraw', 'Copy', 'View/Download'];
    case 'Expired':
    case 'Rejected':
      return ['Resend', 'Copy', 'View/Download'];
    default:
      return ['Copy', 'View/Download'];
  }
}

/** States in which the invoice is still owed (and so can be overdue). */
export const OPEN_INVOICE_STATES: readonly InvoiceState[] = ['Sent', 'Resent', 'PartiallyPaid'];

/* ---------------------------------------------------------------- input */

export const INVOICE_TERMS = ['due_on_receipt', 'net7', 'net15', 'net30', 'net60', 'custom'] as const;
export const InvoiceTerms = z.enum(INVOICE_TERMS);
export type InvoiceTerms = z.infer<typeof InvoiceTerms>;
export const INVOICE_TERMS_LABELS: Record<InvoiceTerms, string> = {
  due_on_receipt: 'Due on receipt',
  net7: 'Net 7',
  net15: 'Net 15',
  net30: 'Net 30',
  net60: 'Net 60',
  custom: 'Due on a date',
};
/** Days from the issue date to the due date, for every term but `custom`. */
export const INVOICE_TERMS_DAYS: Record<Exclude<InvoiceTerms, 'custom'>, number> = { due_on_receipt: 0, net7: 7, net15: 15, net30: 30, net60: 60 };

/** Most lines on one invoice (a long one runs over several PDF pages). */
export const MAX_INVOICE_LINES = 500;
/** Largest quantity on a line. */
export const MAX_INVOICE_QUANTITY = 1_000_000;

const quantity = z
  .number({ error: 'Enter a quantity.' })
  .positive('The quantity must be above 0.')
  .max(MAX_INVOICE_QUANTITY, 'The quantity is above 1,000,000.')
  .refine((q) => toMilli(q) !== null, 'Quantities have at most 3 decimals.');

const taxRate = z
  .number({ error: 'Enter a tax rate (0 for none).' })
  .min(0, 'The tax rate cannot be negative.')
  .max(100, 'The tax rate cannot be above 100%.')
  .refine((r) => toMilli(r) !== null, 'Tax rates have at most 3 decimals (8.875).');

export const InvoiceLineInput = z.object({
  description: z.string().trim().min(1, 'Describe the item.').max(300, 'Keep the description to 300 characters.'),
  quantity,
  unitPriceCents: z
    .number({ error: 'Enter a unit price.' })
    .int('Prices are whole cents.')
    .min(0, 'The unit price cannot be negative.')
    .max(MAX_AMOUNT_CENTS, 'The unit price is above the $10,000,000.00 limit.'),
  /** Percent: 8.875 for 8.875 %. */
  taxRate: taxRate.default(0),
});
export type InvoiceLineInput = z.input<typeof InvoiceLineInput>;

export const InvoiceDiscount = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({
    type: z.literal('amount'),
    amountCents: z.number().int('Amounts are whole cents.').min(0, 'The discount cannot be negative.').max(MAX_AMOUNT_CENTS),
  }),
  z.object({
    type: z.literal('percent'),
    percent: z
      .number()
      .min(0, 'The discount cannot be negative.')
      .max(100, 'The discount cannot be above 100%.')
      .refine((r) => toMilli(r) !== null, 'Percentages have at most 3 decimals.'),
  }),
]);
export type InvoiceDiscount = z.infer<typeof InvoiceDiscount>;

/** Create or edit a draft invoice (POST, PATCH). Sending is its own step (`…/send`). */
export const InvoiceInput = z
  .object({
    payerId: z.string().min(1, 'Choose a payer.'),
    channel: RequestChannel.default('email'),
    issueDate: boundedDay('Issue date'),
    terms: InvoiceTerms.default('net30'),
    /** Only with `terms: custom`; otherwise worked out from the issue date. */
    dueDate: boundedDay('Due date').nullable().optional(),
    items: z.array(InvoiceLineInput).min(1, 'Add at least one item.').max(MAX_INVOICE_LINES, `An invoice has at most ${MAX_INVOICE_LINES} items.`),
    discount: InvoiceDiscount.default({ type: 'none' }),
    memo: z.string().trim().max(1000, 'Keep the memo to 1,000 characters.').optional().default(''),
    footer: z.string().trim().max(1000, 'Keep the footer to 1,000 characters.').optional().default(''),
    allowPartial: z.boolean().default(false),
  })
  .refine((v) => v.terms !== 'custom' || Boolean(v.dueDate), { message: 'Choose the due date.', path: ['dueDate'] })
  .refine((v) => v.terms !== 'custom' || !v.dueDate || v.dueDate >= v.issueDate, {
    message: 'The due date cannot be before the issue date.',
    path: ['dueDate'],
  });
export type InvoiceInput = z.input<typeof InvoiceInput>;
export type InvoiceValues = z.output<typeof InvoiceInput>;

/** POST …/send: now, or at `sendAt` (the invoice is then Scheduled). */
export const InvoiceSendBody = z
  .object({
    sendAt: boundedDateTime('Send time').nullable().optional(),
    confirmedAmountCents,
  })
  .default({});
export type InvoiceSendBody = z.input<typeof InvoiceSendBody>;

/* ---------------------------------------------------------------- output */

export const InvoiceLine = z.object({
  description: z.string(),
  quantity: z.number(),
  unitPriceCents: z.number().int(),
  taxRate: z.number(),
  amountCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

export const Invoice = z.object({
  invoiceId: z.string(),
  /** INV-0001, numbered per business. */
  number: z.string(),
  invoiceState: InvoiceState,
  /** Still owed and past its due date (the business's day). */
  overdue: z.boolean(),
  payerId: z.string(),
  payerName: z.string(),
  payerEmail: z.string(),
  channel: RequestChannel,
  issueDate: z.string(),
  terms: InvoiceTerms,
  dueDate: z.string(),
  items: z.array(InvoiceLine),
  discount: InvoiceDiscount,
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  amountPaidCents: z.number().int(),
  balanceCents: z.number().int(),
  memo: z.string(),
  footer: z.string(),
  allowPartial: z.boolean(),
  /** The payment request that collects it, once sent or scheduled. */
  transactionId: z.string().nullable(),
  sendAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(z.string()),
});
export type Invoice = z.infer<typeof Invoice>;

/** One row of the list: the invoice without its lines. */
export const InvoiceListItem = Invoice.omit({ items: true, discount: true, memo: true, footer: true });
export type InvoiceListItem = z.infer<typeof InvoiceListItem>;

/**
 * What an invoice's timeline can hold, with the words the web app shows: the invoice's own events
 * (created, edited, scheduled…) and those of the payment request that collects it (sent, viewed,
 * reminded, paid…). The API writes no other name.
 */
export const INVOICE_TIMELINE_LABELS = {
  create: 'Created',
  edit: 'Edited',
  send: 'Sent',
  schedule: 'Scheduled',
  scheduledSend: 'Sent as scheduled',
  sendHeld: 'Scheduled send held',
  resend: 'Resent',
  withdraw: 'Withdrawn',
  cancel: 'Cancelled',
  viewed: 'Viewed by the payer',
  reminder: 'Reminder sent',
  payerPays: 'Payment started',
  paymentProcessed: 'Payment received',
  paymentSettles: 'Payment settled',
  paymentFails: 'Payment failed',
  paymentReturned: 'Payment returned',
  payerDeclines: 'Declined by the payer',
  expire: 'Expired',
  refund: 'Refunded',
  refundFailed: 'Refund failed',
  disputeOpened: 'Disputed',
  disputeAnswered: 'Dispute answered',
  disputeClosed: 'Dispute closed',
} as const;
export type InvoiceTimelineEvent = keyof typeof INVOICE_TIMELINE_LABELS;

export const InvoiceTimelineEntry = z.object({
  at: z.string(),
  actor: z.string(),
  /** created, edited, sent, scheduled, viewed, reminded, paid, … (the web app labels them). */
  event: z.string(),
  detail: z.string().nullable(),
});
export type InvoiceTimelineEntry = z.infer<typeof InvoiceTimelineEntry>;

export const InvoiceDetail = Invoice.extend({
  businessName: z.string(),
  timeline: z.array(InvoiceTimelineEntry),
  payments: z.array(PaymentSummary),
  /** What was refunded (or is being refunded) of its payments (ADR 051); the balance is still what the payer owes. */
  refundedCents: z.number().int(),
  emails: z.array(RequestEmail),
  /** The payer's link, once sent. */
  payLink: z.string().nullable(),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

export const InvoiceListQuery = PageQuery.extend({
  /** Comma-separated states; `Overdue` for the open ones past due. */
  status: z.string().max(300).optional(),
  payerId: z.string().max(64).optional(),
  /** Issue dates, inclusive. */
  from: boundedDay('From date').optional(),
  to: boundedDay('To date').optional(),
  minAmountCents: z.coerce.number().int().min(0).optional(),
  maxAmountCents: z.coerce.number().int().min(0).optional(),
  sortBy: z.enum(['number', 'issueDate', 'dueDate', 'total', 'balance', 'payer', 'state']).default('number'),
});
export type InvoiceListQuery = z.input<typeof InvoiceListQuery>;

export const InvoiceSummary = z.object({
  outstandingCount: z.number(),
  outstandingCents: z.number(),
  overdueCount: z.number(),
  overdueCents: z.number(),
  paidThisMonthCount: z.number(),
  paidThisMonthCents: z.number(),
  draftCount: z.number(),
});
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

export const InvoiceIdParams = z.object({ id: z.string().min(1).max(64), invoiceId: z.string().min(1).max(64) });
export const InvoiceResponse = okResponse(Invoice);
export const InvoiceDetailResponse = okResponse(InvoiceDetail);
export const InvoiceListResponse = listResponse(InvoiceListItem);
export const InvoiceSummaryResponse = okResponse(InvoiceSummary);

/** What the payer's page shows of an invoice: its lines and figures. */
export const PayerInvoice = z.object({
  number: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  items: z.array(InvoiceLine),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  memo: z.string(),
  footer: z.string(),
});
export type PayerInvoice = z.infer<typeof PayerInvoice>;
