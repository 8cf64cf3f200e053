import { sql } from 'kysely';
import { REMINDER_OFFSETS } from '@tay/contract';
import type { RequestContext } from './request-context';
import { requestEmail } from './request-emails';
import { daysBetween, payLink, payToken } from './request-record';
import { lockRequest } from './save-request';
import { issueLinkAndEmail } from './send-request-email';
import { recordRequestEvent, SYSTEM, transitionRequest } from './transition';

const BATCH = 200;

/** Scheduled requests whose time has come are sent (Pending → Sent). Returns how many. */
export async function sendScheduledRequests(ctx: RequestContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom('payment_requests')
    .select(['business_id', 'id'])
    .where('state', '=', 'Pending')
    .where('send_at', '<=', now)
    .orderBy('send_at')
    .limit(BATCH)
    .execute();
  let sent = 0;
  for (const { business_id, id } of due) {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockRequest(trx, business_id, id);
      if (row.state !== 'Pending' || !row.send_at || row.send_at > now) return;
      const business = await trx.selectFrom('businesses').select(['business_name', 'state']).where('id', '=', business_id).executeTakeFirstOrThrow();
      if (business.state !== 'Approved') return; // held until the business is enabled again
      const sentAt = await issueLinkAndEmail(ctx, trx, row, business.business_name, 'request');
      await transitionRequest({ db: trx, businessId: business_id, requestId: id, event: 'scheduledSend', from: 'Pending', to: 'Sent', actor: SYSTEM, set: { sent_at: sentAt, send_at: null }, detail: `Scheduled send; e-mailed to ${row.payer_email}` });
      sent += 1;
    });
  }
  return sent;
}

/** Open requests past their expiry date (in their business's time zone) become Expired. */
export async function expireRequests(ctx: RequestContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom('payment_requests as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .select(['r.business_id', 'r.id'])
    .where('r.state', 'in', ['Sent', 'Resent', 'Error'])
    .where('b.auto_expire', '=', true)
    .where(sql<boolean>`r.expires_on < (${now}::timestamptz AT TIME ZONE b.time_zone)::date`)
    .limit(BATCH)
    .execute();
  let expired = 0;
  for (const { business_id, id } of due) {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockRequest(trx, business_id, id);
      if (row.state !== 'Sent' && row.state !== 'Resent' && row.state !== 'Error') return;
      await transitionRequest({ db: trx, businessId: business_id, requestId: id, event: 'expire', from: row.state, to: 'Expired', actor: SYSTEM, detail: `Not paid by ${row.expires_on}` });
      expired += 1;
    });
  }
  return expired;
}

/**
 * Reminders on each business's schedule (days from the due date). One reminder per scheduled
 * offset, at most: the last offset sent is kept on the request. The link in a reminder is the
 * one already sent (it is derived from the send time), so earlier e-mails keep working.
 */
export async function sendReminders(ctx: RequestContext, now = new Date()): Promise<number> {
  const candidates = await ctx.db
    .selectFrom('payment_requests as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .select([
      'r.business_id',
      'r.id',
      'r.due_date',
      'r.last_reminder_offset',
      'b.reminder_schedule',
      sql<string>`to_char((${now}::timestamptz AT TIME ZONE b.time_zone)::date, 'YYYY-MM-DD')`.as('today'),
    ])
    .where('r.state', 'in', ['Sent', 'Resent', 'PartiallyPaid', 'Error'])
    .where('b.auto_reminders', '=', true)
    .where('b.state', '=', 'Approved')
    .where(sql<boolean>`r.expires_on >= (${now}::timestamptz AT TIME ZONE b.time_zone)::date`)
    .where(sql<boolean>`r.due_date - (${now}::timestamptz AT TIME ZONE b.time_zone)::date <= ${-Math.min(...REMINDER_OFFSETS, -30)}`)
    .limit(BATCH * 5)
    .execute();
  let reminded = 0;
  for (const c of candidates) {
    const offset = daysBetween(c.due_date, c.today);
    const due = (c.reminder_schedule as number[]).filter((s) => s <= offset && (c.last_reminder_offset === null || s > c.last_reminder_offset));
    if (due.length === 0) continue;
    const step = Math.max(...due);
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockRequest(trx, c.business_id, c.id);
      if (row.last_reminder_offset !== null && row.last_reminder_offset >= step) return;
      if (!row.sent_at || !row.pay_token_hash) return;
      const business = await trx.selectFrom('businesses').select(['business_name']).where('id', '=', c.business_id).executeTakeFirstOrThrow();
      const link = payLink(ctx.publicUrl, payToken(ctx.authSecret, row.id, row.sent_at));
      await ctx.mailer.send(requestEmail('reminder', row, business.business_name, link), trx);
      await trx.updateTable('payment_requests').set({ last_reminder_offset: step }).where('business_id', '=', c.business_id).where('id', '=', c.id).execute();
      const when = step === 0 ? 'on the due date' : step < 0 ? `${-step} day(s) before the due date` : `${step} day(s) after the due date`;
      await recordRequestEvent({ db: trx, businessId: c.business_id, requestId: c.id, actor: SYSTEM, event: 'reminder', from: row.state, to: row.state, detail: `Reminder e-mailed ${when}` });
      reminded += 1;
    });
  }
  return reminded;
}

