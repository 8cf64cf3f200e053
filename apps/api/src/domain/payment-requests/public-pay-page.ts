import type { Kysely } from 'kysely';
import { canApply, ErrorCode, PAY_PAGE_SOURCE_FIELDS, PAYABLE_STATES, type PayPageStatus, type PublicPayPage } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { logoUrl } from '../businesses/business-record';
import { sourceOf } from '../request-sources';
import { payTokenHash, referenceNumber, todayIn, type RequestRow } from './request-record';
import { lockRequest } from './save-request';
import { transitionRequest } from './transition';

/** What the pay page and a payment need of the business: its name and logo, whether it takes payments, its day, whether requests expire. */
export const PAY_BUSINESS_COLUMNS = ['id', 'business_name', 'state', 'time_zone', 'logo_updated_at', 'auto_expire'] as const;

export interface PayContext {
  row: RequestRow;
  business: { id: string; business_name: string; state: string; time_zone: string; logo_updated_at: Date | null; auto_expire: boolean };
}

/** The request behind a payer link; 404 for an unknown or replaced link (a withdrawn request's link says so on the page). */
/**
 * Payment attempts one device may make on one pay link in ten minutes. A payer who mistypes a card
 * a few times is well inside it; a stolen-card tester is not. (A QR code's walk-in requests use
 * the code's own count, `QR_PAY_ATTEMPTS`.)
 */
export const PAY_LINK_ATTEMPTS = { max: 10, windowSeconds: 600 } as const;

export async function findByPayToken(db: Kysely<DB>, token: string): Promise<PayContext> {
  if (!/^[\w-]{20,100}$/.test(token)) throw notFound();
  const row = await db.selectFrom('payment_requests').selectAll().where('pay_token_hash', '=', payTokenHash(token)).executeTakeFirst();
  if (!row) throw notFound();
  const business = await db.selectFrom('businesses').select(PAY_BUSINESS_COLUMNS).where('id', '=', row.business_id).executeTakeFirstOrThrow();
  return { row, business };
}

function notFound(): AppError {
  return new AppError(
    ErrorCode.NotFound,
    'This payment link is not valid any more: a newer e-mail from the business may have replaced it. Open the link in the newest one.',
  );
}

/** Past its expiry date in the business's time zone (the expiry job may not have run yet). */
export function isPastExpiry(row: Pick<RequestRow, 'expires_on'>, timeZone: string): boolean {
  return row.expires_on < todayIn(timeZone);
}

/** Whether the page takes money now, and if not, the sentence that says why. */
export function payStatus({ row, business }: PayContext): { status: PayPageStatus; message: string | null } {
  if (business.state !== 'Approved') {
    return { status: 'unavailable', message: `${business.business_name} cannot take payments right now. Contact them directly.` };
  }
  switch (row.state) {
    case 'Paid':
      return Number(row.refunded_cents) >= row.amount_paid_cents
        ? { status: 'paid', message: `${business.business_name} refunded this request in full; there is nothing to pay.` }
        : { status: 'paid', message: 'This request is paid in full. Thank you!' };
    case 'Accepted':
      return { status: 'processing', message: 'A payment for this request is being processed. You will receive a receipt by e-mail.' };
    case 'Expired':
      return { status: 'expired', message: `This request expired. Ask ${business.business_name} to send it again.` };
    case 'Withdrawn':
      return { status: 'withdrawn', message: `${business.business_name} withdrew this request; there is nothing to pay.` };
    case 'Cancelled':
      return { status: 'cancelled', message: `${business.business_name} cancelled this request; there is nothing to pay.` };
    case 'Rejected':
      return { status: 'declined', message: 'You declined this request.' };
    default:
      break;
  }
  if (!PAYABLE_STATES.includes(row.state)) return { status: 'unavailable', message: 'This request cannot be paid.' };
  // Closed by its expiry date only where the expiry job would make it Expired (it may not have run
  // yet): a business that expires requests automatically, a request that can expire. The rest of
  // a part-paid request stays payable, and with automatic expiry off nothing closes by date.
  if (business.auto_expire && canApply('expire', row.state) && isPastExpiry(row, business.time_zone)) {
    return { status: 'expired', message: `This request expired. Ask ${business.business_name} to send it again.` };
  }
  return { status: 'payable', message: null };
}

