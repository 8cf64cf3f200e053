import { z } from 'zod';
import { IDENTITY_EMPTY_MESSAGES } from './messages';
import { MEMBER_ROLES } from '../common/endpoint';

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

/**
 * The second factor (ADR 052): better-auth's `/api/auth/two-factor/*`, an authenticator app and
 * ten one-time recovery codes. The session comes back as sign-in's does: the token in
 * `set-auth-token` (and the body), the user beside it.
 */
export const TwoFactorPasswordBody = z.object({ password: z.string().min(1, IDENTITY_EMPTY_MESSAGES.password).max(1024) });
export const TOTP_CODE_MESSAGE = 'Enter the 6 digits your authenticator app shows.';
export const TotpCodeBody = z.object({
  code: z
    .string()
    .trim()
    .min(1, IDENTITY_EMPTY_MESSAGES.code)
    .regex(/^\d{6}$/, TOTP_CODE_MESSAGE),
  /** Skip the code on this device for 30 days: the answer's `set-trust-device-token` goes with later sign-ins. */
  trustDevice: z.boolean().optional(),
});
export const RecoveryCodeBody = z.object({
  code: z.string().trim().min(1, IDENTITY_EMPTY_MESSAGES.code).max(64),
  trustDevice: z.boolean().optional(),
});
export const TwoFactorEnableResponse = z.object({
  method: z.literal('totp'),
  /** `otpauth://totp/Tay:<e-mail>?secret=…`: the web app shows it as a QR code. */
  totpURI: z.string(),
  /** Shown once: each signs in once instead of a code from the app. */
  backupCodes: z.array(z.string()),
});
export const TotpUriResponse = z.object({ totpURI: z.string() });
export const RecoveryCodesResponse = z.object({ status: z.literal(true), backupCodes: z.array(z.string()) });
export const TwoFactorSessionResponse = z.object({
  token: z.string(),
  user: z.looseObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    emailVerified: z.boolean(),
    twoFactorEnabled: z.boolean(),
    mustChangePassword: z.boolean(),
  }),
});

/** A device the person is signed in on (ADR 052). */
export const UserSession = z.object({
  sessionId: z.string(),
  /** "Chrome on macOS", from the browser's user agent; "Unknown browser" without one. */
  device: z.string(),
  /** The address it signed in from, and whether that is a private network's (a place cannot be told from it here). */
  ipAddress: z.string().nullable(),
  network: z.enum(['private', 'public', 'unknown']),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;
export const UserSessionListResponse = z.object({ status: z.literal('Success'), data: z.object({ items: z.array(UserSession) }) });
export const UserSessionsRevokedResponse = z.object({ status: z.literal('Success'), data: z.object({ revoked: z.number().int() }) });
export const SessionIdParams = z.object({ sessionId: z.string().min(1).max(128) });

export const UserBusinessSummary = z.object({
  businessId: z.string(),
  businessName: z.string(),
  businessState: z.string(),
  /** The person's role in this business: what it allows is `ROLE_ACCESS` (ADR 004, 031). */
  role: z.enum(MEMBER_ROLES),
  payoutEnabled: z.number().int(),
  entities: z.array(z.object({ entityType: z.string(), entityTemplateName: z.string() })),
  businessProfile: z.object({ logoUrl: z.string().nullable() }),
});
export type UserBusinessSummary = z.infer<typeof UserBusinessSummary>;

/** GET /api/user (docs/product.md §3, §7.5). */
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
