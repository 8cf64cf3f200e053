import { z } from 'zod';

/** Spec §5: the identity service refuses empty inputs with exactly these messages. */
export const IDENTITY_EMPTY_MESSAGES = {
  username: 'Username cannot be empty',
  password: 'Password cannot be empty',
  code: 'Confirmation code cannot be empty',
  challengeResponse: 'Challenge response cannot be empty',
} as const;

/** Spec §8: the identity messages, each with the sentence the person reads next to the form. */
export const IDENTITY_MESSAGES = {
  'Authentication Error': 'We could not sign you in with those details.',
  'Error creating account': 'We could not create your account.',
  'No valid MFA method provided': 'This account needs a second sign-in step that is not set up. Contact support.',
  'Invalid MFA type': 'That second sign-in step is not supported. Contact support.',
  'User is not authenticated': 'Your session has ended. Please sign in again.',
  'Network error': 'We could not reach Tay. Check your internet connection and try again.',
  'Invalid state in OAuth flow': 'The sign-in link is no longer valid. Start again from the sign-in page.',
} as const;
export type IdentityMessage = keyof typeof IDENTITY_MESSAGES;

export const UserState = z.enum(['Incomplete', 'complete']);
export type UserState = z.infer<typeof UserState>;

export const CompleteNewPasswordBody = z.object({
  newPassword: z.string().min(1, IDENTITY_EMPTY_MESSAGES.challengeResponse).max(1024),
});
/** POST /api/auth/change-password: every other session ends unless `revokeOtherSessions` is false. */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, IDENTITY_EMPTY_MESSAGES.password).max(1024),
  newPassword: z.string().min(1, IDENTITY_EMPTY_MESSAGES.password).max(1024),
  revokeOtherSessions: z.boolean().default(true),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
export const IdentityOkResponse = z.object({ status: z.literal(true) });

export const UserBusinessSummary = z.object({
  businessId: z.string(),
  businessName: z.string(),
  businessState: z.string(),
  /** The person's role in this business: only an owner or admin may change it (ADR 004). */
  role: z.enum(['owner', 'admin', 'member']),
  payoutEnabled: z.number().int(),
  entities: z.array(z.object({ entityType: z.string(), entityTemplateName: z.string() })),
  businessProfile: z.object({ logoUrl: z.string().nullable() }),
});
export type UserBusinessSummary = z.infer<typeof UserBusinessSummary>;

/** GET /api/user (spec §3, §7.5). */
export const CurrentUser = z.object({
  name: z.string(),
  userId: z.string(),
  userState: UserState,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  mobileNumber: z.string().nullable(),
  enrollNotificationViaEmail: z.boolean(),
  enrollNotificationViaMobileNumber: z.boolean(),
  createdAt: z.string(),
  businesses: z.array(UserBusinessSummary),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const CurrentUserResponse = z.object({ status: z.literal('Success'), data: CurrentUser });
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;
