import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode, getHref, INVITATION_DAYS, paths, ROLE_LABELS, type InviteBody, type MemberRole, type TeamInvitation, type TeamMember } from '@tay/contract';
import { hashPassword, temporaryPassword } from '../../auth/password';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import type { Mailer } from '../../mail/mailer';
import { recordEvent, type Actor } from '../businesses/audit';
import { newVerificationToken } from '../payers/verification';
import { issueTemporaryPassword } from '../users/create-user-by-operator';
import { invitationEmail, newMemberEmail } from './team-emails';

/**
 * Who acts on the team. Whether they may is the endpoint table's (`packages/contract/src/team/endpoints.ts`):
 * an owner's role, and an owner's invitation, are an owner's to change, and the mount checks it.
 */
export type TeamActor = Actor & { userId: string };

export interface TeamContext {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
}

const DAY_MS = 24 * 3600 * 1000;

function memberOf(row: {
  user_id: string;
  email: string;
  name: string;
  role: MemberRole;
  must_change_password: boolean;
  last_signed_in_at: Date | null;
  created_at: Date;
  two_factor_enabled: boolean;
}): TeamMember {
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name === row.email ? '' : row.name,
    role: row.role,
    status: row.must_change_password ? 'Invited' : 'Active',
    lastSignedInAt: row.last_signed_in_at?.toISOString() ?? null,
    joinedAt: row.created_at.toISOString(),
    twoFactorEnabled: row.two_factor_enabled,
  };
}

const membersQuery = (db: Kysely<DB> | Transaction<DB>, businessId: string) =>
  db
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role', 'u.must_change_password', 'u.last_signed_in_at', 'm.created_at', 'u.two_factor_enabled'])
    .where('m.business_id', '=', businessId);

function invitationOf(
  row: { id: string; email: string; role: MemberRole; invited_by: string; created_at: Date; expires_at: Date },
  now = new Date(),
): TeamInvitation {
  return {
    invitationId: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    expired: row.expires_at <= now,
  };
}

/** The team page: members, owners first, then open invitations. A team is tens of people: a plain list (ADR 043). */
export async function listTeam(db: Kysely<DB>, businessId: string): Promise<{ members: TeamMember[]; invitations: TeamInvitation[] }> {
  const members = await membersQuery(db, businessId)
    .orderBy(sql`CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END`)
    .orderBy('u.email')
    .execute();
  const invitations = await db
    .selectFrom('business_invitations')
    .select(['id', 'email', 'role', 'invited_by', 'created_at', 'expires_at'])
    .where('business_id', '=', businessId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  return { members: members.map(memberOf), invitations: invitations.map((i) => invitationOf(i)) };
}

/**
 * Invites a person with a role. A new address becomes a member at once with a temporary password,
 * e-mailed to them; they choose their own at first sign-in (the new-password challenge). An
 * address that already has a user — even one still on a temporary password another business
 * e-mailed, never signed in — is e-mailed a link to accept, signed in as that address: its
 * password is never replaced and it joins nothing it did not accept (issue 35 point 3). Inviting
 * them again replaces the open invitation. The e-mail goes out only if the invitation commits.
 */
export async function inviteMember(
  ctx: TeamContext,
  { business, actor, body }: { business: { id: string; name: string }; actor: TeamActor; body: InviteBody },
): Promise<{ outcome: 'member_added' | 'invitation_sent'; member: TeamMember | null; invitation: TeamInvitation | null }> {
  const address = body.email;
  const roleLabel = ROLE_LABELS[body.role].label;
  return ctx.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'must_change_password']).where('email', '=', address).forUpdate().executeTakeFirst();
    if (user) {
      const already = await trx
        .selectFrom('business_members')
        .select('role')
        .where('business_id', '=', business.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (already) {
        throw new AppError(
          ErrorCode.Conflict,
          `${address} is already a member of ${business.name} (${ROLE_LABELS[already.role].label}). Change their role instead.`,
        );
      }
    }
    const expiresAt = new Date(Date.now() + INVITATION_DAYS * DAY_MS);
    const signInUrl = `${ctx.publicUrl}${paths.login}`;

    if (!user) {
      // A new person: a member now, with a temporary password.
      const password = temporaryPassword();
      const created = await issueTemporaryPassword(trx, { address, hash: await hashPassword(password), password, expiresAt });
      await trx.insertInto('business_members').values({ business_id: business.id, user_id: created.userId, role: body.role }).execute();
      await recordEvent(trx, {
        businessId: business.id,
        actor,
        action: 'member.invited',
        details: { email: address, role: body.role, userId: created.userId, how: 'temporary password' },
      });
      await ctx.mailer.send(
        newMemberEmail({ to: address, businessName: business.name, invitedBy: actor.label, roleLabel, temporaryPassword: password, expiresAt, signInUrl }),
        trx,
      );
      const row = await membersQuery(trx, business.id).where('m.user_id', '=', created.userId).executeTakeFirstOrThrow();
      return { outcome: 'member_added' as const, member: memberOf(row), invitation: null };
    }

    // An existing user accepts, signed in. One still on a temporary password (another business
    // invited them and they have not signed in yet) keeps it: replacing it here would let any
    // business break another's invitation, and a membership needs the person's own yes.
    await trx
      .updateTable('business_invitations')
      .set({ revoked_at: sql<Date>`now()` })
      .where('business_id', '=', business.id)
      .where('email', '=', address)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const { token, hash } = newVerificationToken();
    const id = newId('inv');
    const row = await trx
      .insertInto('business_invitations')
      .values({
        business_id: business.id,
        id,
        email: address,
        role: body.role,
        token_hash: hash,
        invited_by_user_id: actor.userId,
        invited_by: actor.label,
        expires_at: expiresAt,
      })
      .returning(['id', 'email', 'role', 'invited_by', 'created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      businessId: business.id,
      actor,
      action: 'member.invited',
      details: { email: address, role: body.role, invitationId: id, how: 'invitation link' },
    });
    const link = `${ctx.publicUrl}${getHref(paths.invitation, undefined, { token })}`;
    await ctx.mailer.send(
      invitationEmail({
        to: address,
        businessName: business.name,
        invitedBy: actor.label,
        roleLabel,
        link,
        expiresAt,
        ...(user.must_change_password ? { setPasswordUrl: `${ctx.publicUrl}${paths.forgotPassword}` } : {}),
      }),
      trx,
    );
    return { outcome: 'invitation_sent' as const, member: null, invitation: invitationOf(row) };
  });
}

