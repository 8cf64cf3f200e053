import { createHash, randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { ErrorCode, RECEIVER_LINK_DAYS, receiverActions, type Receiver } from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { ReceiversTable } from '../../db/schema/payouts';
import { AppError } from '../../lib/app-error';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { recordEvent } from '../businesses/audit';
import type { ActingUser } from '../payment-requests/request-context';

export type ReceiverRow = Selectable<ReceiversTable>;

/** Columns a business may ever read: never the sealed account number, nor the link's hash. */
export const RECEIVER_COLUMNS = [
  'business_id',
  'id',
  'first_name',
  'last_name',
  'email',
  'mobile',
  'reference',
  'verification',
  'status',
  'bank_name',
  'account_number_last4',
  'account_type',
  'paid_count',
  'paid_cents',
  'link_sent_at',
  'added_via',
  'reviewed_at',
  'created_at',
  'updated_at',
] as const;
export type ReceiverView = Pick<ReceiverRow, (typeof RECEIVER_COLUMNS)[number]>;

export function toReceiver(row: ReceiverView, payoutsCount: number): Receiver {
  return {
    receiverId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    mobile: row.mobile,
    reference: row.reference,
    verification: row.verification,
    status: row.status,
    bank:
      row.verification === 'verified' && row.bank_name && row.account_number_last4 && row.account_type
        ? { bankName: row.bank_name, last4: row.account_number_last4, accountType: row.account_type }
        : null,
    paidCount: Number(row.paid_count),
    paidCents: Number(row.paid_cents),
    linkSentAt: row.link_sent_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    addedVia: row.added_via,
    reviewed: row.reviewed_at !== null,
    actions: receiverActions(row.status, payoutsCount, row.reviewed_at !== null),
  };
}

/** How many payouts name the receiver (Delete only at 0). */
export async function payoutsCountOf(db: Executor, businessId: string, receiverId: string): Promise<number> {
  const row = await db
    .selectFrom('payouts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('receiver_id', '=', receiverId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One receiver of the business; another business's id is 404, as an unknown one. */
export async function selectReceiver(db: Executor, businessId: string, receiverId: string, { lock = false } = {}): Promise<ReceiverView> {
  let query = db.selectFrom('receivers').select(RECEIVER_COLUMNS).where('business_id', '=', businessId).where('id', '=', receiverId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw AppError.notFound('Receiver');
  return row;
}

export async function loadReceiver(db: Executor, businessId: string, receiverId: string): Promise<Receiver> {
  const row = await selectReceiver(db, businessId, receiverId);
  return toReceiver(row, await payoutsCountOf(db, businessId, receiverId));
}

/* ------------------------------------------------------------ the secure link */

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 32 random bytes, base64url; only the SHA-256 is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function receiverLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/receiver/bank-account/${token}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function receiverLinkEmail({ to, firstName, businessName, link }: { to: string; firstName: string; businessName: string; link: string }): MailMessage {
  const subject = `${businessName} asks you to add your bank account to get paid`;
  const lead = `${businessName} wants to pay you through Tay. Enter the bank account you want to be paid into on this secure page; ${businessName} will only see the bank's name and the last 4 digits.`;
  const expiry = `The link works for ${RECEIVER_LINK_DAYS} days and once only. If you do not know ${businessName}, ignore this e-mail.`;
  return {
    to,
    subject,
    text: `Hello ${firstName},\n\n${lead}\n\nAdd your bank account: ${link}\n\n${expiry}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escape(subject)}</h1><p>Hello ${escape(firstName)},</p><p>${escape(lead)}</p>
<p><a href="${escape(link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Add my bank account</a></p>
<p style="color:#868e96;font-size:12px">Or open this link: ${escape(link)}<br>${escape(expiry)}</p></body></html>`,
  };
}

/**
 * Gives the receiver a new secure link and e-mails it, in the caller's transaction: the link
 * exists exactly when the change commits, and any earlier link stops working.
 */
export async function sendReceiverLink(
  trx: Executor,
  {
    mailer,
    publicUrl,
    businessId,
    businessName,
    receiver,
  }: {
    mailer: Pick<Mailer, 'send'>;
    publicUrl: string;
    businessId: string;
    businessName: string;
    receiver: { id: string; email: string; firstName: string };
  },
): Promise<void> {
  const { token, hash } = newLinkToken();
  await trx
    .updateTable('receivers')
    .set({
      link_token_hash: hash,
      link_sent_at: sql<Date>`now()`,
      link_expires_at: sql<Date>`now() + make_interval(days => ${RECEIVER_LINK_DAYS})`,
      updated_at: sql<Date>`now()`,
    })
    .where('business_id', '=', businessId)
    .where('id', '=', receiver.id)
    .execute();
  const link = receiverLinkUrl(publicUrl, token);
  await mailer.send(receiverLinkEmail({ to: receiver.email, firstName: receiver.firstName, businessName, link }), trx);
}

/* ------------------------------------------------------------ duplicates */

export const DUPLICATE_EMAIL = 'You already have a receiver with this e-mail address.';
export const DUPLICATE_REFERENCE = 'You already have a receiver with this reference.';

function duplicateError(fields: Record<string, string>): AppError {
  const what = fields.email && fields.reference ? 'e-mail address and reference' : fields.email ? 'e-mail address' : 'reference';
  return new AppError(ErrorCode.Conflict, `This business already has a receiver with this ${what}.`, fields);
}

/** Refuses an e-mail or reference another receiver of the business has (case-insensitive). */
export async function assertNoDuplicateReceiver(
  db: Executor,
  { businessId, email, reference, exceptId }: { businessId: string; email: string; reference: string | null; exceptId?: string },
): Promise<void> {
  let query = db
    .selectFrom('receivers')
    .select(['email', 'reference'])
    .where('business_id', '=', businessId)
    .where((eb) =>
      reference
        ? eb.or([eb(sql`lower(email)`, '=', email.toLowerCase()), eb(sql`lower(reference)`, '=', reference.toLowerCase())])
        : eb(sql`lower(email)`, '=', email.toLowerCase()),
    );
  if (exceptId) query = query.where('id', '<>', exceptId);
  const clashes = await query.execute();
  const fields: Record<string, string> = {};
  if (clashes.some((c) => c.email.toLowerCase() === email.toLowerCase())) fields.email = DUPLICATE_EMAIL;
  if (reference && clashes.some((c) => c.reference?.toLowerCase() === reference.toLowerCase())) fields.reference = DUPLICATE_REFERENCE;
  if (Object.keys(fields).length > 0) throw duplicateError(fields);
}

/** A unique-index violation (a concurrent twin got there first) as the same 409. */
export function receiverDuplicateFromViolation(error: unknown): AppError | null {
  const e = error as { code?: string; constraint?: string };
  if (e?.code !== '23505') return null;
  if (e.constraint === 'receivers_email_key') return duplicateError({ email: DUPLICATE_EMAIL });
  if (e.constraint === 'receivers_reference_key') return duplicateError({ reference: DUPLICATE_REFERENCE });
  return null;
}

/**
 * Marks receivers reviewed by an owner or admin (the caller checked the rule), each with its audit
 * entry: `marked` from Manage Receivers or a batch review, `payout_approved` when approving a payout
 * to them.
 */
export async function reviewReceivers(
  trx: Executor,
  businessId: string,
  receiverIds: readonly string[],
  actor: ActingUser,
  via: 'marked' | 'payout_approved',
): Promise<string[]> {
  if (receiverIds.length === 0) return [];
  const reviewed = await trx
    .updateTable('receivers')
    .set({ reviewed_at: sql<Date>`now()`, reviewed_by: actor.userId, updated_at: sql<Date>`now()` })
    .where('business_id', '=', businessId)
    .where('id', 'in', [...receiverIds])
    .where('reviewed_at', 'is', null)
    .returning('id')
    .execute();
  for (const { id } of reviewed) {
    await recordEvent(trx, {
      businessId,
      actor: { userId: actor.userId, label: actor.email, ip: actor.ip ?? null },
      action: 'receiver.reviewed',
      details: { receiverId: id, via },
    });
  }
  return reviewed.map((r) => r.id);
}
