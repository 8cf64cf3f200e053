import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { teamEndpoints as e, type AuditQuery, type InviteBody, type MemberRole } from '@tay/contract';
import { callForData, downloadEndpoint, endpointQuery } from '../../../lib/endpoint-client';
import { useBusinessMutation } from '../../../lib/business-mutation';
import { currentUserKey, useBusinessId } from '../../../lib/session';
import { teamKey } from '../../../lib/area-keys';

/** Everything cached of the business's team and audit log (team changes and live updates invalidate it). */
export { teamKey };

export function useTeam() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.members, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

export function useAudit(query: AuditQuery) {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.audit, { params: { id: businessId ?? '' }, query }), enabled: Boolean(businessId), placeholderData: keepPreviousData });
}

export function useAuditActors() {
  const businessId = useBusinessId();
  return useQuery({ ...endpointQuery(e.auditActors, { params: { id: businessId ?? '' } }), enabled: Boolean(businessId) });
}

export function downloadAuditCsv(businessId: string, query: AuditQuery) {
  return downloadEndpoint(e.auditCsv, { params: { id: businessId }, query }, 'audit-log.csv');
}

/** A team change: the team is read again, and the person's own record (their role may have changed). */
function useTeamMutation<V, R>(run: (businessId: string, variables: V) => Promise<R>) {
  return useBusinessMutation(run, (businessId) => [teamKey(businessId), currentUserKey], { afterSuccessOnly: true });
}

export const useInvite = () => useTeamMutation((id, body: InviteBody) => callForData(e.invite, { params: { id }, body }));

export const useSetRole = () =>
  useTeamMutation((id, { userId, role }: { userId: string; role: MemberRole }) => callForData(e.setRole, { params: { id, userId }, body: { role } }));

export const useRemoveMember = () => useTeamMutation((id, userId: string) => callForData(e.remove, { params: { id, userId } }));

export const useRevokeInvitation = () => useTeamMutation((id, invitationId: string) => callForData(e.revokeInvitation, { params: { id, invitationId } }));

export function useInvitationPreview(token: string | null, enabled: boolean) {
  return useQuery({ ...endpointQuery(e.invitation, { params: { token: token ?? '' } }), enabled: enabled && Boolean(token), retry: false });
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: (token: string) => callForData(e.acceptInvitation, { params: { token } }) });
}
