import { sql, type Kysely } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  formatMoney,
  RECEIVER_REVIEW_LABELS,
  RECEIVER_STATUS_LABELS,
  RECEIVER_VERIFICATION_LABELS,
  type Receiver,
  type ReceiverListQuery,
  type ReceiverValues,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { Mailer } from '../../mail/mailer';
import { recordEvent, type Actor as AuditActor } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import { mayNow, requireMoneyRule } from '../businesses/money-rules';
import type { ActingUser } from '../payment-requests/request-context';
import {
  assertNoDuplicateReceiver,
  loadReceiver,
  payoutsCountOf,
  RECEIVER_COLUMNS,
  receiverDuplicateFromViolation,
  reviewReceivers,
  selectReceiver,
  sendReceiverLink,
  toReceiver,
} from './receiver-record';
import { plainPage } from '../../db/plain-list';
import { anyRow } from '../../db/any-row';
import { updateOwned } from '../../db/owned-rows';

export interface ReceiverContext {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
}

type ListQuery = ReturnType<typeof ReceiverListQuery.parse>;

const auditActor = (user: ActingUser): AuditActor => ({ userId: user.userId, label: user.email, ip: user.ip ?? null });

function columnsOf(values: ReceiverValues) {
  return {
    first_name: values.firstName,
    last_name: values.lastName,
    email: values.email,
    mobile: values.mobile ?? null,
    reference: values.reference ?? null,
  };
}

/**
 * POST …/receivers: a new, active, unverified receiver, e-mailed the secure link to enter their
 * bank account. One an owner or admin adds is reviewed; one a member adds waits for an owner or
 * admin to review it (`MONEY_RULES.approvePayout`).
 */
export async function createReceiver(
  ctx: ReceiverContext,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: ReceiverValues },
): Promise<Receiver> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await assertNoDuplicateReceiver(trx, { businessId: business.id, email: body.email, reference: body.reference ?? null });
      const id = newId('rcv');
      const reviewer = await mayNow(trx, business.id, user.userId, 'approvePayout');
      await trx
        .insertInto('receivers')
        .values({
          business_id: business.id,
          id,
          ...columnsOf(body),
          created_by: user.userId,
          reviewed_at: reviewer ? sql<Date>`now()` : null,
          reviewed_by: reviewer ? user.userId : null,
        })
        .execute();
      await sendReceiverLink(trx, {
        mailer: ctx.mailer,
        publicUrl: ctx.publicUrl,
        businessId: business.id,
        businessName: business.name,
        receiver: { id, email: body.email, firstName: body.firstName },
      });
      await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'receiver.created', details: { receiverId: id } });
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'receiver.link_sent',
        details: { receiverId: id, reason: 'created' },
      });
      return loadReceiver(trx, business.id, id);
    });
  } catch (error) {
    throw receiverDuplicateFromViolation(error) ?? error;
  }
}

/**
 * PATCH …/receivers/:receiverId. A new e-mail of a receiver still without an account gets a new
 * link. A member who changes the e-mail (who gets the link, so whose bank account is paid) makes
 * the receiver wait for an owner or admin's review again.
 */
export async function updateReceiver(
  ctx: ReceiverContext,
  { business, user, receiverId, body }: { business: ScopedBusiness; user: ActingUser; receiverId: string; body: ReceiverValues },
): Promise<Receiver> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const current = await selectReceiver(trx, business.id, receiverId, { lock: true });
      await assertNoDuplicateReceiver(trx, { businessId: business.id, email: body.email, reference: body.reference ?? null, exceptId: receiverId });
      const emailChanged = current.email.toLowerCase() !== body.email.toLowerCase();
      const unreview = emailChanged && !(await mayNow(trx, business.id, user.userId, 'approvePayout'));
      await updateOwned(trx, 'receivers', business.id, receiverId, { ...columnsOf(body), ...(unreview ? { reviewed_at: null, reviewed_by: null } : {}) });
      const changed = Object.entries({
        firstName: current.first_name !== body.firstName,
        lastName: current.last_name !== body.lastName,
        email: current.email !== body.email,
        mobile: current.mobile !== (body.mobile ?? null),
        reference: current.reference !== (body.reference ?? null),
      })
        .filter(([, yes]) => yes)
        .map(([field]) => field);
      await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'receiver.updated', details: { receiverId, changed } });
      if (current.email !== body.email && current.verification === 'unverified') {
        await sendReceiverLink(trx, {
          mailer: ctx.mailer,
          publicUrl: ctx.publicUrl,
          businessId: business.id,
          businessName: business.name,
          receiver: { id: receiverId, email: body.email, firstName: body.firstName },
        });
        await recordEvent(trx, {
          businessId: business.id,
          actor: auditActor(user),
          action: 'receiver.link_sent',
          details: { receiverId, reason: 'email_changed' },
        });
      }
      return loadReceiver(trx, business.id, receiverId);
    });
  } catch (error) {
    throw receiverDuplicateFromViolation(error) ?? error;
  }
}

