import { createHash, createHmac } from 'node:crypto';
import type { Selectable } from 'kysely';
import { LATEST_DAY, REQUEST_SOURCE_FIELDS, sourceRequestActions, type PaymentRequest } from '@tay/contract';
import type { PaymentRequestsTable } from '../../db/schema/payments';

export type RequestRow = Selectable<PaymentRequestsTable>;
/** What a request looks like in lists: the row without its business, link hash, reminder step and creator. */
export type RequestListRow = Omit<RequestRow, 'business_id' | 'pay_token_hash' | 'last_reminder_offset' | 'created_by'>;

export function referenceNumber(number: number): string {
  return `TRX-${number}`;
}

/** `TRX-10234` (or `10234`) typed in a search box → the number, else null. */
export function parseReferenceNumber(text: string): number | null {
  const match = /^(?:trx-?)?(\d{1,15})$/i.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/**
 * The payer's link token is derived, not stored: HMAC of the request id and the moment it was
 * (re)sent. Each send makes a new link and the previous one stops working; the database keeps
 * only its SHA-256 for the lookup, so a copy of the database opens no payment page.
 */
export function payToken(secret: string, requestId: string, sentAt: Date): string {
  return createHmac('sha256', secret).update(`pay:${requestId}:${sentAt.toISOString()}`).digest('base64url');
}

/**
 * The token of the link a request was last sent with, derived again: by the current secret, or
 * for a request sent before a rotation by the secret it replaced (AUTH_SECRET_PREVIOUS, ADR 018).
 * Null when none of `secrets` made it: the secret that did is no longer configured.
 */
export function sentPayToken(secrets: readonly string[], requestId: string, sentAt: Date, tokenHash: string): string | null {
  for (const secret of secrets) {
    const token = payToken(secret, requestId, sentAt);
    if (payTokenHash(token) === tokenHash) return token;
  }
  return null;
}

export function payTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function payLink(publicUrl: string, token: string): string {
  return `${publicUrl}/pay/${token}`;
}

/** The fields a request's source shows in its history item (its record's `list`, ADR 045). */
export function sourceListOf(row: Pick<RequestListRow, 'source'>): Record<string, unknown> {
  return row.source?.list ?? {};
}

/**
 * The request as the API shows it: its own fields, then its source's (ADR 045) — the fields its
 * record keeps under `list`, in the contract's names and form, and null for every other kind's.
 */
export function toPaymentRequest(row: RequestListRow): PaymentRequest {
  return {
    transactionId: row.id,
    referenceNumber: referenceNumber(row.number),
    transactionState: row.state,
    payerId: row.payer_id,
    payerName: row.payer_display_name,
    payerEmail: row.payer_email,
    amountCents: row.amount_cents,
    amountPaidCents: row.amount_paid_cents,
    refundedCents: Number(row.refunded_cents),
    memo: row.memo,
    reference: row.reference,
    dueDate: row.due_date,
    expiresOn: row.expires_on,
    allowPartial: row.allow_partial,
    sendAt: row.send_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    paidAt: row.paid_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...REQUEST_SOURCE_FIELDS,
    ...(sourceListOf(row) as Partial<Pick<PaymentRequest, keyof typeof REQUEST_SOURCE_FIELDS>>),
    actions: sourceRequestActions(row.state, row.source_kind),
  };
}

/** 'YYYY-MM-DD' plus whole days, in calendar arithmetic (no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const day = d.toISOString().slice(0, 10);
  // Past year 9999 the ISO string is `+010000-…`: never let that through as a day.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`${date} plus ${days} days is not a calendar day of years 0000-9999.`);
  return day;
}

/**
 * The expiry `days` after `date` (a due date, or today for a resent request), kept at LATEST_DAY
 * at most: the API accepts no later expiry, and editing the request sends its expiry back.
 */
export function expiryAfter(date: string, days: number): string {
  const day = addDays(date, days);
  return day > LATEST_DAY ? LATEST_DAY : day;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date in a time zone, 'YYYY-MM-DD' (one formatter per zone: making one costs ~70 µs). */
export function todayIn(timeZone: string, now = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** Whole days from `from` to `to` (both 'YYYY-MM-DD'). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
