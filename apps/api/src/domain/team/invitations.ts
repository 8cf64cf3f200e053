import type { Kysely } from 'kysely';
import type { Executor } from '../../db/executor';
import { ErrorCode, type MemberRole } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordEvent, type Actor } from '../businesses/audit';
import { hashVerificationToken } from '../payers/verification';

const NOT_VALID = 'This invitation link is not valid. Ask whoever invited you to send a new one.';

/** The invitation behind a link, as its addressee may see it; every other case says why not. */
async function usableInvitation(db: Executor, token: string, email: string, now = new Date()) {
  const row = await db
    .selectFrom('business_invitations as i')
    .innerJoin('businesses as b', 'b.id', 'i.business_id')
    .select(['i.business_id', 'i.id', 'i.email', 'i.role', 'i.invited_by', 'i.expires_at', 'i.accepted_at', 'i.revoked_at', 'b.business_name'])
    .where('i.token_hash', '=', hashVerificationToken(token))
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.NotFound, NOT_VALID);
  // Someone else's invitation says no more than a link that does not exist.
  if (row.email !== email) {
    throw new AppError(
      ErrorCode.Forbidden,
      `This invitation is for another e-mail address. Sign in as the person it was sent to, or ask for an invitation to ${email}.`,
    );
  }
  if (row.accepted_at) throw new AppError(ErrorCode.Conflict, `You already accepted this invitation: ${row.business_name} is among your businesses.`);
  if (row.revoked_at)
    throw new AppError(
      ErrorCode.Gone,
      `This invitation was withdrawn or replaced by a newer one. Ask ${row.invited_by} for a new one if you still need access.`,
    );
  if (row.expires_at <= now)
    throw new AppError(ErrorCode.Gone, `This invitation expired on ${row.expires_at.toISOString().slice(0, 10)}. Ask ${row.invited_by} to invite you again.`);
  return row;
}

export async function previewInvitation(db: Kysely<DB>, { token, email }: { token: string; email: string }) {
  const row = await usableInvitation(db, token, email);
  return { businessName: row.business_name, role: row.role, invitedBy: row.invited_by, email: row.email, expiresAt: row.expires_at.toISOString() };
}

/** The addressee, signed in, joins the business with the invitation's role; the link then stops working. */
export async function acceptInvitation(
  db: Kysely<DB>,
  { token, user, actor }: { token: string; user: { id: string; email: string }; actor: Actor },
): Promise<{ businessId: string; businessName: string; role: MemberRole }> {
  return db.transaction().execute(async (trx) => {
    const row = await usableInvitation(trx, token, user.email);
    // The row is claimed once: a second accept in a race finds it accepted.
    const claimed = await trx
      .updateTable('business_invitations')
      .set({ accepted_at: new Date() })
      .where('business_id', '=', row.business_id)
      .where('id', '=', row.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(ErrorCode.Conflict, 'This invitation was just used or withdrawn.');
    await trx
      .insertInto('business_members')
      .values({ business_id: row.business_id, user_id: user.id, role: row.role })
      .onConflict((oc) => oc.columns(['business_id', 'user_id']).doNothing())
      .execute();
    await recordEvent(trx, {
      businessId: row.business_id,
      actor,
      action: 'member.joined',
      details: { userId: user.id, email: user.email, role: row.role, invitationId: row.id },
    });
    return { businessId: row.business_id, businessName: row.business_name, role: row.role };
  });
}
