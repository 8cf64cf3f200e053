import { z } from 'zod';
import { MEMBER_ROLES } from '../common/endpoint';
import { listResponse, okResponse, PageQuery } from '../common/lists';

/* ------------------------------------------------------------------- team */

export const MemberRoleSchema = z.enum(MEMBER_ROLES, { error: 'Choose a role: owner, admin, member or viewer.' });

/** How long an invitation (or an invited person's temporary password) works. */
export const INVITATION_DAYS = 7;

/**
 * A member of the business. `Invited`: made a member with a temporary password, and has not yet
 * signed in to choose their own.
 */
export const TeamMember = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(MEMBER_ROLES),
  status: z.enum(['Active', 'Invited']),
  /** ISO; null before the first sign-in. */
  lastSignedInAt: z.string().nullable(),
  joinedAt: z.string(),
  /** Whether the person signs in with a second factor (ADR 052): the team page shows who does. */
  twoFactorEnabled: z.boolean(),
});
export type TeamMember = z.infer<typeof TeamMember>;

/** An invitation of a person who already has a Tay account, waiting for them to accept it. */
export const TeamInvitation = z.object({
  invitationId: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type TeamInvitation = z.infer<typeof TeamInvitation>;

export const TeamResponse = okResponse(z.object({ members: z.array(TeamMember), invitations: z.array(TeamInvitation) }));
export type TeamResponse = z.infer<typeof TeamResponse>;

export const InviteBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address.')).pipe(z.string().max(320, 'Use at most 320 characters.')),
  role: MemberRoleSchema,
});
export type InviteBody = z.infer<typeof InviteBody>;

/** What an invitation did: a new person was made a member (and e-mailed a temporary password), or an existing user was invited. */
export const InviteResponse = okResponse(
  z.object({ outcome: z.enum(['member_added', 'invitation_sent']), member: TeamMember.nullable(), invitation: TeamInvitation.nullable() }),
);

export const MemberParams = z.object({ id: z.string().min(1).max(64), userId: z.string().min(1).max(64) });
export const InvitationParams = z.object({ id: z.string().min(1).max(64), invitationId: z.string().min(1).max(64) });
export const SetRoleBody = z.object({ role: MemberRoleSchema });
export const MemberResponse = okResponse(TeamMember);
export const RemovedResponse = okResponse(z.object({ removed: z.literal(true) }));

/** The accept page: what the invitation is, for the person signed in. */
export const InvitationTokenParams = z.object({ token: z.string().min(16).max(200) });
export const InvitationPreview = z.object({
  businessName: z.string(),
  role: z.enum(MEMBER_ROLES),
  invitedBy: z.string(),
  email: z.string(),
  expiresAt: z.string(),
});
export const InvitationPreviewResponse = okResponse(InvitationPreview);
export const InvitationAcceptedResponse = okResponse(z.object({ businessId: z.string(), businessName: z.string(), role: z.enum(MEMBER_ROLES) }));

/* ------------------------------------------------------------------ audit */

/** The audit log's kinds: what a change was made to. */
export const AUDIT_KINDS = ['business', 'team', 'payers', 'requests'] as const;
export const AuditKind = z.enum(AUDIT_KINDS);
export type AuditKind = z.infer<typeof AuditKind>;

export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  business: 'Business and settings',
  team: 'Team',
  payers: 'Payers',
  requests: 'Requests to pay',
};

/** The kind of an action (`payer.updated` → payers). */
export function auditKindOf(action: string): AuditKind {
  if (action.startsWith('member.') || action.startsWith('invitation.')) return 'team';
  if (action.startsWith('payer')) return 'payers';
  if (action.startsWith('request.') || action.startsWith('batch.') || action.startsWith('invoice.')) return 'requests';
  return 'business';
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.');

export const AuditQuery = PageQuery.extend({
  /** A person's user id, or `operations` / `system` for changes no person made. */
  actor: z.string().max(64).optional(),
  kind: AuditKind.optional(),
  from: day.optional(),
  to: day.optional(),
});
export type AuditQuery = z.input<typeof AuditQuery>;

/** One field's change. Values as they were stored; secrets are never in the log. */
export const AuditChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

export const AuditEntry = z.object({
  id: z.string(),
  /** ISO */
  createdAt: z.string(),
  /** The person's e-mail at the time, `operations`, or the job's name. */
  actor: z.string(),
  actorUserId: z.string().nullable(),
  action: z.string(),
  kind: AuditKind,
  /** One line, in words: "Changed the role of ana@example.com". */
  summary: z.string(),
  changes: z.array(AuditChange),
  /** The rest of what was recorded (ids, reference numbers). */
  details: z.record(z.string(), z.unknown()),
  ipAddress: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditListResponse = listResponse(AuditEntry);
export type AuditListResponse = z.infer<typeof AuditListResponse>;

/** The people who appear in a business's log, for its person filter. */
export const AuditActorsResponse = okResponse(z.array(z.object({ actor: z.string(), actorUserId: z.string().nullable() })));
