import { sql, type Kysely } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  formatDay,
  formatMoney,
  QR_STATUS_LABELS,
  type QrCode,
  type QrCodeListQuery,
  type QrCodeValues,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor as AuditActor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { todayIn } from '../payment-requests/request-record';
import { newQrToken, selectQrCode, toQrCode, type QrCodeRow } from './qr-code-record';
import { plainPage } from '../../db/plain-list';
import { anyRow } from '../../db/any-row';

export interface QrContext {
  db: Kysely<DB>;
  publicUrl: string;
}

type ListQuery = ReturnType<typeof QrCodeListQuery.parse>;

const auditActor = (user: ActingUser): AuditActor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

function columnsOf(values: QrCodeValues) {
  return {
    label: values.label,
    amount_mode: values.amountMode,
    amount_cents: values.amountMode === 'fixed' ? (values.amountCents ?? null) : null,
    min_amount_cents: values.amountMode === 'open' ? (values.minAmountCents ?? null) : null,
    max_amount_cents: values.amountMode === 'open' ? (values.maxAmountCents ?? null) : null,
    memo: values.memo,
    ask_name: values.askName,
    ask_email: values.askEmail,
    ask_phone: values.askPhone,
    ask_note: values.askNote,
    expires_on: values.expiresOn ?? null,
    status: values.status,
  };
}

/** An expiry already past would make a code that takes nothing: refused, with the field named. */
function checkExpiry(values: QrCodeValues, business: ScopedBusiness, previous?: QrCodeRow): void {
  const today = todayIn(business.timeZone);
  if (values.expiresOn && values.expiresOn < today && values.expiresOn !== previous?.expires_on) {
    throw AppError.validation('The expiry date is in the past.', { expiresOn: `Choose today (${formatDay(today)}) or a later day.` });
  }
}

export async function createQrCode(
  ctx: QrContext,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: QrCodeValues },
): Promise<QrCode> {
  checkExpiry(body, business);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('qr_codes')
      .values({ business_id: business.id, id: newId('qr'), token: newQrToken(), ...columnsOf(body), created_by: user.userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'qr_code.created', details: { qrId: row.id, label: row.label } });
    return toQrCode(row, ctx.publicUrl, todayIn(business.timeZone));
  });
}

/** Edits a code; what it encodes (its token) never changes, so printed copies keep working. */
export async function updateQrCode(
  ctx: QrContext,
  { business, user, qrId, body }: { business: ScopedBusiness; user: ActingUser; qrId: string; body: QrCodeValues },
): Promise<QrCode> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectQrCode(trx, business.id, qrId, { lock: true });
    checkExpiry(body, business, current);
    const row = await trx
      .updateTable('qr_codes')
      .set({ ...columnsOf(body), updated_at: sql<Date>`now()` })
      .where('business_id', '=', business.id)
      .where('id', '=', qrId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'qr_code.updated', details: { qrId, label: row.label } });
    return toQrCode(row, ctx.publicUrl, todayIn(business.timeZone));
  });
}

export async function setQrCodeStatus(
  ctx: QrContext,
  { business, user, qrId, enable }: { business: ScopedBusiness; user: ActingUser; qrId: string; enable: boolean },
): Promise<QrCode> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectQrCode(trx, business.id, qrId, { lock: true });
    const status = enable ? 'active' : 'Disabled';
    if (current.status === status) {
      throw new AppError(ErrorCode.Conflict, `The QR code "${current.label}" is already ${enable ? 'enabled' : 'disabled'}.`);
    }
    const row = await trx
      .updateTable('qr_codes')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('business_id', '=', business.id)
      .where('id', '=', qrId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: enable ? 'qr_code.enabled' : 'qr_code.disabled',
      details: { qrId, label: row.label },
    });
    return toQrCode(row, ctx.publicUrl, todayIn(business.timeZone));
  });
}

/** Deletes a code no one has paid, or tried to pay, through: the others stay on record with their payments. */
export async function deleteQrCode(ctx: QrContext, { business, user, qrId }: { business: ScopedBusiness; user: ActingUser; qrId: string }): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const current = await selectQrCode(trx, business.id, qrId, { lock: true });
    if (await anyRow(trx, 'payment_requests', business.id, { source_kind: 'qr', source_id: qrId })) {
      throw new AppError(
        ErrorCode.Conflict,
        `Payers have paid, or tried to pay, through the QR code "${current.label}", so it stays on record with its payments. Disable it instead.`,
      );
    }
    await trx.deleteFrom('qr_codes').where('business_id', '=', business.id).where('id', '=', qrId).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'qr_code.deleted', details: { qrId, label: current.label } });
  });
}

export async function getQrCode(ctx: QrContext, { business, qrId }: { business: ScopedBusiness; qrId: string }): Promise<QrCode> {
  return toQrCode(await selectQrCode(ctx.db, business.id, qrId), ctx.publicUrl, todayIn(business.timeZone));
}

const SORT_COLUMNS = { createdAt: 'created_at', label: 'label', collected: 'collected_cents', payments: 'payments_count', scans: 'scans' } as const;

function filtered(db: Kysely<DB>, businessId: string, today: string, query: Pick<ListQuery, 'search' | 'status'>) {
  let q = db.selectFrom('qr_codes').where('business_id', '=', businessId);
  if (query.search) q = q.where(sql<boolean>`strpos(lower(label), lower(${query.search})) > 0`);
  if (query.status === 'Disabled') q = q.where('status', '=', 'Disabled');
  if (query.status === 'Expired') q = q.where('status', '=', 'active').where('expires_on', '<', today);
  if (query.status === 'active') q = q.where('status', '=', 'active').where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]));
  return q;
}

/** A business has tens of codes, not millions: a plain filtered, sorted page. */
export async function listQrCodes(ctx: QrContext, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const today = todayIn(business.timeZone);
  const base = filtered(ctx.db, business.id, today, query);
  return plainPage(query, base.selectAll().orderBy(SORT_COLUMNS[query.sortBy], query.sortDirection).orderBy('id', query.sortDirection), base, (rows) =>
    rows.map((r) => toQrCode(r, ctx.publicUrl, today)),
  );
}

export async function* exportQrCodes(ctx: QrContext, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const today = todayIn(business.timeZone);
  const rows = await filtered(ctx.db, business.id, today, query)
    .selectAll()
    .orderBy(SORT_COLUMNS[query.sortBy], query.sortDirection)
    .orderBy('id', query.sortDirection)
    .execute();
  yield (
    '\ufeff' + csvRow(['Label', 'Amount', 'Minimum', 'Maximum', 'Memo', 'Status', 'Expires', 'Scans', 'Payments', 'Collected', 'Last payment', 'Link']) + '\r\n'
  );
  for (const row of rows) {
    const code = toQrCode(row, ctx.publicUrl, today);
    yield (
      csvRow([
        code.label,
        code.amountCents === null ? 'Payer enters' : formatMoney(code.amountCents),
        code.minAmountCents === null ? '' : formatMoney(code.minAmountCents),
        code.maxAmountCents === null ? '' : formatMoney(code.maxAmountCents),
        code.memo,
        QR_STATUS_LABELS[code.displayStatus],
        code.expiresOn ? formatDay(code.expiresOn) : '',
        code.scans,
        code.payments,
        formatMoney(code.collectedCents),
        row.last_payment_at ? formatDateTime(row.last_payment_at, business.timeZone) : '',
        code.payUrl,
      ]) + '\r\n'
    );
  }
}
