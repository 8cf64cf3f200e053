import { z } from 'zod';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { boundedDateTime, boundedDay } from '../common/day-schemas';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { REFUND_FILTERS } from '../refunds/refund-status';

/* ------------------------------------------------------- payment requests */

export const RequestState = z.enum([
  'Draft',
  'Pending',
  'Sent',
  'Resent',
  'Accepted',
  'Paid',
  'PartiallyPaid',
  'Error',
  'Rejected',
  'Expired',
  'Withdrawn',
  'Cancelled',
]);
export type RequestState = z.infer<typeof RequestState>;

/** What moves a request from one state to another: a person, the payer, or the system. */
export type RequestEvent =
  | 'send'
  | 'schedule'
  | 'scheduledSend'
  | 'resend'
  | 'withdraw'
  | 'cancel'
  | 'payerPays'
  | 'paymentSettles'
  | 'paymentFails'
  | 'paymentReturned'
  | 'payerDeclines'
  | 'expire';

/**
 * The request state machine (docs/product.md §4), one table used by the API to refuse illegal moves and
 * by the web app to decide which row actions to show. Where an event can lead to two states,
 * the API picks by the amounts (e.g. `paymentSettles` → Paid or PartiallyPaid).
 */
export const REQUEST_TRANSITIONS: Record<RequestEvent, { from: readonly RequestState[]; to: readonly RequestState[] }> = {
  send: { from: ['Draft'], to: ['Sent'] },
  schedule: { from: ['Draft'], to: ['Pending'] },
  scheduledSend: { from: ['Pending'], to: ['Sent'] },
  resend: { from: ['Sent', 'Resent', 'Expired', 'Rejected'], to: ['Resent'] },
  withdraw: { from: ['Sent', 'Resent'], to: ['Withdrawn'] },
  cancel: { from: ['Pending'], to: ['Cancelled'] },
  payerPays: { from: ['Sent', 'Resent', 'PartiallyPaid', 'Error'], to: ['Accepted'] },
  paymentSettles: { from: ['Accepted'], to: ['Paid', 'PartiallyPaid'] },
  paymentFails: { from: ['Accepted'], to: ['Error', 'PartiallyPaid'] },
  paymentReturned: { from: ['Paid', 'PartiallyPaid', 'Accepted'], to: ['Error', 'PartiallyPaid', 'Accepted'] },
  payerDeclines: { from: ['Sent', 'Resent'], to: ['Rejected'] },
  expire: { from: ['Sent', 'Resent', 'Error'], to: ['Expired'] },
};

/**
 * Every event a request's timeline can hold: the state machine's events, and notes that move no
 * state (created, edited, a reminder, a held scheduled send, a payment received). The web app
 * labels each one; the API writes no other name.
 */
export type RequestTimelineEvent =
  | RequestEvent
  | 'create'
  | 'edit'
  | 'reminder'
  | 'sendHeld'
  | 'paymentProcessed'
  | 'viewed'
  | 'refund'
  | 'refundFailed'
  | 'disputeOpened'
  | 'disputeAnswered'
  | 'disputeClosed';
export const REQUEST_TIMELINE_EVENTS: readonly RequestTimelineEvent[] = [
  'create',
  'edit',
  ...(Object.keys(REQUEST_TRANSITIONS) as RequestEvent[]),
  'reminder',
  'sendHeld',
  'paymentProcessed',
  'viewed',
  'refund',
  'refundFailed',
  'disputeOpened',
  'disputeAnswered',
  'disputeClosed',
];

export function canApply(event: RequestEvent, from: RequestState, to?: RequestState): boolean {
  const rule = REQUEST_TRANSITIONS[event];
  return rule.from.includes(from) && (to === undefined || rule.to.includes(to));
}

/** States in which the payer can pay (the hosted page takes money). */
export const PAYABLE_STATES: readonly RequestState[] = REQUEST_TRANSITIONS.payerPays.from;