/**
 * The member, locked, as the request was admitted for them: the endpoint's rule on their role
 * (an owner's is an owner's to change) was read by the mount before this transaction, so a role
 * that changed since is a conflict to reload, never a change made under the rule of the old one.
 */
async function lockMember(trx: Transaction<DB>, businessId: string, userId: string, admittedAs: string | undefined) {
  const row = await membersQuery(trx, businessId).where('m.user_id', '=', userId).forUpdate().executeTakeFirst();
  if (!row) throw AppError.notFound('Member');
  if (row.role !== admittedAs) throw new AppError(ErrorCode.Conflict, `The role of ${row.email} changed a moment ago. Reload the team and try again.`);
  return row;
}

/** Owners of the business, read under a lock so two demotions cannot both leave it without one. */
async function ownerCount(trx: Transaction<DB>, businessId: string): Promise<number> {
  const rows = await trx
    .selectFrom('business_members')
    .select('user_id')
    .where('business_id', '=', businessId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  return rows.length;
}

const LAST_OWNER = 'A business always has an owner: make another member an owner first.';

/** `admittedAs`: the member's role as the mount read it when it admitted the request. */
export async function setMemberRole(
  db: Kysely<DB>,
  { businessId, actor, userId, role, admittedAs }: { businessId: string; actor: TeamActor; userId: string; role: MemberRole; admittedAs: string | undefined },
): Promise<TeamMember> {
  return db.transaction().execute(async (trx) => {
    const owners = await ownerCount(trx, businessId);
    const row = await lockMember(trx, businessId, userId, admittedAs);
    if (row.role === role) return memberOf(row);
    if (row.role === 'owner' && owners <= 1) throw new AppError(ErrorCode.Conflict, LAST_OWNER);
    await trx.updateTable('business_members').set({ role }).where('business_id', '=', businessId).where('user_id', '=', userId).execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: 'member.role_changed',
      details: { userId, email: row.email, changes: [{ field: 'role', before: row.role, after: role }] },
    });
    return memberOf({ ...row, role });
  });
}

/**
 * Removes a member; every session of theirs ends at once, so nothing they had open keeps working.
 * `admittedAs`: their role as the mount read it when it admitted the request.
 */
export async function removeMember(
  db: Kysely<DB>,
  { businessId, actor, userId, admittedAs }: { businessId: string; actor: TeamActor; userId: string; admittedAs: string | undefined },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const owners = await ownerCount(trx, businessId);
    const row = await lockMember(trx, businessId, userId, admittedAs);
    if (row.role === 'owner' && owners <= 1) throw new AppError(ErrorCode.Conflict, LAST_OWNER);
    await trx.deleteFrom('business_members').where('business_id', '=', businessId).where('user_id', '=', userId).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await recordEvent(trx, { businessId, actor, action: 'member.removed', details: { userId, email: row.email, role: row.role } });
  });
}

export async function revokeInvitation(
  db: Kysely<DB>,
  { businessId, actor, invitationId }: { businessId: string; actor: TeamActor; invitationId: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('business_invitations')
      .select(['email', 'role', 'accepted_at', 'revoked_at'])
      .where('business_id', '=', businessId)
      .where('id', '=', invitationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw AppError.notFound('Invitation');
    if (row.accepted_at) throw new AppError(ErrorCode.Conflict, `${row.email} already accepted this invitation; remove them from the team instead.`);
    if (row.revoked_at) return;
    await trx
      .updateTable('business_invitations')
      .set({ revoked_at: sql<Date>`now()` })
      .where('business_id', '=', businessId)
      .where('id', '=', invitationId)
      .execute();
    await recordEvent(trx, { businessId, actor, action: 'invitation.revoked', details: { invitationId, email: row.email, role: row.role } });
  });
}
