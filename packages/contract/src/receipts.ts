import { z } from 'zod';
import { PaymentReceipt } from './pay';
import { RequestState } from './payments';

/**
 * GET /api/businesses/:id/payments/:requestId/receipt — the business's receipt of a request:
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
