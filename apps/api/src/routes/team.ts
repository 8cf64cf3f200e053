import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { teamEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { userActor } from '../domain/businesses/audit';
import { auditActors, exportAudit, listAudit } from '../domain/team/audit-log';
import { acceptInvitation, previewInvitation } from '../domain/team/invitations';
import { inviteMember, listTeam, removeMember, revokeInvitation, setMemberRole } from '../domain/team/team';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import type { Mailer } from '../mail/mailer';

export interface TeamRoutesOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  /** Where the links in invitation e-mails point. */
  publicUrl: string;
}

/**
 * The team area (`packages/contract/src/team/endpoints.ts`): members, roles, invitations and the
 * audit log. Who may act on an owner is the table's subject rules; a role change or removal acts on
 * the member as the mount read them (`subjects['member.role']`).
 */
export const teamRoutes: FastifyPluginAsync<TeamRoutesOptions> = async (app, { db, mailer, publicUrl }) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, mailer, publicUrl };

  mount(e.members, async ({ business }) => success(await listTeam(db, business.id)));

  mount(e.invite, async ({ business, session, body }) => success(await inviteMember(ctx, { business, actor: userActor(session.user), body })));

  mount(e.setRole, async ({ business, session, params, body, subjects }) =>
    success(
      await setMemberRole(db, {
        businessId: business.id,
        actor: userActor(session.user),
        userId: params.userId,
        role: body.role,
        admittedAs: subjects['member.role'],
      }),
    ),
  );

  mount(e.remove, async ({ business, session, params, subjects }) => {
    await removeMember(db, { businessId: business.id, actor: userActor(session.user), userId: params.userId, admittedAs: subjects['member.role'] });
    return success({ removed: true as const });
  });

  mount(e.revokeInvitation, async ({ business, session, params }) => {
    await revokeInvitation(db, { businessId: business.id, actor: userActor(session.user), invitationId: params.invitationId });
    return success({ removed: true as const });
  });

  mount(e.invitation, async ({ session, params }) => success(await previewInvitation(db, { token: params.token, email: session.user.email })));

  mount(e.acceptInvitation, async ({ session, params }) =>
    success(await acceptInvitation(db, { token: params.token, user: session.user, actor: userActor(session.user) })),
  );

  mount(e.audit, async ({ business, query }) => success(await listAudit(db, { businessId: business.id, timeZone: business.timeZone, query })));

  mount(e.auditActors, async ({ business }) => success(await auditActors(db, business.id)));

  mount(e.auditCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportAudit(db, { businessId: business.id, timeZone: business.timeZone, query }), `audit-log-${new Date().toISOString().slice(0, 10)}.csv`),
  );
};
