import { z } from 'zod';
import { boundedDay } from '../common/day-schemas';
import { listResponse, okResponse, PageQuery } from '../common/lists';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { PaymentMethod, PaymentSummary, RequestState } from '../payment-requests/schemas';

/* ---------------------------------------------------------------- QR codes */

/** `active` takes payments; `Disabled` (the merchant turned it off) does not (domain.md "QR code"). */
export const QrCodeStatus = z.enum(['active', 'Disabled']);
export type QrCodeStatus = z.infer<typeof QrCodeStatus>;

/** What the list shows: the stored status, or Expired once its last day has passed. */
export const QrCodeDisplayStatus = z.enum(['active', 'Disabled', 'Expired']);
export type QrCodeDisplayStatus = z.infer<typeof QrCodeDisplayStatus>;

export const QR_STATUS_LABELS: Record<QrCodeDisplayStatus, string> = { active: 'Active', Disabled: 'Disabled', Expired: 'Expired' };

/** Whether the payer's page asks for a field, and whether it must be filled. */
export const QrAsk = z.enum(['off', 'optional', 'required']);
export type QrAsk = z.infer<typeof QrAsk>;

export const QrAmountMode = z.enum(['fixed', 'open']);
export type QrAmountMode = z.infer<typeof QrAmountMode>;

/** The PNG sizes a code downloads at (pixels, square). */
export const QR_PNG_MIN_SIZE = 256;
export const QR_PNG_MAX_SIZE = 2048;
export const QR_PNG_DEFAULT_SIZE = 1024;

export const QrCodeAction = z.enum(['Edit', 'Enable', 'Disable', 'Delete', 'View/Download', 'Transactions']);
export type QrCodeAction = z.infer<typeof QrCodeAction>;

/** Row actions (issue 19): Delete only while the code has taken no payment. */
export function qrCodeActions(status: QrCodeStatus, paymentsCount: number): QrCodeAction[] {
  return ['Edit', status === 'active' ? 'Disable' : 'Enable', ...(paymentsCount === 0 ? (['Delete'] as const) : []), 'View/Download', 'Transactions'];
}

const cents = (label: string) =>
  z
    .number({ error: `Enter the ${label}.` })
    .int(`The ${label} is in whole cents.`)
    .positive(`The ${label} must be above $0.00.`)
    .max(MAX_AMOUNT_CENTS, `The ${label} is above the $10,000,000.00 limit.`);

/** Create or edit a code. A fixed code has an amount; an open one may have a minimum and a maximum. */
export const QrCodeInput = z
  .object({
    label: z.string().trim().min(1, 'Give the code a label, such as "Front counter".').max(100, 'Keep the label to 100 characters.'),
    amountMode: QrAmountMode,
    amountCents: cents('amount').nullable().optional(),
    minAmountCents: cents('minimum').nullable().optional(),
    maxAmountCents: cents('maximum').nullable().optional(),
    memo: z.string().trim().max(500, 'Keep the memo to 500 characters.').default(''),
    askName: QrAsk.default('optional'),
    askEmail: QrAsk.default('optional'),
    askPhone: QrAsk.default('off'),
    askNote: QrAsk.default('off'),
    expiresOn: boundedDay('Expiry date').nullable().optional(),
    status: QrCodeStatus.default('active'),
  })
  .superRefine((v, ctx) => {
    if (v.amountMode === 'fixed') {
      if (v.amountCents == null) ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'Enter the amount the code charges.' });
      if (v.minAmountCents != null) ctx.addIssue({ code: 'custom', path: ['minAmountCents'], message: 'A fixed amount has no minimum.' });
      if (v.maxAmountCents != null) ctx.addIssue({ code: 'custom', path: ['maxAmountCents'], message: 'A fixed amount has no maximum.' });
    } else {
      if (v.amountCents != null)
        ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'The payer enters the amount: leave it empty, or choose a fixed amount.' });
      if (v.minAmountCents != null && v.maxAmountCents != null && v.minAmountCents > v.maxAmountCents) {
        ctx.addIssue({ code: 'custom', path: ['maxAmountCents'], message: 'The maximum must not be below the minimum.' });
      }
    }
  });
export type QrCodeInput = z.input<typeof QrCodeInput>;
export type QrCodeValues = z.output<typeof QrCodeInput>;

