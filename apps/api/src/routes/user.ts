import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { userEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { getCurrentUser } from '../domain/users/get-current-user';
import { updateNotificationPreferences } from '../domain/users/update-notification-preferences';
import { updateUserProfile } from '../domain/users/update-user-profile';
import { endpointMounter, success } from '../http/mount';
import type { Mailer } from '../mail/mailer';
import { listSessions, revokeOtherSessions, revokeSession } from '../domain/users/sessions';

/** The signed-in person (`packages/contract/src/identity/endpoints.ts`). */
export const userRoutes: FastifyPluginAsync<{ db: Kysely<DB>; mailer: Mailer; publicUrl: string }> = async (app, { db, mailer, publicUrl }) => {
  const mount = endpointMounter(app, db);
  const who = (session: { user: { id: string; email: string }; sessionId: string }, ip: string) => ({
    userId: session.user.id,
    email: session.user.email,
    currentSessionId: session.sessionId,
    ip,
  });
  mount(e.sessions, async ({ session }) => success({ items: await listSessions(db, session.user.id, session.sessionId) }));
  mount(e.revokeSession, async ({ session, params, request }) =>
    success(await revokeSession({ db, mailer, publicUrl }, who(session, request.ip), params.sessionId)),
  );
  mount(e.revokeOtherSessions, async ({ session, request }) => success(await revokeOtherSessions({ db, mailer, publicUrl }, who(session, request.ip))));
  mount(e.get, async ({ session }) => success(await getCurrentUser({ db, userId: session.user.id })));
  mount(e.updateProfile, async ({ session, body }) => success(await updateUserProfile({ db, userId: session.user.id, body })));
  mount(e.enrollReminder, async ({ session, body }) =>
    success(
      await updateNotificationPreferences({
        db,
        userId: session.user.id,
        viaEmail: body.enrollNotificationViaEmail,
        viaMobileNumber: body.enrollNotificationViaMobileNumber,
      }),
    ),
  );
};
