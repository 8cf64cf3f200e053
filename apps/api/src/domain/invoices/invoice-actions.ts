import { canApplyToInvoice, ErrorCode, formatDateTime, formatDay, type Invoice, type InvoiceEvent } from '@tay/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { checkAmount } from '../businesses/amount-limits';
import type { ScopedBusiness } from '../businesses/business-scope';
import { runRequestCommand } from '../payment-requests/request-actions';
import { insertRequests } from '../payment-requests/insert-requests';
import { userActor, type ActingUser, type RequestContext } from '../payment-requests/request-context';
import { expiryAfter, todayIn } from '../payment-requests/request-record';
import { invoiceNumber } from './invoice-number';
import { invoiceSource } from './invoice-source';
import { lockRequest } from '../payment-requests/save-request';
import { capitalized, issueLinkAndMessage } from '../payment-requests/send-request-email';
import { transitionRequest } from '../payment-requests/transition';
import { checkPayer } from '../payment-requests/save-request';
import { lockInvoice, recordInvoiceEvent, selectInvoice, toInvoice, type InvoiceRow } from './invoice-record';

const VERB: Record<InvoiceEvent, string> = {
  send: 'sent',
  schedule: 'scheduled',
  scheduledSend: 'sent',
  resend: 'resent',
  withdraw: 'withdrawn',
  cancel: 'cancelled',
  pays: 'paid',
  payerDeclines: 'declined',
  expire: 'expired',
};

function refuse(row: InvoiceRow, event: InvoiceEvent): never {
  throw new AppError(ErrorCode.Conflict, `Invoice ${invoiceNumber(row.number)} is ${row.state}, so it cannot be ${VERB[event]}.`);
}

/** What a send needs of the invoice: something to pay, a due date not gone, an active payer. */
async function checkSendable(trx: Transaction<DB>, business: ScopedBusiness, row: InvoiceRow, confirmedAmountCents: number | null): Promise<void> {
  if (row.total_cents <= 0) {
    throw new AppError(
      ErrorCode.Conflict,
      `Invoice ${invoiceNumber(row.number)} totals $0.00: there is nothing to collect. Add an item or lower the discount.`,
    );
  }
  if (row.due_date < todayIn(business.timeZone)) {
    throw AppError.validation(`Invoice ${invoiceNumber(row.number)} was due ${formatDay(row.due_date)}, which has passed.`, {
      dueDate: 'Change the issue date, the terms or the due date so it is due today or later.',
    });
  }
  await checkPayer(trx, business.id, row.payer_id, row.channel);
  await checkAmount(trx, business.id, {
    amountCents: Number(row.total_cents),
    confirmedAmountCents,
    field: 'items',
    what: `invoice ${invoiceNumber(row.number)}`,
    goesOut: true,
  });
}

/**
 * POST …/invoices/:invoiceId/send: a draft goes to its payer now, or is scheduled for `sendAt`;
 * a scheduled one can be sent now. Sending makes the payment request that collects the invoice's
 * total (ADR 033): the payer's e-mail has the link and the PDF, and from then on the invoice
 * follows that request (migration 0030's trigger).
 */
