import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { PaymentMethod, PaymentState, PaymentSummary, RequestState, RequestStatement } from '../payment-requests/schemas';
import { PayerInvoice } from '../invoices/schemas';

/* ------------------------------------------------------ hosted payment page */

/** What the payer's page says about a request (public, by link token). */
export const PayPageStatus = z.enum(['payable', 'processing', 'paid', 'expired', 'withdrawn', 'cancelled', 'declined', 'unavailable']);
export type PayPageStatus = z.infer<typeof PayPageStatus>;

export const PublicPayPage = z.object({
  businessName: z.string(),
  businessLogoUrl: z.string().nullable(),
  referenceNumber: z.string(),
  payerName: z.string(),
  amountCents: z.number().int(),
  amountPaidCents: z.number().int(),
  remainingCents: z.number().int(),
  /** What the business refunded (or is refunding) to the payer of what was paid (ADR 051). */
  refundedCents: z.number().int(),
  memo: z.string(),
  /** A student's request (ADR 036): "For Mia Lopez — Piano, December 2026" — the student's name, program and period only. */
  forStudent: z.string().nullable(),
  /**
   * A patient's statement (ADR 037): "Statement for Ana — date of service Nov 20, 2026" and its
   * lines and totals. The patient's first name only: never their last name, date of birth or MRN.
   */
  forPatient: z.string().nullable(),
  statement: RequestStatement.nullable(),
  dueDate: z.string(),
  expiresOn: z.string(),
  allowPartial: z.boolean(),
  transactionState: RequestState,
  /** The invoice the request collects, with its lines, when it is one. */
  invoice: PayerInvoice.nullable(),
  status: PayPageStatus,
  /** One sentence for the payer when the page takes no money. */
  statusMessage: z.string().nullable(),
  /**
   * Whether the payer may decline now (the state machine's `payerDeclines`, on a page that is
   * open): not once part is paid or a payment was tried. The API refuses a decline otherwise.
   */
  declinable: z.boolean(),
  payments: z.array(
    z.object({
      paymentId: z.string(),
      instrument: z.string(),
      amountCents: z.number().int(),
      state: PaymentState,
      failureReason: z.string().nullable(),
      createdAt: z.string(),
      /** What was refunded of this payment. */
      refundedCents: z.number().int(),
    }),
  ),
});
export type PublicPayPage = z.infer<typeof PublicPayPage>;

/** The fields of the payer's page that the request's source fills (ADR 045), null for any other kind. */
export const PAY_PAGE_SOURCE_FIELDS = { forStudent: null, forPatient: null, statement: null, invoice: null } as const satisfies Partial<
  Record<keyof PublicPayPage, null>
>;

export const DeclineBody = z.object({ reason: z.string().trim().min(1, 'Tell the business why you decline.').max(500) });

/**
 * The hosted pay page's money calls (`/api/public/pay/:token/…`, no sign-in): the payer's link
 * token names the request. Card and account numbers never appear here — only the processor's
 * token, made by its hosted card field in the payer's browser.
 */
export const CreatePaymentBody = z.object({
  method: PaymentMethod,
  processorToken: z.string().regex(/^tok_[0-9a-z]{10,64}$/, 'Enter your card or bank account details again.'),
  amountCents: z
    .number()
    .int('Amounts are whole cents.')
    .positive('Enter an amount above $0.00.')
    .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.'),
  /** Where the receipt goes; the request's payer e-mail when absent. */
  payerEmail: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address.')).pipe(z.string().max(320)).optional(),
});
export type CreatePaymentBody = z.input<typeof CreatePaymentBody>;

/** The payment just made and where the request stands now. */
export const PaymentOutcome = z.object({
  payment: PaymentSummary,
  transactionState: RequestState,
  amountCents: z.number().int(),
  amountPaidCents: z.number().int(),
  remainingCents: z.number().int(),
});
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;
export const PaymentOutcomeResponse = z.object({ status: z.literal('Success'), data: PaymentOutcome });

export const ReceiptParams = z.object({ token: z.string().min(1).max(200), paymentId: z.string().min(1).max(64) });
