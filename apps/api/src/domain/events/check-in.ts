import { sql, type Kysely } from 'kysely';
import { ErrorCode, formatDateTime, formatDay, type CheckInOutcome, type CheckInPageStatus, type PublicCheckInPage } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { consumeRateLimit, tryAgainIn } from '../../lib/rate-limiter';
import { newId } from '../../lib/ids';
import type { Mailer } from '../../mail/mailer';
import { recordEvent, type Actor } from '../businesses/audit';
import { logoUrl } from '../businesses/business-record';
import { receiverDuplicateFromViolation, sendReceiverLink } from '../receivers/receiver-record';
import type { EventRow } from './event-record';

/** Check-ins one device may try at one event in ten minutes. */
export const CHECK_IN_ATTEMPTS = { max: 20, windowSeconds: 600 } as const;

/**
 * New receivers check-ins may add in ten minutes: per event (a leaked link cannot fill the
 * business's receivers), and per source address across every event (a venue's shared network
 * still checks a crowd in). Check-ins of receivers the business knows are not counted here.
 */
export const NEW_RECEIVER_CHECK_INS = {
  perEvent: { max: 300, windowSeconds: 600 },
  perSource: { max: 60, windowSeconds: 600 },
} as const;

/** Who the audit trail names for a receiver the check-in page created. */
const CHECK_IN_ACTOR = (ip: string | null): Actor => ({ userId: null, label: 'check-in', ip });

interface CheckInBusiness {
  id: string;
  business_name: string;
  state: string;
  payout_enabled: number;
  time_zone: string;
  logo_updated_at: Date | null;
}

/** The event behind a scanned code and its business; 404 for an unknown or malformed token. */
export async function findByCheckInToken(db: Executor, token: string): Promise<{ event: EventRow; business: CheckInBusiness }> {
  if (!/^[A-Za-z0-9_-]{22,64}$/.test(token)) throw notFound();
  const event = await db.selectFrom('events').selectAll().where('token', '=', token).executeTakeFirst();
  if (!event) throw notFound();
  const business = await db
    .selectFrom('businesses')
    .select(['id', 'business_name', 'state', 'payout_enabled', 'time_zone', 'logo_updated_at'])
    .where('id', '=', event.business_id)
    .executeTakeFirstOrThrow();
  return { event, business };
}

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'This check-in code is not one of ours, or the business deleted the event. Ask the organiser how to check in.');
}

/** Whether the event takes check-ins now, and if not, the sentence that says why. */
export function checkInStatus(event: EventRow, business: CheckInBusiness, now = new Date()): { status: CheckInPageStatus; message: string | null } {
  if (business.state !== 'Approved' || !business.payout_enabled) {
    return { status: 'unavailable', message: `${business.business_name} cannot take check-ins right now. Ask the organiser.` };
  }
  if (event.status === 'Disabled') return { status: 'disabled', message: `${business.business_name} has closed check-ins for ${event.name}.` };
  if (event.check_ins_close_at && event.check_ins_close_at.getTime() <= now.getTime()) {
    return { status: 'closed', message: `Check-ins for ${event.name} closed at ${formatDateTime(event.check_ins_close_at, business.time_zone)}.` };
  }
  if (event.max_check_ins !== null && Number(event.check_ins_count) >= event.max_check_ins) {
    return { status: 'full', message: `${event.name} is full: its ${event.max_check_ins.toLocaleString('en-US')} check-ins are taken. Ask the organiser.` };
  }
  return { status: 'open', message: null };
}

function tooManyNew(retryAfterSeconds: number): AppError {
  return new AppError(
    ErrorCode.RateLimited,
    `Too many new people are checking in right now. ${tryAgainIn(retryAfterSeconds)}, or ask the organiser.`,
  ).withHeader('retry-after', String(retryAfterSeconds));
}

export async function getCheckInPage(db: Kysely<DB>, token: string): Promise<PublicCheckInPage> {
  const { event, business } = await findByCheckInToken(db, token);
  const { status, message } = checkInStatus(event, business);
  return {
    businessName: business.business_name,
    businessLogoUrl: logoUrl(business.id, business.logo_updated_at),
    eventName: event.name,
    eventDate: event.event_date,
    place: event.place,
    status,
    statusMessage: message,
  };
}

export interface CheckInValues {
  email: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/**
 * A check-in (ADR 035). A receiver of the business (by e-mail) checks in once; a new e-mail with a
 * name becomes an unverified receiver, e-mailed the bank-account link. The row and the event's
 * count change in one transaction; a second check-in answers with the first one's time.
 */
export async function checkIn(
  db: Kysely<DB>,
  { token, body, mailer, publicUrl, ip }: { token: string; body: CheckInValues; mailer: Pick<Mailer, 'send'>; publicUrl: string; ip: string | null },
): Promise<CheckInOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const { event, business } = await findByCheckInToken(trx, token);
      const { status, message } = checkInStatus(event, business);
      // A full event still answers those who checked in already ("already"), below.
      if (status !== 'open' && status !== 'full') throw new AppError(ErrorCode.Conflict, message!);

