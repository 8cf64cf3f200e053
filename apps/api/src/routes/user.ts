import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { userEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { getCurrentUser } from '../domain/users/get-current-user';
import { updateNotificationPreferences } from '../domain/users/update-notification-preferences';
import { updateUserProfile } from '../domain/users/update-user-profile';
import { endpointMounter, success } from '../http/mount';

/** The signed-in person (`packages/contract/src/identity/endpoints.ts`). */
export const userRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);
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
