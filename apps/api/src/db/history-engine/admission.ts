import { sql, type Expression } from 'kysely';
import { AppError } from '../../lib/app-error';

/** Whether the session may read: alive, past the new-password challenge, a member. */
export type Admission = { signed_in: boolean; must_change: boolean; member: boolean };

/**
 * The session behind the bearer token, checked as the endpoint mount checks a `business:read`
 * endpoint (sessions ⋈ users, unexpired, a membership) but inside the list's own statement: one
 * round trip for the hottest reads (ADR 010). Left-joined, so that a dead token still gives one
 * row saying so.
 */
export function admissionOf(p: { businessId: Expression<string>; sessionToken: Expression<string>; now: Expression<Date> }) {
  return sql<Admission>`
    SELECT v.user_id IS NOT NULL AS signed_in, coalesce(v.must_change_password, false) AS must_change,
           coalesce(NOT v.must_change_password AND EXISTS (SELECT 1 FROM business_members WHERE business_id = ${p.businessId} AND user_id = v.user_id), false) AS member
    FROM (SELECT 1) one LEFT JOIN (
      SELECT u.id AS user_id, u.must_change_password FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token = ${p.sessionToken} AND s.expires_at > ${p.now}
    ) v ON true`;
}

/** 401, 403 or 404 unless the session may read this business's list. */
export function admit(row: Admission | undefined): void {
  if (!row?.signed_in) throw AppError.signInRequired();
  if (row.must_change) throw AppError.newPasswordRequired();
  if (!row.member) throw AppError.notFound('Business');
}
