import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode, formatDay, qrAmountProblem, type PublicQrPage, type QrAsk, type QrPageStatus, type QrPaymentOutcome } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { consumeRateLimit } from '../../lib/rate-limiter';
import { newId } from '../../lib/ids';
import { logoUrl } from '../businesses/business-record';
import { insertRequests } from '../payment-requests/insert-requests';
import { addDays, payToken, payTokenHash, referenceNumber, todayIn, type RequestRow } from '../payment-requests/request-record';
import type { PaymentDeps } from '../payments/apply-charge-result';
import { chargePayment, checkInstrument, startPayment } from '../payments/pay-request';
import type { PaymentRow } from '../payments/payment-record';
import { toPaymentSummary, payerActor } from '../payments/payment-record';
import { qrDisplayStatus, type QrCodeRow } from './qr-code-record';
import { qrSource } from './qr-source';

/** The values a payment through a code carries, as the contract parsed them. */
export interface QrPaymentValues {
  method: 'card' | 'bank_account';
  processorToken: string;
  amountCents: number;
  payerName?: string | undefined;
  payerEmail?: string | undefined;
  payerPhone?: string | undefined;
  note?: string | undefined;
}

/** What names a payer through a code who gave no name. */
export const WALK_IN_PAYER = 'Walk-in payer';

export { QR_PAY_ATTEMPTS } from './qr-source';

/** How long a visit lasts: a scan within it (a reload, the page opened again) is not counted again. */
export const QR_VISIT_SECONDS = 30 * 60;

interface QrBusiness {
  id: string;
  business_name: string;
  state: string;
  time_zone: string;
  logo_updated_at: Date | null;
}

/** The code behind a scanned link and its business; 404 for an unknown or malformed token. */
export async function findByQrToken(db: Kysely<DB> | Transaction<DB>, token: string): Promise<{ code: QrCodeRow; business: QrBusiness }> {
  if (!/^[A-Za-z0-9_-]{22,64}$/.test(token)) throw notFound();
  const code = await db.selectFrom('qr_codes').selectAll().where('token', '=', token).executeTakeFirst();
  if (!code) throw notFound();
  const business = await db
    .selectFrom('businesses')
    .select(['id', 'business_name', 'state', 'time_zone', 'logo_updated_at'])
    .where('id', '=', code.business_id)
    .executeTakeFirstOrThrow();
  return { code, business };
}

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'This QR code is not one of ours, or the business deleted it. Ask the business how to pay.');
}

/** Whether the code takes money now, and if not, the sentence that says why. */
export function qrPageStatus(code: QrCodeRow, business: QrBusiness): { status: QrPageStatus; message: string | null } {
  if (business.state !== 'Approved') {
    return { status: 'unavailable', message: `${business.business_name} cannot take payments right now. Ask them how to pay.` };
  }
  const today = todayIn(business.time_zone);
  switch (qrDisplayStatus(code, today)) {
    case 'Disabled':
      return { status: 'disabled', message: `${business.business_name} has turned this QR code off, so it takes no payments. Ask them how to pay.` };
    case 'Expired':
      return {
        status: 'expired',
        message: `This QR code expired on ${formatDay(code.expires_on!)} and takes no payments. Ask ${business.business_name} how to pay.`,
      };
    default:
      return { status: 'payable', message: null };
  }
}

/**
 * The payer's page. `newVisit`: the browser brought no visit cookie, so this may be a scan to
 * count: once per device (`device`, a hash of its address and browser) and day of the business —
 * a reload, a browser that keeps no cookies, or the same phone scanning again that day is not a
 * new scan. The day's marks are counters in the database (every replica sees them), gone the
 * next day.
 */
export async function getQrPage(db: Kysely<DB>, token: string, { newVisit, device }: { newVisit: boolean; device: string }): Promise<PublicQrPage> {
  const { code, business } = await findByQrToken(db, token);
  if (newVisit) {
    const { rows } = await sql<{ seconds: number }>`
      SELECT greatest(1, ceil(extract(epoch FROM (((now() AT TIME ZONE ${business.time_zone})::date + 1)::timestamp AT TIME ZONE ${business.time_zone}) - now())))::int AS seconds`.execute(
      db,
    );
    const seen = await consumeRateLimit(db, `qr-scan:${code.id}:${device}`, { max: 1, windowSeconds: Number(rows[0]!.seconds) });
    if (seen.count === 1)
      await db
        .updateTable('qr_codes')
        .set((eb) => ({ scans: eb('scans', '+', 1) }))
        .where('business_id', '=', code.business_id)
        .where('id', '=', code.id)
        .execute();
  }
  const { status, message } = qrPageStatus(code, business);
  return {
    businessName: business.business_name,
    businessLogoUrl: logoUrl(business.id, business.logo_updated_at),
    label: code.label,
    memo: code.memo,
    amountMode: code.amount_mode,
    amountCents: code.amount_cents === null ? null : Number(code.amount_cents),
    minAmountCents: code.min_amount_cents === null ? null : Number(code.min_amount_cents),
    maxAmountCents: code.max_amount_cents === null ? null : Number(code.max_amount_cents),
    ask: { name: code.ask_name, email: code.ask_email, phone: code.ask_phone, note: code.ask_note },
    status,
    statusMessage: message,
  };
}