export const QrCode = z.object({
  qrId: z.string(),
  label: z.string(),
  amountMode: QrAmountMode,
  amountCents: z.number().int().nullable(),
  minAmountCents: z.number().int().nullable(),
  maxAmountCents: z.number().int().nullable(),
  memo: z.string(),
  askName: QrAsk,
  askEmail: QrAsk,
  askPhone: QrAsk,
  askNote: QrAsk,
  expiresOn: z.string().nullable(),
  status: QrCodeStatus,
  displayStatus: QrCodeDisplayStatus,
  scans: z.number().int(),
  payments: z.number().int(),
  collectedCents: z.number().int(),
  lastPaymentAt: z.string().nullable(),
  /** What the code encodes: PUBLIC_URL/pay/qr/<token>. */
  payUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  actions: z.array(QrCodeAction),
});
export type QrCode = z.infer<typeof QrCode>;

export const QrCodeListQuery = PageQuery.extend({
  status: QrCodeDisplayStatus.optional(),
  sortBy: z.enum(['createdAt', 'label', 'collected', 'payments', 'scans']).default('createdAt'),
});
export type QrCodeListQuery = z.input<typeof QrCodeListQuery>;

export const QrIdParams = z.object({ id: z.string().min(1).max(64), qrId: z.string().min(1).max(64) });

export const QrImageFormat = z.enum(['png', 'svg', 'pdf']);
export type QrImageFormat = z.infer<typeof QrImageFormat>;
export const QrImageQuery = z.object({
  format: QrImageFormat.default('png'),
  size: z.coerce
    .number({ error: 'Give the size in pixels.' })
    .int('Give the size in whole pixels.')
    .min(QR_PNG_MIN_SIZE, `The smallest size is ${QR_PNG_MIN_SIZE} px.`)
    .max(QR_PNG_MAX_SIZE, `The largest size is ${QR_PNG_MAX_SIZE} px.`)
    .default(QR_PNG_DEFAULT_SIZE),
  /** `attachment` (a download) or `inline` (a preview). */
  disposition: z.enum(['attachment', 'inline']).default('attachment'),
});

export const QrCodeResponse = okResponse(QrCode);
export const QrCodeListResponse = listResponse(QrCode);

/* ------------------------------------------------------- the payer's page */

/** What the payer's page at `/pay/qr/:code` says: whether the code takes money now, and why not. */
export const QrPageStatus = z.enum(['payable', 'disabled', 'expired', 'unavailable']);
export type QrPageStatus = z.infer<typeof QrPageStatus>;

export const PublicQrPage = z.object({
  businessName: z.string(),
  businessLogoUrl: z.string().nullable(),
  label: z.string(),
  memo: z.string(),
  amountMode: QrAmountMode,
  amountCents: z.number().int().nullable(),
  minAmountCents: z.number().int().nullable(),
  maxAmountCents: z.number().int().nullable(),
  ask: z.object({ name: QrAsk, email: QrAsk, phone: QrAsk, note: QrAsk }),
  status: QrPageStatus,
  /** One sentence for the payer when the code takes no money. */
  statusMessage: z.string().nullable(),
});
export type PublicQrPage = z.infer<typeof PublicQrPage>;
export const PublicQrPageResponse = okResponse(PublicQrPage);

export const QrTokenParams = z.object({ code: z.string().min(1).max(100) });

const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((v) => (v ? v : undefined));

/** A payment through a code: the processor's token (never a card number), the amount, and what the page asked. */
export const QrPaymentBody = z.object({
  method: PaymentMethod,
  processorToken: z.string().regex(/^tok_[0-9a-z]{10,64}$/, 'Enter your card or bank account details again.'),
  amountCents: z
    .number({ error: 'Enter the amount to pay.' })
    .int('Amounts are whole cents.')
    .positive('Enter an amount above $0.00.')
    .max(MAX_AMOUNT_CENTS, 'The amount is above the $10,000,000.00 limit.'),
  payerName: optionalText(200, 'Keep your name to 200 characters.'),
  payerEmail: z
    .string()
    .trim()
    .toLowerCase()
    .max(320, 'Keep the e-mail address to 320 characters.')
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.email('Enter a valid e-mail address.').optional()),
  payerPhone: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(/^\+?[0-9 ().-]{7,20}$/, 'Enter a phone number, such as +1 555 010 0123.')
        .optional(),
    ),
  note: optionalText(500, 'Keep the note to 500 characters.'),
});
export type QrPaymentBody = z.input<typeof QrPaymentBody>;

/** The payment just made, the request it made, and the link to that request's page and receipt. */
export const QrPaymentOutcome = z.object({
  payment: PaymentSummary,
  transactionState: RequestState,
  referenceNumber: z.string(),
  amountCents: z.number().int(),
  /** The token of the request's own page (`/pay/<payToken>`): its status, a retry, the receipt. */
  payToken: z.string(),
});
export type QrPaymentOutcome = z.infer<typeof QrPaymentOutcome>;
export const QrPaymentOutcomeResponse = okResponse(QrPaymentOutcome);