      let receiver = await trx
        .selectFrom('receivers')
        .select(['id', 'first_name', 'verification'])
        .where('business_id', '=', business.id)
        .where(sql<boolean>`lower(email) = ${body.email.toLowerCase()}`)
        .executeTakeFirst();
      let newReceiver = false;
      if (!receiver) {
        const fields: Record<string, string> = {};
        if (!body.firstName) fields.firstName = `Enter your first name: ${business.business_name} does not know this e-mail address yet.`;
        if (!body.lastName) fields.lastName = 'Enter your last name.';
        // 422, not 400: the e-mail is fine; the page then asks for the name it needs.
        if (Object.keys(fields).length > 0) throw new AppError(ErrorCode.UnprocessableEntity, 'We need your name to check you in for the first time.', fields);
        if (status === 'full') throw new AppError(ErrorCode.Conflict, message!);
        // Counted in this transaction: a check-in refused later (the event full meanwhile) counts nothing.
        for (const [key, rule] of [
          [`check-in-new:event:${event.id}`, NEW_RECEIVER_CHECK_INS.perEvent],
          [`check-in-new:source:${ip ?? 'unknown'}`, NEW_RECEIVER_CHECK_INS.perSource],
        ] as const) {
          const attempt = await consumeRateLimit(trx, key, rule);
          if (!attempt.allowed) throw tooManyNew(attempt.retryAfterSeconds);
        }
        const id = newId('rcv');
        await trx
          .insertInto('receivers')
          .values({
            business_id: business.id,
            id,
            first_name: body.firstName!,
            last_name: body.lastName!,
            email: body.email,
            mobile: null,
            reference: null,
            created_by: null,
            // Anyone holding the event's link can check in: an owner or admin reviews them before a bulk payout includes them.
            added_via: 'check_in',
            reviewed_at: null,
          })
          .execute();
        await sendReceiverLink(trx, {
          mailer,
          publicUrl,
          businessId: business.id,
          businessName: business.business_name,
          receiver: { id, email: body.email, firstName: body.firstName! },
        });
        await recordEvent(trx, {
          businessId: business.id,
          actor: CHECK_IN_ACTOR(ip),
          action: 'receiver.created',
          details: { receiverId: id, eventId: event.id },
        });
        await recordEvent(trx, {
          businessId: business.id,
          actor: CHECK_IN_ACTOR(ip),
          action: 'receiver.link_sent',
          details: { receiverId: id, reason: 'check_in' },
        });
        receiver = { id, first_name: body.firstName!, verification: 'unverified' };
        newReceiver = true;
      }

      const inserted = await trx
        .insertInto('event_check_ins')
        .values({ business_id: business.id, event_id: event.id, receiver_id: receiver.id })
        .onConflict((oc) => oc.columns(['business_id', 'event_id', 'receiver_id']).doNothing())
        .returning('checked_in_at')
        .executeTakeFirst();
      const needsBankAccount = receiver.verification !== 'verified';
      if (!inserted) {
        const earlier = await trx
          .selectFrom('event_check_ins')
          .select('checked_in_at')
          .where('business_id', '=', business.id)
          .where('event_id', '=', event.id)
          .where('receiver_id', '=', receiver.id)
          .executeTakeFirstOrThrow();
        return {
          result: 'already',
          checkedInAt: earlier.checked_in_at.toISOString(),
          firstName: receiver.first_name,
          newReceiver: false,
          needsBankAccount,
          message: `You are already checked in to ${event.name}: at ${formatDateTime(earlier.checked_in_at, business.time_zone)}.`,
        };
      }
      // The cap holds under concurrent check-ins: the count moves only while it is under the cap.
      const counted = await trx
        .updateTable('events')
        .set((eb) => ({ check_ins_count: eb('check_ins_count', '+', 1) }))
        .where('business_id', '=', business.id)
        .where('id', '=', event.id)
        .where((eb) => eb.or([eb('max_check_ins', 'is', null), eb('check_ins_count', '<', eb.ref('max_check_ins'))]))
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) === 0) {
        throw new AppError(ErrorCode.Conflict, checkInStatus({ ...event, check_ins_count: event.max_check_ins ?? 0 }, business).message!);
      }
      const bankWords = newReceiver
        ? ` We e-mailed you a link to add your bank account, so ${business.business_name} can pay you.`
        : needsBankAccount
          ? ` Add your bank account with the link ${business.business_name} e-mailed you, so they can pay you.`
          : '';
      return {
        result: 'checked_in',
        checkedInAt: inserted.checked_in_at.toISOString(),
        firstName: receiver.first_name,
        newReceiver,
        needsBankAccount,
        message: `You're checked in to ${event.name} (${formatDay(event.event_date)}).${bankWords}`,
      };
    });
  } catch (error) {
    // Two first check-ins with the same new e-mail at once: the second finds the receiver on a retry.
    if (receiverDuplicateFromViolation(error)) return checkIn(db, { token, body, mailer, publicUrl, ip });
    throw error;
  }
}