export async function sendInvoice(
  ctx: RequestContext,
  {
    business,
    invoiceId,
    user,
    sendAt,
    confirmedAmountCents = null,
  }: { business: ScopedBusiness; invoiceId: string; user: ActingUser; sendAt: string | null; confirmedAmountCents?: number | null },
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockInvoice(trx, business.id, invoiceId);
    const actor = userActor(user);
    const when = sendAt ? new Date(sendAt) : null;
    if (when && when.getTime() <= Date.now()) throw AppError.validation('The send time must be in the future.', { sendAt: 'Choose a time in the future.' });
    if (row.state === 'Scheduled' && row.request_id) {
      const request = await lockRequest(trx, business.id, row.request_id);
      if (when) {
        // A new time for a scheduled invoice: still by its due date.
        if (todayIn(business.timeZone, when) > row.due_date) {
          throw AppError.validation('It would go out after its due date.', { sendAt: `Send it by ${formatDay(row.due_date)}, its due date.` });
        }
        await trx
          .updateTable('payment_requests')
          .set({ send_at: when, updated_at: new Date() })
          .where('business_id', '=', business.id)
          .where('id', '=', request.id)
          .execute();
        await recordInvoiceEvent(trx, {
          businessId: business.id,
          invoiceId,
          actor,
          event: 'schedule',
          detail: `To be sent ${formatDateTime(when, business.timeZone)} (${business.timeZone})`,
        });
      } else {
        await checkSendable(trx, business, row, confirmedAmountCents);
        const { sentAt, how } = await issueLinkAndMessage(ctx, trx, request, business.name, 'request');
        await transitionRequest({
          db: trx,
          businessId: business.id,
          requestId: request.id,
          event: 'scheduledSend',
          from: 'Pending',
          to: 'Sent',
          actor,
          set: { sent_at: sentAt, send_at: null },
          detail: capitalized(how),
        });
      }
      return toInvoice(await selectInvoice(trx, business.id, invoiceId), todayIn(business.timeZone));
    }
    if (!canApplyToInvoice(when ? 'schedule' : 'send', row.state)) refuse(row, when ? 'schedule' : 'send');
    await checkSendable(trx, business, row, confirmedAmountCents);
    if (when && todayIn(business.timeZone, when) > row.due_date) {
      throw AppError.validation('It would go out after its due date.', { sendAt: `Send it by ${formatDay(row.due_date)}, its due date.` });
    }
    const [request] = await insertRequests(trx, business.id, [
      {
        payer: { id: row.payer_id, displayName: row.payer_display_name, email: row.payer_email },
        amountCents: row.total_cents,
        memo: `Invoice ${invoiceNumber(row.number)}`,
        reference: invoiceNumber(row.number),
        dueDate: row.due_date,
        expiresOn: expiryAfter(row.due_date, business.defaultExpiryDays),
        allowPartial: row.allow_partial,
        channel: row.channel,
        source: invoiceSource(row),
        createdBy: user.userId,
        actor,
      },
    ]);
    const requestId = request!.id;
    await trx.updateTable('invoices').set({ request_id: requestId }).where('business_id', '=', business.id).where('id', '=', invoiceId).execute();
    if (when) {
      await transitionRequest({
        db: trx,
        businessId: business.id,
        requestId,
        event: 'schedule',
        from: 'Draft',
        to: 'Pending',
        actor,
        set: { send_at: when },
        detail: `To be sent ${formatDateTime(when, business.timeZone)} (${business.timeZone})`,
      });
    } else {
      const { sentAt, how } = await issueLinkAndMessage(ctx, trx, request!, business.name, 'request');
      await transitionRequest({
        db: trx,
        businessId: business.id,
        requestId,
        event: 'send',
        from: 'Draft',
        to: 'Sent',
        actor,
        set: { sent_at: sentAt, send_at: null },
        detail: capitalized(how),
      });
    }
    return toInvoice(await selectInvoice(trx, business.id, invoiceId), todayIn(business.timeZone));
  });
}

export type InvoiceCommand = 'resend' | 'withdraw' | 'cancel';

/**
 * Resend, Withdraw and Cancel: each is its request's command (the same rules, e-mails and
 * timeline), refused first in the invoice's own words when the invoice's state does not allow it.
 */
export async function runInvoiceCommand(
  ctx: RequestContext,
  { business, invoiceId, user, command }: { business: ScopedBusiness; invoiceId: string; user: ActingUser; command: InvoiceCommand },
): Promise<Invoice> {
  const row = await selectInvoice(ctx.db, business.id, invoiceId);
  if (!canApplyToInvoice(command, row.state) || !row.request_id) refuse(row, command);
  await runRequestCommand(ctx, { business, requestId: row.request_id, user, command });
  return toInvoice(await selectInvoice(ctx.db, business.id, invoiceId), todayIn(business.timeZone));
}
