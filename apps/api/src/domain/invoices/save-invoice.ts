import { ErrorCode, formatDateTime, type Invoice, type InvoiceValues } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import { nextNumber, userActor, type ActingUser, type RequestContext } from '../payment-requests/request-context';
import { expiryAfter, todayIn } from '../payment-requests/request-record';
import { invoiceNumber } from './invoice-number';
import { checkPayer } from '../payment-requests/save-request';
import { invoiceColumns, lockInvoice, recordInvoiceEvent, selectInvoice, toInvoice, type InvoiceRow } from './invoice-record';

async function payerColumns(trx: Transaction<DB>, businessId: string, values: InvoiceValues) {
  const payer = await checkPayer(trx, businessId, values.payerId, values.channel);
  return { payer_id: payer.id, payer_display_name: payer.display_name, payer_email: payer.email };
}

/**
 * POST /api/businesses/:id/invoices: a draft, numbered INV-0001… per business. The number comes
 * from the business's counter row in the same transaction: concurrent creates wait for each other
 * there, so numbers are unique and, as no committed create skips one, gapless.
 */
export async function createInvoice(
  ctx: Pick<RequestContext, 'db'>,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: InvoiceValues },
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (trx) => {
    const columns = invoiceColumns(body);
    const payer = await payerColumns(trx, business.id, body);
    const id = newId('inv');
    const number = await nextNumber(trx, business.id, 'invoice', 1);
    const row = await trx
      .insertInto('invoices')
      .values({
        business_id: business.id,
        id,
        number,
        ...payer,
        ...columns,
        request_id: null,
        send_at: null,
        sent_at: null,
        paid_at: null,
        created_by: user.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordInvoiceEvent(trx, { businessId: business.id, invoiceId: id, actor: userActor(user), event: 'create', detail: invoiceNumber(number) });
    return toInvoice(row, todayIn(business.timeZone));
  });
}

/** What to do instead of editing an invoice that has gone out. */
function insteadOfEditing(row: InvoiceRow): string {
  return `Invoice ${invoiceNumber(row.number)} is ${row.state} and cannot be edited: what the payer was sent stays as it was. Copy it to make a new one.`;
}

/**
 * PATCH …/invoices/:invoiceId: a draft's new content. A scheduled invoice can be edited too until
 * it goes: its request (amount, due date, payer) is changed with it, in the same transaction.
 */
export async function updateInvoice(
  ctx: Pick<RequestContext, 'db'> & Partial<Pick<RequestContext, 'mailer'>>,
  { business, invoiceId, user, body }: { business: ScopedBusiness; invoiceId: string; user: ActingUser; body: InvoiceValues },
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await lockInvoice(trx, business.id, invoiceId);
    if (current.state !== 'Draft' && current.state !== 'Scheduled') throw new AppError(ErrorCode.Conflict, insteadOfEditing(current));
    const columns = invoiceColumns(body);
    const payer = await payerColumns(trx, business.id, body);
    if (current.state === 'Scheduled') {
      if (columns.total_cents <= 0) throw AppError.validation('A scheduled invoice needs a total above $0.00.', { items: 'The total must be above $0.00.' });
      if (columns.due_date < todayIn(business.timeZone)) {
        throw AppError.validation('The due date would be in the past.', { dueDate: 'Choose terms or a due date from today on.' });
      }
      const request = await trx
        .selectFrom('payment_requests')
        .select(['id', 'state', 'send_at'])
        .where('business_id', '=', business.id)
        .where('id', '=', current.request_id!)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (request.state !== 'Pending') throw new AppError(ErrorCode.Conflict, 'This invoice was sent while you were editing it. Reload it.');
      if (request.send_at && todayIn(business.timeZone, request.send_at) > columns.due_date) {
        throw AppError.validation(`It is to be sent ${formatDateTime(request.send_at, business.timeZone)}, after this due date.`, {
          dueDate: 'Choose terms or a due date on or after the day it is sent, or change the send time first.',
        });
      }
      await trx
        .updateTable('payment_requests')
        .set({
          ...payer,
          amount_cents: columns.total_cents,
          due_date: columns.due_date,
          expires_on: expiryAfter(columns.due_date, business.defaultExpiryDays),
          allow_partial: columns.allow_partial,
          channel: columns.channel,
          updated_at: new Date(),
        })
        .where('business_id', '=', business.id)
        .where('id', '=', request.id)
        .execute();
    }
    const row = await trx
      .updateTable('invoices')
      .set({ ...payer, ...columns, updated_at: new Date() })
      .where('business_id', '=', business.id)
      .where('id', '=', invoiceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordInvoiceEvent(trx, { businessId: business.id, invoiceId, actor: userActor(user), event: 'edit' });
    return toInvoice(row, todayIn(business.timeZone));
  });
}

/** DELETE …/invoices/:invoiceId: a draft goes; the audit log keeps its number and who deleted it. */
export async function deleteInvoiceDraft(
  ctx: Pick<RequestContext, 'db'>,
  { business, invoiceId, user }: { business: ScopedBusiness; invoiceId: string; user: ActingUser },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockInvoice(trx, business.id, invoiceId);
    if (row.state !== 'Draft') {
      const instead =
        row.state === 'Scheduled' ? 'Cancel it instead.' : row.state === 'Sent' || row.state === 'Resent' ? 'Withdraw it instead.' : 'It stays on record.';
      throw new AppError(ErrorCode.Conflict, `Only drafts can be deleted; invoice ${invoiceNumber(row.number)} is ${row.state}. ${instead}`);
    }
    await trx.deleteFrom('invoices').where('business_id', '=', business.id).where('id', '=', invoiceId).execute();
    await recordEvent(trx, {
      businessId: business.id,
      actor: { userId: user.userId, label: user.email, ip: user.ip ?? null },
      action: 'invoice.deleted',
      details: { invoiceId, number: invoiceNumber(row.number), totalCents: row.total_cents },
    });
  });
}

export { selectInvoice };
