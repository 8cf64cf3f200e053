import type { Transaction } from 'kysely';
import { canApply, ErrorCode, formatDay, type PaymentRequest, type RequestEvent, type RequestState } from '@tay/contract';
import { AppError } from '../../lib/app-error';
import type { ScopedBusiness } from '../businesses/business-scope';
import { userActor, type ActingUser, type RequestContext } from './request-context';
import type { DB } from '../../db/schema';
import { expiryAfter, referenceNumber, todayIn, toPaymentRequest, type RequestRow } from './request-record';
import { recordEvent } from '../businesses/audit';
import { checkAmount } from '../businesses/amount-limits';
import { lockRequest, selectRequest } from './save-request';
import { capitalized, issueLinkAndMessage } from './send-request-email';
import { transitionRequest } from './transition';
import { sourceOf } from '../request-sources';
import type { RequestCommand } from './request-source';

export type { RequestCommand };

const EVENT: Record<RequestCommand, RequestEvent> = { send: 'send', resend: 'resend', withdraw: 'withdraw', cancel: 'cancel' };
const TARGET: Record<RequestCommand, RequestState> = { send: 'Sent', resend: 'Resent', withdraw: 'Withdrawn', cancel: 'Cancelled' };
const VERB: Record<RequestCommand, string> = { send: 'sent', resend: 'resent', withdraw: 'withdrawn', cancel: 'cancelled' };

/** Send, Resend, Withdraw and Cancel row actions, each allowed only where docs/product.md §4 allows it. */
export async function runRequestCommand(
  ctx: RequestContext,
  {
    business,
    requestId,
    user,
    command,
    confirmedAmountCents = null,
  }: { business: ScopedBusiness; requestId: string; user: ActingUser; command: RequestCommand; confirmedAmountCents?: number | null },
): Promise<PaymentRequest> {
  const businessId = business.id;
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockRequest(trx, businessId, requestId);
    // A request made for something else may refuse a command (a payment through a QR code was sent to no one).
    const refusal = sourceOf(row.source_kind).commandRefusal?.(row, command, VERB[command]);
    if (refusal) throw refusal;
    const event = EVENT[command];
    if (!canApply(event, row.state)) {
      throw new AppError(ErrorCode.Conflict, `A request that is ${row.state} cannot be ${VERB[command]}.`);
    }
    const actor = userActor(user);
    const transition = { db: trx, businessId, requestId, event, from: row.state, to: TARGET[command], actor };
    if (command === 'send' || command === 'resend') {
      await requireActivePayer(trx, row, command);
      // A draft going out for the first time: a large amount is confirmed (a resend repeats what was sent).
      if (command === 'send') {
        await checkAmount(trx, businessId, {
          amountCents: Number(row.amount_cents),
          confirmedAmountCents,
          field: 'amountCents',
          what: 'this request',
          goesOut: true,
        });
      }
      // Resending an expired request gives the payer a new payable window.
      const today = todayIn(business.timeZone);
      const extend = row.expires_on < today ? { expires_on: expiryAfter(today, business.defaultExpiryDays) } : {};
      if (extend.expires_on) {
        await trx.updateTable('payment_requests').set(extend).where('business_id', '=', businessId).where('id', '=', requestId).execute();
        row.expires_on = extend.expires_on;
      }
      const { sentAt, how } = await issueLinkAndMessage(ctx, trx, row, business.name, command === 'send' ? 'request' : 'resend');
      await transitionRequest({
        ...transition,
        set: { sent_at: sentAt, send_at: null },
        detail: `${capitalized(how)}${extend.expires_on ? `; now payable until ${formatDay(extend.expires_on)}` : ''}`,
      });
    } else {
      await transitionRequest({
        ...transition,
        // The link keeps working so the payer's page can say the request was withdrawn.
        ...(command === 'cancel' ? { set: { send_at: null } } : {}),
      });
    }
    return toPaymentRequest(await selectRequest(trx, businessId, requestId));
  });
}

/** Only an active payer is e-mailed (docs/product.md §4: a deactivated payer gets no new requests). */
async function requireActivePayer(trx: Transaction<DB>, row: RequestRow, command: 'send' | 'resend'): Promise<void> {
  const payer = await trx
    .selectFrom('payers')
    .select(['display_name', 'email', 'status'])
    .where('business_id', '=', row.business_id)
    .where('id', '=', row.payer_id)
    .executeTakeFirstOrThrow();
  if (payer.status !== 'active') {
    throw new AppError(
      ErrorCode.Conflict,
      `${payer.display_name} (${payer.email}) is deactivated, so this request was not ${VERB[command]} and nothing was e-mailed. Activate the payer on the Payers page, then ${command} it again.`,
    );
  }
}

/** What to do instead of deleting a request that is no longer a draft. */
function insteadOfDeleting(state: RequestState): string {
  if (state === 'Pending') return 'Cancel it instead.';
  if (state === 'Sent' || state === 'Resent') return 'Withdraw it instead.';
  return 'It stays on record.';
}

/** Deletes a draft (docs/product.md §4: Draft ─▶ deleted); anything sent stays on record. */
export async function deleteDraft(
  ctx: RequestContext,
  { businessId, requestId, user }: { businessId: string; requestId: string; user: ActingUser },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockRequest(trx, businessId, requestId);
    if (row.state !== 'Draft') {
      throw new AppError(ErrorCode.Conflict, `Only drafts can be deleted; this request is ${row.state}. ${insteadOfDeleting(row.state)}`);
    }
    await trx.deleteFrom('payment_requests').where('business_id', '=', businessId).where('id', '=', requestId).execute();
    // Its source may hold something for it (a student's draft releases the enrollment's period it billed, ADR 036).
    await sourceOf(row.source_kind).onDraftDeleted?.(trx, row);
    // The draft's timeline goes with it; the audit log keeps that it was deleted, and by whom.
    await recordEvent(trx, {
      businessId,
      actor: { userId: user.userId, label: user.email, ip: user.ip ?? null },
      action: 'request.deleted',
      details: { requestId, reference: referenceNumber(row.number) },
    });
  });
}
