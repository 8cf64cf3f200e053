import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from './money';
import { PaymentMethod, PaymentState, PaymentSummary, RequestState } from './payments';

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
});
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;
export const ReceiptResponse = z.object({ status: z.literal('Success'), data: PaymentReceipt });
