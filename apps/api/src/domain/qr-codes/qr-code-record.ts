import { randomBytes } from 'node:crypto';
import { qrCodeActions, type QrCode, type QrCodeDisplayStatus } from '@tay/contract';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor';
import type { QrCodesTable } from '../../db/schema/qr-codes';
import { AppError } from '../../lib/app-error';

export type QrCodeRow = Selectable<QrCodesTable>;

/** 24 random bytes, base64url (32 characters): what a printed code encodes; never the database id. */
export function newQrToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the code encodes: the payer's page. */
export function qrPayUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/pay/qr/${token}`;
}

/** Disabled by the business, Expired once its last day (the business's calendar) has passed, else active. */
export function qrDisplayStatus(row: Pick<QrCodeRow, 'status' | 'expires_on'>, today: string): QrCodeDisplayStatus {
  if (row.status === 'Disabled') return 'Disabled';
  if (row.expires_on !== null && row.expires_on < today) return 'Expired';
  return 'active';
}

export function toQrCode(row: QrCodeRow, publicUrl: string, today: string): QrCode {
  return {
    qrId: row.id,
    label: row.label,
    amountMode: row.amount_mode,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    minAmountCents: row.min_amount_cents === null ? null : Number(row.min_amount_cents),
    maxAmountCents: row.max_amount_cents === null ? null : Number(row.max_amount_cents),
    memo: row.memo,
    askName: row.ask_name,
    askEmail: row.ask_email,
    askPhone: row.ask_phone,
    askNote: row.ask_note,
    expiresOn: row.expires_on,
    status: row.status,
    displayStatus: qrDisplayStatus(row, today),
    scans: Number(row.scans),
    payments: Number(row.payments_count),
    collectedCents: Number(row.collected_cents),
    lastPaymentAt: row.last_payment_at?.toISOString() ?? null,
    payUrl: qrPayUrl(publicUrl, row.token),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    actions: qrCodeActions(row.status, Number(row.payments_count)),
  };
}

/** One code of the business; another business's id is 404, as an unknown one. */
export async function selectQrCode(db: Executor, businessId: string, qrId: string, { lock = false } = {}): Promise<QrCodeRow> {
  let query = db.selectFrom('qr_codes').selectAll().where('business_id', '=', businessId).where('id', '=', qrId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('QR code');
  return row;
}