export type RequestAction = 'Edit' | 'Copy' | 'Delete' | 'Cancel' | 'Resend' | 'Withdraw' | 'View/Download';

/**
 * The row actions of a request in a state. A payment through a QR code is the payer's own: it
 * offers its receipt once paid and nothing else.
 */
export function requestActions(state: RequestState, viaQrCode = false): RequestAction[] {
  if (viaQrCode) return state === 'Paid' || state === 'PartiallyPaid' ? ['View/Download'] : [];
  switch (state) {
    case 'Draft':
      return ['Edit', 'Copy', 'Delete'];
    case 'Pending':
      return ['Edit', 'Cancel', 'Copy'];
    case 'Sent':
    case 'Resent':
      return ['Resend', 'Withdraw', 'Copy'];
    case 'Expired':
    case 'Rejected':
      return ['Resend', 'Copy'];
    case 'Paid':
    case 'PartiallyPaid':
      return ['View/Download', 'Copy'];
    default:
      return ['Copy'];
  }
}

const cents = z
  .number()
  .int('Amounts are whole cents.')
  .positive('Enter an amount above $0.00.')
  .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.');

/** Create or edit a request to pay. `mode` decides what happens after saving. */
/**
 * How the payer is sent the request's link, and its resends and reminders: by e-mail, or by text
 * message to the payer's mobile number. Receipts always go by e-mail (ADR 020).
 */
export const RequestChannel = z.enum(['email', 'sms']);
export type RequestChannel = z.infer<typeof RequestChannel>;
export const REQUEST_CHANNEL_LABELS: Record<RequestChannel, string> = { email: 'E-mail', sms: 'Text message (SMS)' };
/** The refusal when a request is to go by text message to a payer who has no mobile number. */
export const NO_MOBILE_MESSAGE = 'This payer has no mobile number. Add one to the payer, or send the request by e-mail.';

/**
 * The amount repeated, to send one above the business's confirmation limit (issue 35): the screen
 * asks for it with the amount in words when the API answers 422 `AMOUNT_CONFIRMATION_REQUIRED`.
 */
export const confirmedAmountCents = z
  .number({ error: 'Repeat the amount in cents.' })
  .int('Repeat the amount in cents.')
  .nonnegative('Repeat the amount in cents.')
  .nullable()
  .optional();

/** The body of a command that sends money on its way (send a draft, submit a payout): only the confirmation of a large amount. */
export const ConfirmAmountBody = z.preprocess((v) => v ?? {}, z.object({ confirmedAmountCents }));
export type ConfirmAmountBody = z.input<typeof ConfirmAmountBody>;

export const PaymentRequestInput = z
  .object({
    payerId: z.string().min(1, 'Choose a payer.'),
    channel: RequestChannel.default('email'),
    amountCents: cents,
    memo: z.string().trim().max(500).optional().default(''),
    reference: z.string().trim().max(64).optional().default(''),
    dueDate: boundedDay('Due date'),
    /** Defaults to the due date plus the business's default expiry days. */
    expiresOn: boundedDay('Expiry date').nullable().optional(),
    allowPartial: z.boolean().default(false),
    mode: z.enum(['draft', 'send', 'schedule']),
    /** For `schedule`: when it goes out (ISO date-time, in the future). */
    sendAt: boundedDateTime('Send time').nullable().optional(),
    confirmedAmountCents,
  })
  .refine((r) => r.mode !== 'schedule' || Boolean(r.sendAt), { message: 'Choose when to send it.', path: ['sendAt'] })
  .refine((r) => !r.expiresOn || r.expiresOn >= r.dueDate, { message: 'The expiry cannot be before the due date.', path: ['expiresOn'] });
export type PaymentRequestInput = z.input<typeof PaymentRequestInput>;
/** A request's input as the API has parsed it (defaults applied). */
export type PaymentRequestValues = z.output<typeof PaymentRequestInput>;

