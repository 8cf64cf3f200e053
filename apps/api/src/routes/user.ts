import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUserResponse, EnrollReminderBody, ErrorResponse, UpdateUserProfileBody } from '@tay/contract';
import type { Executor } from '../db/executor';
import { getCurrentUser } from '../domain/users/get-current-user';
import { updateNotificationPreferences } from '../domain/users/update-notification-preferences';
import { updateUserProfile } from '../domain/users/update-user-profile';
import { requireUser, sessionOf } from '../plugins/authenticate';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

export const userRoutes: FastifyPluginAsyncZod<{ db: Executor }> = async (app, { db }) => {
  app.get(
    '/api/user',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'The signed-in user and their businesses',
        security: [{ bearer: [] }],
        response: { 200: CurrentUserResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => ({ status: 'Success' as const, data: await getCurrentUser({ db, userId: sessionOf(request).user.id }) }),
  );

  app.patch(
    '/api/user',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'Complete the user profile: first and last name, mobile number',
        security: [{ bearer: [] }],
        body: UpdateUserProfileBody,
        response: { 200: CurrentUserResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'Success' as const,
      data: await updateUserProfile({ db, userId: sessionOf(request).user.id, body: request.body }),
    }),
  );

  app.patch(
    '/api/enrollReminder',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        summary: 'Choose how reminders reach the user: e-mail, text message',
        security: [{ bearer: [] }],
        body: EnrollReminderBody,
        response: { 200: CurrentUserResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'Success' as const,
      data: await updateNotificationPreferences({
        db,
        userId: sessionOf(request).user.id,
        viaEmail: request.body.enrollNotificationViaEmail,
        viaMobileNumber: request.body.enrollNotificationViaMobileNumber,
      }),
    }),
  );
};
