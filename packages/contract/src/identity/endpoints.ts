import { defineEndpoint } from '../common/endpoint';
import { EnrollReminderBody, UpdateUserProfileBody } from '../businesses/schemas';
import { CurrentUserResponse, SessionIdParams, UserSessionListResponse, UserSessionsRevokedResponse } from './schemas';

/**
 * The signed-in person. Sign-up, sign-in and the password routes are better-auth's (and two of
 * ours beside them, `/api/auth/complete-new-password` and `/api/auth/change-password`): they
 * check their per-account limits before any session, so they stay outside this table
 * (`apps/api/src/routes/auth.ts`).
 */
export const userEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/user',
    summary: 'The signed-in user and their businesses',
    tag: 'user',
    access: 'user',
    response: CurrentUserResponse,
  }),
  updateProfile: defineEndpoint({
    method: 'PATCH',
    path: '/api/user',
    summary: 'Complete the user profile: first and last name, mobile number',
    tag: 'user',
    access: 'user',
    body: UpdateUserProfileBody,
    response: CurrentUserResponse,
  }),
  sessions: defineEndpoint({
    method: 'GET',
    path: '/api/user/sessions',
    summary: 'The person’s signed-in devices: browser, address, last active; this one marked',
    tag: 'user',
    access: 'user',
    response: UserSessionListResponse,
  }),
  revokeSession: defineEndpoint({
    method: 'DELETE',
    path: '/api/user/sessions/:sessionId',
    summary: 'Sign another device out (not this one: sign out for that)',
    tag: 'user',
    access: 'user',
    params: SessionIdParams,
    response: UserSessionsRevokedResponse,
    errors: [404, 409],
  }),
  revokeOtherSessions: defineEndpoint({
    method: 'POST',
    path: '/api/user/sessions/revoke-others',
    summary: 'Sign every other device out',
    tag: 'user',
    access: 'user',
    response: UserSessionsRevokedResponse,
  }),
  enrollReminder: defineEndpoint({
    method: 'PATCH',
    path: '/api/enrollReminder',
    summary: 'Choose how reminders reach the user: e-mail, text message',
    tag: 'user',
    access: 'user',
    body: EnrollReminderBody,
    response: CurrentUserResponse,
  }),
};