export const RequestTimelineEntry = z.object({
  at: z.string(),
  /** Who: a person's e-mail, "payer", or "system". */
  actor: z.string(),
  event: z.string(),
  fromState: RequestState.nullable(),
  toState: RequestState.nullable(),
  detail: z.string().nullable(),
});

/** One line of a patient's statement (ADR 037), in cents: responsibility = billed − insurance paid − adjustment. */
export const StatementLine = z.object({
  serviceDate: z.string(),
  description: z.string(),
  billedCents: z.number().int(),
  insurancePaidCents: z.number().int(),
  adjustmentCents: z.number().int(),
  responsibilityCents: z.number().int(),
});
export type StatementLine = z.infer<typeof StatementLine>;

/** A patient's statement: the date of service, its lines and their totals (the request's amount is the responsibility total). */
export const RequestStatement = z.object({
  dateOfService: z.string(),
  lines: z.array(StatementLine),
  totals: z.object({
    billedCents: z.number().int(),
    insurancePaidCents: z.number().int(),
    adjustmentCents: z.number().int(),
    responsibilityCents: z.number().int(),
  }),
});
export type RequestStatement = z.infer<typeof RequestStatement>;

export const PaymentRequest = z.object({
  transactionId: z.string(),
  /** The short human reference, numbered per business (TRX-10234). */
  referenceNumber: z.string(),
  transactionState: RequestState,
  /** Null for a payment through a QR code by a payer who is not one of the business's payers. */
  payerId: z.string().nullable(),
  payerName: z.string(),
  payerEmail: z.string(),
  amountCents: z.number().int(),
  amountPaidCents: z.number().int(),
  /** What was refunded of it (refunds pending or succeeded, ADR 051): `refundStatusOf` reads Refunded or PartiallyRefunded from it. */
  refundedCents: z.number().int(),
  memo: z.string(),
  reference: z.string(),
  dueDate: z.string(),
  expiresOn: z.string(),
  allowPartial: z.boolean(),
  sendAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The invoice this request collects (spec §3: transaction rows carry an invoice id), if any. */
  invoiceId: z.string().nullable(),
  /** INV-0001 */
  invoiceNumber: z.string().nullable(),
  /** The QR code it was paid through, and the code's label then, if it was. */
  qrCodeId: z.string().nullable(),
  qrCodeLabel: z.string().nullable(),
  /** The student template (ADR 036): the student the request is for ("First Last"), its program and period ("December 2026"). */
  student: z.object({ studentId: z.string(), name: z.string() }).nullable(),
  program: z.object({ programId: z.string(), name: z.string() }).nullable(),
  period: z.string().nullable(),
  /** The healthcare template (ADR 037): the patient a statement is for, their name ("First Last") and the statement. */
  clientId: z.string().nullable(),
  patientName: z.string().nullable(),
  statement: RequestStatement.nullable(),
  actions: z.array(z.string()),
});
export type PaymentRequest = z.infer<typeof PaymentRequest>;

/** The row actions of a request made for a source of this kind (ADR 045): a QR code's payment is the payer's. */
export function sourceRequestActions(state: RequestState, sourceKind: string): RequestAction[] {
  return requestActions(state, sourceKind === 'qr');
}

/**
 * The fields of a request that its source fills (ADR 045), each null on a request of another
 * kind: in this order after the request's own fields. A new kind of source adds its fields here
 * and in `request_source_kinds` (apps/api/migrations/0055_request_sources.sql).
 */
export const REQUEST_SOURCE_FIELDS = {
  invoiceId: null,
  invoiceNumber: null,
  qrCodeId: null,
  qrCodeLabel: null,
  student: null,
  program: null,
  period: null,
  clientId: null,
  patientName: null,
  statement: null,
} as const satisfies Partial<Record<keyof PaymentRequest, null>>;