/** The amount and the asked fields checked against the code, every problem named by its field at once. */
export function checkQrPayment(code: QrCodeRow, body: QrPaymentValues): void {
  const fields: Record<string, string> = {};
  const amountProblem = qrAmountProblem(body.amountCents, {
    amountMode: code.amount_mode,
    amountCents: code.amount_cents === null ? null : Number(code.amount_cents),
    minAmountCents: code.min_amount_cents === null ? null : Number(code.min_amount_cents),
    maxAmountCents: code.max_amount_cents === null ? null : Number(code.max_amount_cents),
  });
  if (amountProblem) fields.amountCents = amountProblem;
  const required = (ask: QrAsk, value: string | undefined, field: string, message: string) => {
    if (ask === 'required' && !value) fields[field] = message;
  };
  required(code.ask_name, body.payerName, 'payerName', 'Enter your name.');
  required(code.ask_email, body.payerEmail, 'payerEmail', 'Enter your e-mail address, for the receipt.');
  required(code.ask_phone, body.payerPhone, 'payerPhone', 'Enter your phone number.');
  required(code.ask_note, body.note, 'note', 'Add the note the business asks for.');
  const first = Object.values(fields)[0];
  if (first) throw AppError.validation(Object.keys(fields).length === 1 ? first : 'Some details need your attention.', fields);
}

export interface PayThroughQrOptions extends PaymentDeps {
  token: string;
  authSecret: string;
  body: QrPaymentValues;
  onPaymentCreated?: (trx: Transaction<DB>, paymentId: string) => Promise<void>;
}

/**
 * A payment through a code (ADR 034). One transaction makes a request of its own for it — tagged
 * with the code, for the payer who gave their details (matched to the business's payer by e-mail,
 * or none), already Sent so it has a page of its own — and starts the payment on it exactly as the
 * pay page does (`startPayment`: Pending payment, request Accepted, reconciliation queued, the
 * Idempotency-Key's recovery point). The processor is charged after commit, keyed by the payment
 * id, so a retry or the reconciliation job charges once.
 */
export async function payThroughQr(options: PayThroughQrOptions): Promise<QrPaymentOutcome> {
  const { db, body } = options;
  const instrument = await checkInstrument(options.processor, body);
  const { payment, token } = await db.transaction().execute(async (trx) => {
    const { code, business } = await findByQrToken(trx, options.token);
    const { status, message } = qrPageStatus(code, business);
    if (status !== 'payable') throw new AppError(ErrorCode.Conflict, message ?? 'This QR code takes no payments.');
    checkQrPayment(code, body);
    const keep = (ask: QrAsk, value: string | undefined) => (ask === 'off' ? undefined : value);
    const payerName = keep(code.ask_name, body.payerName);
    const payerEmail = keep(code.ask_email, body.payerEmail);
    const payer = payerEmail
      ? await trx
          .selectFrom('payers')
          .select(['id', 'display_name'])
          .where('business_id', '=', code.business_id)
          .where('email', '=', payerEmail)
          .executeTakeFirst()
      : undefined;
    const today = todayIn(business.time_zone);
    const requestId = newId('req');
    const sentAt = new Date();
    const payTokenValue = payToken(options.authSecret, requestId, sentAt);
    const [request] = await insertRequests(trx, code.business_id, [
      {
        id: requestId,
        payer: { id: payer?.id ?? null, displayName: payerName ?? payer?.display_name ?? WALK_IN_PAYER, email: payerEmail ?? '' },
        amountCents: body.amountCents,
        memo: code.memo,
        reference: code.label,
        dueDate: today,
        // A failed payment can be tried again from the request's own page until tomorrow ends.
        expiresOn: addDays(today, 1),
        allowPartial: false,
        source: qrSource(code, { phone: keep(code.ask_phone, body.payerPhone) ?? null, note: keep(code.ask_note, body.note) ?? null }),
        createdBy: null,
        actor: payerActor(payerEmail ?? ''),
        // Already sent, so it has a page of its own.
        sent: { at: sentAt, payTokenHash: payTokenHash(payTokenValue) },
        detail: `Through the QR code "${code.label}"`,
      },
    ]);
    const started = await startPayment(trx, { ...options, body }, request!, instrument, payerEmail ?? '');
    return { payment: started, token: payTokenValue };
  });
  return qrOutcome(await chargePayment(options, payment, body.processorToken), token);
}

export function qrOutcome({ payment, request }: { payment: PaymentRow; request: RequestRow }, token: string): QrPaymentOutcome {
  return {
    payment: toPaymentSummary(payment),
    transactionState: request.state,
    referenceNumber: referenceNumber(request.number),
    amountCents: request.amount_cents,
    payToken: token,
  };
}

/** The request a payment through a code made (a retry's answer), with its page's token derived again. */
export async function qrPaymentRequest(db: Kysely<DB>, businessId: string, paymentId: string, authSecret: string) {
  const payment = await db
    .selectFrom('payments')
    .select(['request_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  const request = await db
    .selectFrom('payment_requests')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', payment.request_id)
    .executeTakeFirstOrThrow();
  return { request, token: payToken(authSecret, request.id, request.sent_at!) };
}