/**
 * Whether the payer may decline now, and if not, the sentence that says why: only on a page that
 * is open (the same rules as paying) and only where the state machine allows `payerDeclines` —
 * once part is paid or a payment was tried, declining is no longer an answer.
 */
export function declineRefusal(context: PayContext): string | null {
  const { status, message } = payStatus(context);
  if (status !== 'payable') return message ?? 'This request can no longer be declined.';
  if (canApply('payerDeclines', context.row.state, 'Rejected')) return null;
  if (context.row.state === 'PartiallyPaid') {
    return `You have already paid part of this request, so it can no longer be declined. Pay the rest, or contact ${context.business.business_name}.`;
  }
  if (context.row.state === 'Error') {
    return `A payment was already tried for this request, so it can no longer be declined. You can pay again, or contact ${context.business.business_name}.`;
  }
  return 'This request can no longer be declined.';
}

/** The payer's page. `opened`: the payer opened it (GET), which the timeline notes; an answer to the payer's own action does not. */
export async function getPayPage(db: Kysely<DB>, token: string, { opened = false }: { opened?: boolean } = {}): Promise<PublicPayPage> {
  const context = await findByPayToken(db, token);
  const { row, business } = context;
  const payments = await db
    .selectFrom('payments')
    .select(['id', 'instrument', 'amount_cents', 'state', 'failure_reason', 'created_at', 'refunded_cents'])
    .where('business_id', '=', row.business_id)
    .where('request_id', '=', row.id)
    .orderBy('created_at', 'asc')
    .execute();
  const { status, message } = payStatus(context);
  // What its source shows (an invoice's lines, a student's or a patient's line and statement).
  const fromSource = (await sourceOf(row.source_kind).payPage?.(db, row, opened)) ?? {};
  return {
    businessName: business.business_name,
    businessLogoUrl: logoUrl(business.id, business.logo_updated_at),
    referenceNumber: referenceNumber(row.number),
    payerName: row.payer_display_name,
    amountCents: row.amount_cents,
    amountPaidCents: row.amount_paid_cents,
    remainingCents: row.amount_cents - row.amount_paid_cents,
    refundedCents: Number(row.refunded_cents),
    memo: row.memo,
    ...PAY_PAGE_SOURCE_FIELDS,
    ...fromSource,
    dueDate: row.due_date,
    expiresOn: row.expires_on,
    allowPartial: row.allow_partial,
    transactionState: row.state,
    status,
    statusMessage: message,
    declinable: declineRefusal(context) === null,
    payments: payments.map((p) => ({
      paymentId: p.id,
      instrument: p.instrument,
      amountCents: p.amount_cents,
      state: p.state,
      failureReason: p.failure_reason,
      createdAt: p.created_at.toISOString(),
      refundedCents: Number(p.refunded_cents),
    })),
  };
}

/**
 * The payer declines with a reason (Sent/Resent → Rejected); the business sees it in the timeline.
 * The reason is required (`DeclineBody`): the business is owed an answer, not a blank.
 */
export async function declineRequest(db: Kysely<DB>, token: string, reason: string): Promise<PublicPayPage> {
  const context = await findByPayToken(db, token);
  await db.transaction().execute(async (trx) => {
    const row = await lockRequest(trx, context.row.business_id, context.row.id);
    const refusal = declineRefusal({ row, business: context.business });
    if (refusal !== null) throw new AppError(ErrorCode.Conflict, refusal);
    await transitionRequest({
      db: trx,
      businessId: row.business_id,
      requestId: row.id,
      event: 'payerDeclines',
      from: row.state,
      to: 'Rejected',
      actor: { type: 'payer', id: null, label: `Payer (${row.payer_email})` },
      detail: reason,
    });
  });
  return getPayPage(db, token);
}