export async function setReceiverStatus(
  ctx: ReceiverContext,
  { business, user, receiverId, enable }: { business: ScopedBusiness; user: ActingUser; receiverId: string; enable: boolean },
): Promise<Receiver> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectReceiver(trx, business.id, receiverId, { lock: true });
    const status = enable ? 'active' : 'Disabled';
    if (current.status === status) {
      throw new AppError(ErrorCode.Conflict, `${current.first_name} ${current.last_name} is already ${enable ? 'enabled' : 'disabled'}.`);
    }
    await updateOwned(trx, 'receivers', business.id, receiverId, { status });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: enable ? 'receiver.enabled' : 'receiver.disabled',
      details: { receiverId },
    });
    return loadReceiver(trx, business.id, receiverId);
  });
}

/** "Resend verification": a new link, e-mailed; the previous link stops working. A verified receiver keeps their account until they enter another. */
export async function resendReceiverLink(
  ctx: ReceiverContext,
  { business, user, receiverId }: { business: ScopedBusiness; user: ActingUser; receiverId: string },
): Promise<Receiver> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await selectReceiver(trx, business.id, receiverId, { lock: true });
    if (current.status === 'Disabled') {
      throw new AppError(ErrorCode.Conflict, `${current.first_name} ${current.last_name} is disabled. Enable them before sending a new link.`);
    }
    await sendReceiverLink(trx, {
      mailer: ctx.mailer,
      publicUrl: ctx.publicUrl,
      businessId: business.id,
      businessName: business.name,
      receiver: { id: receiverId, email: current.email, firstName: current.first_name },
    });
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'receiver.link_sent', details: { receiverId, reason: 'resend' } });
    return loadReceiver(trx, business.id, receiverId);
  });
}

/** Deletes a receiver no payout names (and with no event check-in); the others stay on record. */
export async function deleteReceiver(
  ctx: ReceiverContext,
  { business, user, receiverId }: { business: ScopedBusiness; user: ActingUser; receiverId: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const current = await selectReceiver(trx, business.id, receiverId, { lock: true });
    if ((await payoutsCountOf(trx, business.id, receiverId)) > 0) {
      throw new AppError(
        ErrorCode.Conflict,
        `Payouts name ${current.first_name} ${current.last_name}, so they stay on record with their payouts. Disable them instead.`,
      );
    }
    if (await anyRow(trx, 'event_check_ins', business.id, { receiver_id: receiverId })) {
      throw new AppError(
        ErrorCode.Conflict,
        `${current.first_name} ${current.last_name} checked in to an event, so they stay on record with the check-in. Disable them instead.`,
      );
    }
    await trx.deleteFrom('receivers').where('business_id', '=', business.id).where('id', '=', receiverId).execute();
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: 'receiver.deleted',
      details: { receiverId, name: `${current.first_name} ${current.last_name}` },
    });
  });
}

