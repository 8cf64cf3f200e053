import { Alert, Badge, Button, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle, IconUserPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES, ROLE_LABELS, type MemberRole, type TeamInvitation, type TeamMember } from '@tay/contract';
import { DataTable, type Column, type RowAction } from '../../../components/ui/data-table';
import { NameCell } from '../../../components/ui/name-cell';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSession } from '../../../lib/session';
import { useRoleAllows } from '../../../lib/endpoint-access';
import { useInvite, useRemoveMember, useRevokeInvitation, useSetRole, useTeam } from '../api/team-api';
import { RoleBadge } from '../components/role-badge';
import { useBusinessTime } from '../../../lib/business-time';

const roleOptions = (roles: readonly MemberRole[]) =>
  roles.map((role) => ({ value: role, label: `${ROLE_LABELS[role].label} — ${ROLE_LABELS[role].description}` }));

/** The roles a person may give: only an owner makes owners. */
const assignable = (myRole: MemberRole | undefined) => MEMBER_ROLES.filter((role) => role !== 'owner' || myRole === 'owner');

function InviteModal({ opened, onClose, myRole }: { opened: boolean; onClose: () => void; myRole: MemberRole | undefined }) {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const [error, setError] = useState<{ email?: string; role?: string; form?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError({ email: 'Enter a valid e-mail address.' });
      return;
    }
    setError({});
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'teal',
            title: result.outcome === 'member_added' ? `${address} added to the team` : `Invitation sent to ${address}`,
            message:
              result.outcome === 'member_added'
                ? 'They were e-mailed a temporary password, and choose their own when they first sign in.'
                : 'They already have a Tay account: they join once they accept the e-mailed invitation.',
          });
          setEmail('');
          onClose();
        },
        onError: (failure) => {
          const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
          setError({ email: fields.email, role: fields.role, form: fields.email || fields.role ? undefined : failure.message });
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Invite a person" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {error.form && (
            <Alert color="red" role="alert">
              {error.form}
            </Alert>
          )}
          <TextInput
            label="E-mail address"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={error.email}
            data-autofocus
          />
          <Select
            label="Role"
            required
            allowDeselect={false}
            data={roleOptions(assignable(myRole))}
            value={role}
            onChange={(value) => value && setRole(value as MemberRole)}
            error={error.role}
          />
          <Text size="xs" c="dimmed">
            A new person gets a temporary password by e-mail and chooses their own at first sign-in; someone who already uses Tay accepts an e-mailed
            invitation.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RoleModal({ member, onClose, myRole }: { member: TeamMember | null; onClose: () => void; myRole: MemberRole | undefined }) {
  const setRole = useSetRole();
  const [role, setValue] = useState<MemberRole | null>(null);
  const chosen = role ?? member?.role ?? 'member';
  return (
    <Modal opened={member !== null} onClose={onClose} title={member ? `Change the role of ${member.email}` : ''} centered>
      <Stack>
        <Select
          label="Role"
          allowDeselect={false}
          data={roleOptions(assignable(myRole))}
          value={chosen}
          onChange={(value) => value && setValue(value as MemberRole)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={setRole.isPending}
            onClick={() =>
              member &&
              setRole.mutate(
                { userId: member.userId, role: chosen },
                {
                  onSuccess: () => {
                    notifications.show({ color: 'teal', title: 'Role changed', message: `${member.email} is now ${ROLE_LABELS[chosen].label}.` });
                    setValue(null);
                    onClose();
                  },
                  onError: (failure) => notifications.show({ color: 'red', title: 'Role not changed', message: failure.message }),
                },
              )
            }
          >
            Save role
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * /business/setup/team: who works in the business, with which role; invite, change a role,
 * remove, withdraw an invitation. Owners and admins manage it; only owners touch owners. The API
 * enforces the same (`packages/contract/src/team/endpoints.ts`).
 */
export function TeamPage() {
  useDocumentTitle('Team');
  const session = useSession();
  const clock = useBusinessTime();
  const myRole = session.business?.role;
  const canManage = useRoleAllows('business:write');
  const team = useTeam();
  const remove = useRemoveMember();
  const revoke = useRevokeInvitation();
  const invite = useInvite();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<TeamMember | null>(null);

  const mayTouch = (role: MemberRole) => canManage && (role !== 'owner' || myRole === 'owner');

  const memberActions = (m: TeamMember): RowAction<TeamMember>[] =>
    mayTouch(m.role)
      ? [
          { label: 'Change role', onClick: () => setEditing(m) },
          {
            label: 'Remove',
            color: 'red',
            onClick: () =>
              modals.openConfirmModal({
                title: `Remove ${m.email} from the team?`,
                children: (
                  <Text size="sm">They lose access to this business at once, and are signed out everywhere. What they did stays on the audit log.</Text>
                ),
                labels: { confirm: 'Remove member', cancel: 'Keep member' },
                confirmProps: { color: 'red' },
                onConfirm: () =>
                  remove.mutate(m.userId, {
                    onSuccess: () => notifications.show({ color: 'teal', title: 'Member removed', message: m.email }),
                    onError: (failure) => notifications.show({ color: 'red', title: 'Member not removed', message: failure.message }),
                  }),
              }),
          },
        ]
      : [];

  const invitationActions = (i: TeamInvitation): RowAction<TeamInvitation>[] =>
    mayTouch(i.role)
      ? [
          {
            label: 'Send again',
            onClick: () =>
              invite.mutate(
                { email: i.email, role: i.role },
                {
                  onSuccess: () =>
                    notifications.show({ color: 'teal', title: `Invitation sent again to ${i.email}`, message: 'The earlier link no longer works.' }),
                  onError: (failure) => notifications.show({ color: 'red', title: 'Invitation not sent', message: failure.message }),
                },
              ),
          },
          {
            label: 'Withdraw',
            color: 'red',
            onClick: () =>
              modals.openConfirmModal({
                title: `Withdraw the invitation of ${i.email}?`,
                children: <Text size="sm">The link they were sent stops working. You can invite them again later.</Text>,
                labels: { confirm: 'Withdraw invitation', cancel: 'Keep invitation' },
                confirmProps: { color: 'red' },
                onConfirm: () =>
                  revoke.mutate(i.invitationId, {
                    onSuccess: () => notifications.show({ color: 'teal', title: 'Invitation withdrawn', message: i.email }),
                    onError: (failure) => notifications.show({ color: 'red', title: 'Invitation not withdrawn', message: failure.message }),
                  }),
              }),
          },
        ]
      : [];

  const memberColumns: Column<TeamMember>[] = [
    {
      key: 'person',
      header: 'Person',
      render: (m) => <NameCell name={`${m.email}${m.userId === session.user?.id ? ' (you)' : ''}`} detail={m.name} />,
    },
    { key: 'role', header: 'Role', render: (m) => <RoleBadge role={m.role} /> },
    {
      key: 'status',
      header: 'Status',
      render: (m) => (
        <Badge color={m.status === 'Active' ? 'teal' : 'yellow'} variant="light">
          {m.status === 'Active' ? 'Active' : 'Invited — not signed in yet'}
        </Badge>
      ),
    },
    { key: 'lastSignIn', header: 'Last sign-in', render: (m) => (m.lastSignedInAt ? clock.dateTime(m.lastSignedInAt) : 'Never') },
    {
      key: 'secondFactor',
      header: 'Second factor',
      render: (m) => (
        <Badge color={m.twoFactorEnabled ? 'teal' : 'gray'} variant="light">
          {m.twoFactorEnabled ? 'Authenticator app' : 'None'}
        </Badge>
      ),
    },
    { key: 'joined', header: 'Member since', render: (m) => clock.date(m.joinedAt) },
  ];

  const invitationColumns: Column<TeamInvitation>[] = [
    { key: 'email', header: 'E-mail', render: (i) => i.email },
    { key: 'role', header: 'Role', render: (i) => <RoleBadge role={i.role} /> },
    {
      // Not a member until they accept: whatever their account elsewhere, even one still on a
      // temporary password another business e-mailed them.
      key: 'status',
      header: 'Status',
      render: (i) => (
        <Badge color={i.expired ? 'gray' : 'yellow'} variant="light">
          {i.expired ? 'Invited — link expired' : 'Invited — not accepted yet'}
        </Badge>
      ),
    },
    { key: 'invitedBy', header: 'Invited by', render: (i) => i.invitedBy },
    { key: 'sent', header: 'Sent', render: (i) => clock.date(i.createdAt) },
    {
      key: 'expires',
      header: 'Expires',
      render: (i) =>
        i.expired ? (
          <Badge color="red" variant="light">
            Expired {clock.date(i.expiresAt)}
          </Badge>
        ) : (
          clock.date(i.expiresAt)
        ),
    },
  ];

  const members = team.data?.members;
  const invitations = team.data?.invitations;
  const inviteButton = (
    <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)} disabled={!canManage}>
      Invite a person
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Team</Title>
          <Text c="dimmed" size="sm">
            The people who work in this business, and what each may do.
          </Text>
        </div>
        {inviteButton}
      </Group>
      {!canManage && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} title="View only">
          Only an owner or admin of this business can invite people, change roles or remove members.
        </Alert>
      )}
      <DataTable
        caption="Members"
        columns={memberColumns}
        rows={members}
        rowKey={(m) => m.userId}
        total={members?.length ?? 0}
        page={1}
        pageSize={Math.max(members?.length ?? 0, 1)}
        onPageChange={() => undefined}
        actions={canManage ? memberActions : undefined}
        loading={team.isPending}
        error={team.error}
        onRetry={() => void team.refetch()}
        empty={{ title: 'No members', description: 'Invite the people who work with you.' }}
      />
      {(invitations?.length ?? 0) > 0 && (
        <>
          <Title order={2} size="h4">
            Invitations waiting to be accepted
          </Title>
          <DataTable
            caption="Invitations"
            columns={invitationColumns}
            rows={invitations}
            rowKey={(i) => i.invitationId}
            total={invitations?.length ?? 0}
            page={1}
            pageSize={Math.max(invitations?.length ?? 0, 1)}
            onPageChange={() => undefined}
            actions={canManage ? invitationActions : undefined}
            empty={{ title: 'No invitations', description: 'Invitations you send to people who already use Tay wait here until they accept.' }}
          />
        </>
      )}
      <Stack gap={4}>
        <Title order={2} size="h4">
          Roles
        </Title>
        {MEMBER_ROLES.map((role) => (
          <Group key={role} gap="xs" wrap="nowrap" align="flex-start">
            <RoleBadge role={role} />
            <Text size="sm">{ROLE_LABELS[role].description}</Text>
          </Group>
        ))}
      </Stack>
      <InviteModal opened={inviting} onClose={() => setInviting(false)} myRole={myRole} />
      <RoleModal member={editing} onClose={() => setEditing(null)} myRole={myRole} />
    </Stack>
  );
}