export const PaymentMethod = z.enum(['card', 'bank_account']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const PaymentState = z.enum(['Pending', 'Processed', 'Rejected', 'Returned']);
export type PaymentState = z.infer<typeof PaymentState>;

export const PaymentSummary = z.object({
  paymentId: z.string(),
  method: PaymentMethod,
  /** "Visa •••• 4242" or "Tay Sandbox Bank •••• 6789". */
  instrument: z.string(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  /** What was refunded of it, pending or succeeded (ADR 051). */
  refundedCents: z.number().int(),
  state: PaymentState,
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

/**
 * How an e-mail about a request got on: `outbox` (no mail server configured: kept in the
 * development outbox), `sending`, `delivered` (the mail server took it), `retrying` (the last
 * attempt failed; another follows), `failed` (every attempt failed; nothing more will be tried).
 */
export const EmailDelivery = z.enum(['outbox', 'sending', 'delivered', 'retrying', 'failed']);
export type EmailDelivery = z.infer<typeof EmailDelivery>;

/** How many times an e-mail is tried before it is given up (the `mail.deliver` job's attempts). */
export const MAIL_DELIVERY_ATTEMPTS = 9;

export const RequestEmail = z.object({
  messageId: z.string(),
  /** An e-mail, or a text message (`to` is then a mobile number and `subject` is empty). */
  channel: RequestChannel,
  to: z.string(),
  subject: z.string(),
  delivery: EmailDelivery,
  attempts: z.number().int(),
  /** Why the last attempt failed, as the mail server said it. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type RequestEmail = z.infer<typeof RequestEmail>;

export const PaymentRequestDetail = PaymentRequest.extend({
  /** How its link, resends and reminders go to the payer. */
  channel: RequestChannel,
  timeline: z.array(RequestTimelineEntry),
  payments: z.array(PaymentSummary),
  /** The messages sent about the request (its link, reminders, receipts), newest first: e-mails and text messages. */
  emails: z.array(RequestEmail),
  payLink: z.string(),
  /** The bulk batch that made it, if one did. */
  batch: z.object({ batchId: z.string(), fileName: z.string() }).nullable(),
  /** What a payer through a QR code gave beside their name and e-mail. */
  payerPhone: z.string().nullable(),
  payerNote: z.string().nullable(),
});
export type PaymentRequestDetail = z.infer<typeof PaymentRequestDetail>;

/** The fields of a request's detail that its source fills (ADR 045), null for any other kind. */
export const REQUEST_DETAIL_SOURCE_FIELDS = { payerPhone: null, payerNote: null } as const satisfies Partial<Record<keyof PaymentRequestDetail, null>>;

export const RequestListQuery = PageQuery.extend({
  /** Comma-separated states. */
  status: z.string().max(300).optional(),
  payerId: z.string().max(64).optional(),
  /** The requests a bulk batch made. */
  batchId: z.string().max(64).optional(),
  /** The payments taken through one QR code, or through any (`any`). */
  qrId: z.string().max(64).optional(),
  /** The student template's requests of one student, one program, one period label ("December 2026"). */
  studentId: z.string().max(64).optional(),
  programId: z.string().max(64).optional(),
  period: z.string().trim().max(50).optional(),
  /** The healthcare template's statements of one patient (ADR 037). */
  clientId: z.string().max(64).optional(),
  /** Created on these days of the business's calendar. */
  from: boundedDay('From date').optional(),
  to: boundedDay('To date').optional(),
  /** First sent on these days: the requests a billing report counts as billed on them (ADR 039). */
  sentFrom: boundedDay('Sent from date').optional(),
  sentTo: boundedDay('Sent to date').optional(),
  /** With a payment processed on these days: what a report counts as collected on them. */
  paidFrom: boundedDay('Paid from date').optional(),
  paidTo: boundedDay('Paid to date').optional(),
  /** With a payment returned on these days: what a report counts as returned on them. */
  returnedFrom: boundedDay('Returned from date').optional(),
  returnedTo: boundedDay('Returned to date').optional(),
  minAmountCents: z.coerce.number().int().min(0).optional(),
  maxAmountCents: z.coerce.number().int().min(0).optional(),
  /** With refunds (ADR 051): any, refunded in full (`Refunded`), or in part (`PartiallyRefunded`). */
  refunded: z.enum(REFUND_FILTERS, { error: 'Use any, Refunded or PartiallyRefunded.' }).optional(),
  /** `draft` lists drafts only; `history` everything else. */
  view: z.enum(['history', 'draft']).default('history'),
  sortBy: z.enum(['createdAt', 'dueDate', 'amount', 'payer', 'state', 'reference']).default('createdAt'),
  /**
   * Keyset paging: the id of the last row of the page before (`after`) or the first row of the
   * page after (`before`). The page is then found from that row in the index, as fast at page
   * 20,000 as at page 2; `page` still says which page it is. Without either, `page` is an offset.
   */
  after: z.string().min(1).max(64).optional(),
  before: z.string().min(1).max(64).optional(),
});
export type RequestListQuery = z.input<typeof RequestListQuery>;

/** What the payer's receipt shows (the fee is the business's, never the payer's). */
export const PaymentReceipt = z.object({
  paymentId: z.string(),
  businessName: z.string(),
  /** TRX-10234 */
  referenceNumber: z.string(),
  method: PaymentMethod,
  /** "Visa •••• 4242" */
  methodLabel: z.string(),
  amountCents: z.number().int(),
  paymentState: PaymentState,
  /** When the payment was processed (ISO). */
  paidAt: z.string(),
  requestAmountCents: z.number().int(),
  remainingCents: z.number().int(),
  /** The business's time zone (IANA): the payer's receipt shows its times on the business's clock, labelled. */
  timeZone: z.string().optional(),
});
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;
export const ReceiptResponse = z.object({ status: z.literal('Success'), data: PaymentReceipt });

/**
 * GET /api/businesses/:id/payment-requests/:requestId/receipt — the business's receipt of a request:
 * every processed (or later returned) payment, each exactly as the payer's receipt shows it.
 */
export const RequestReceipt = z.object({
  transactionId: z.string(),
  /** TRX-10234 */
  referenceNumber: z.string(),
  businessName: z.string(),
  /** The business's time zone (IANA): the receipt's times are on its clock. */
  timeZone: z.string(),
  payerName: z.string(),
  payerEmail: z.string(),
  memo: z.string(),
  reference: z.string(),
  transactionState: RequestState,
  requestAmountCents: z.number().int(),
  amountPaidCents: z.number().int(),
  remainingCents: z.number().int(),
  payments: z.array(PaymentReceipt),
});
export type RequestReceipt = z.infer<typeof RequestReceipt>;
export const RequestReceiptResponse = z.object({ status: z.literal('Success'), data: RequestReceipt });

/* ------------------------------------------------------------ the API's shapes */

export const PaymentRequestIdParams = z.object({ id: z.string().min(1).max(64), requestId: z.string().min(1).max(64) });
/** `Idempotency-Key` on money-moving writes (ADR 024): the same key and body get the stored answer. */
export const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().optional() });
export const PaymentRequestResponse = okResponse(PaymentRequest);
export const PaymentRequestDetailResponse = okResponse(PaymentRequestDetail);
export const PaymentRequestListResponse = listResponse(PaymentRequest);
export const PaymentRequestSummary = z.object({
  openCount: z.number(),
  openCents: z.number(),
  paidCount: z.number(),
  paidCents: z.number(),
  draftCount: z.number(),
  scheduledCount: z.number(),
  needsAttentionCount: z.number(),
});
export type PaymentRequestSummary = z.infer<typeof PaymentRequestSummary>;
export const PaymentRequestSummaryResponse = okResponse(PaymentRequestSummary);