/** POST …/receivers/:receiverId/review: an owner or admin has seen a receiver a member or a check-in added. */
export async function reviewReceiver(
  ctx: ReceiverContext,
  { business, user, receiverId }: { business: ScopedBusiness; user: ActingUser; receiverId: string },
): Promise<Receiver> {
  return ctx.db.transaction().execute(async (trx) => {
    await requireMoneyRule(trx, business.id, user.userId, 'approvePayout');
    const current = await selectReceiver(trx, business.id, receiverId, { lock: true });
    if (current.reviewed_at !== null) throw new AppError(ErrorCode.Conflict, `${current.first_name} ${current.last_name} is reviewed already.`);
    await reviewReceivers(trx, business.id, [receiverId], user, 'marked');
    return loadReceiver(trx, business.id, receiverId);
  });
}

export async function getReceiver(ctx: ReceiverContext, { business, receiverId }: { business: ScopedBusiness; receiverId: string }): Promise<Receiver> {
  return loadReceiver(ctx.db, business.id, receiverId);
}

function filtered(db: Kysely<DB>, businessId: string, query: Pick<ListQuery, 'search' | 'status' | 'verification' | 'review'>) {
  let q = db.selectFrom('receivers as r').where('r.business_id', '=', businessId);
  if (query.search) {
    const needle = query.search;
    q = q.where(
      sql<boolean>`(strpos(lower(r.first_name || ' ' || r.last_name), lower(${needle})) > 0 OR strpos(lower(r.email), lower(${needle})) > 0 OR strpos(lower(coalesce(r.reference, '')), lower(${needle})) > 0)`,
    );
  }
  if (query.status) q = q.where('r.status', '=', query.status);
  if (query.verification) q = q.where('r.verification', '=', query.verification);
  if (query.review) q = q.where('r.reviewed_at', query.review === 'unreviewed' ? 'is' : 'is not', null);
  return q;
}

function sorted(query: ListQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'name':
      return sql`lower(r.first_name || ' ' || r.last_name) ${dir}, r.id ${dir}`;
    case 'email':
      return sql`lower(r.email) ${dir}, r.id ${dir}`;
    default:
      return sql`r.created_at ${dir}, r.id ${dir}`;
  }
}

function withPayoutsCount(q: ReturnType<typeof filtered>) {
  return q.select(RECEIVER_COLUMNS.map((c) => `r.${c}` as const)).select((eb) =>
    eb
      .selectFrom('payouts as p')
      .select((e) => e.fn.countAll<string>().as('n'))
      .whereRef('p.business_id', '=', 'r.business_id')
      .whereRef('p.receiver_id', '=', 'r.id')
      .as('payouts_count'),
  );
}

/** A business has hundreds of receivers, not millions: a plain filtered, sorted page. */
export async function listReceivers(ctx: ReceiverContext, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(ctx.db, business.id, query);
  return plainPage(query, withPayoutsCount(base).orderBy(sorted(query)), base, (rows) => rows.map((r) => toReceiver(r, Number(r.payouts_count ?? 0))));
}

export async function* exportReceivers(ctx: ReceiverContext, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const rows = await withPayoutsCount(filtered(ctx.db, business.id, query))
    .orderBy(sorted(query))
    .execute();
  yield (
    '\ufeff' +
    csvRow([
      'First name',
      'Last name',
      'E-mail',
      'Mobile',
      'Reference',
      'Verification',
      'Status',
      'Bank',
      'Account',
      'Paid',
      'Paid amount',
      'Link sent',
      'Added',
      'Reviewed',
    ]) +
    '\r\n'
  );
  for (const row of rows) {
    const r = toReceiver(row, Number(row.payouts_count ?? 0));
    yield (
      csvRow([
        r.firstName,
        r.lastName,
        r.email,
        r.mobile ?? '',
        r.reference ?? '',
        RECEIVER_VERIFICATION_LABELS[r.verification],
        RECEIVER_STATUS_LABELS[r.status],
        r.bank?.bankName ?? '',
        r.bank ? `•••• ${r.bank.last4}` : '',
        r.paidCount,
        formatMoney(r.paidCents),
        row.link_sent_at ? formatDateTime(row.link_sent_at, business.timeZone) : '',
        formatDateTime(row.created_at, business.timeZone),
        r.reviewed ? 'Yes' : RECEIVER_REVIEW_LABELS[r.addedVia],
      ]) + '\r\n'
    );
  }
}
