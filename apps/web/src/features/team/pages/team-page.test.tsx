import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TeamMember } from '@tay/contract';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { TeamPage } from './team-page';

const MEMBERS = `/api/businesses/${BUSINESS_ID}/members`;
const TEAM = '/business/setup/team';

const member = (email: string, role: TeamMember['role'], over: Partial<TeamMember> = {}): TeamMember => ({
  userId: `usr_${email.split('@')[0]}`,
  email,
  name: '',
  role,
  status: 'Active',
  lastSignedInAt: '2026-11-20T10:00:00.000Z',
  twoFactorEnabled: false,
  joinedAt: '2026-10-01T10:00:00.000Z',
  ...over,
});

const team = {
  members: [
    member('owner@biz.example', 'owner', { userId: 'usr_1' }),
    member('ada@biz.example', 'admin', { twoFactorEnabled: true }),
    member('val@biz.example', 'viewer', { status: 'Invited', lastSignedInAt: null }),
  ],
  invitations: [
    {
      invitationId: 'inv_1',
      email: 'sam@elsewhere.example',
      role: 'member',
      invitedBy: 'owner@biz.example',
      createdAt: '2026-11-20T10:00:00.000Z',
      expiresAt: '2026-11-27T10:00:00.000Z',
      expired: false,
    },
  ],
};

const fake = fakeApiPerTest();
beforeEach(() => {
  fake.on('GET', MEMBERS, ok(team));
});

async function rowMenu(text: string) {
  const u = userEvent.setup();
  const row = (await screen.findByText(text)).closest('tr')!;
  await u.click(within(row).getByRole('button', { name: 'Row actions' }));
  return (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
}

describe('the team page', () => {
  it('lists members with role, status and last sign-in, and the invitations waiting', async () => {
    renderAt(TEAM, { [TEAM]: <TeamPage /> });
    const row = (await screen.findByText('val@biz.example')).closest('tr')!;
    expect(within(row).getByText('Viewer')).toBeInTheDocument();
    expect(within(row).getByText('Invited — not signed in yet')).toBeInTheDocument();
    expect(within(row).getByText('Never')).toBeInTheDocument();
    expect(within(row).getByText('None')).toBeInTheDocument();
    // Who signs in with a second factor.
    expect(within(screen.getByText('ada@biz.example').closest('tr')!).getByText('Authenticator app')).toBeInTheDocument();
    expect(screen.getByText('owner@biz.example (you)')).toBeInTheDocument();
    const invited = screen.getByText('sam@elsewhere.example').closest('tr')!;
    expect(within(invited).getByText('Invited — not accepted yet')).toBeInTheDocument();
  });

  it('an invitation waiting to be accepted can be sent again or withdrawn', async () => {
    const REVOKE = `/api/businesses/${BUSINESS_ID}/invitations/inv_1`;
    fake.on('DELETE', REVOKE, ok({ removed: true }));
    renderAt(TEAM, { [TEAM]: <TeamPage /> });
    expect(await rowMenu('sam@elsewhere.example')).toEqual(['Send again', 'Withdraw']);
    const u = userEvent.setup();
    await u.click(screen.getByRole('menuitem', { name: 'Withdraw' }));
    await u.click(await screen.findByRole('button', { name: 'Withdraw invitation' }));
    expect(await screen.findByText('Invitation withdrawn')).toBeInTheDocument();
    expect(fake.callsTo('DELETE', REVOKE)).toHaveLength(1);
  });

  it('an owner invites a person with a role; the API hears exactly that, and the page says what happened', async () => {
    fake.on('POST', MEMBERS, (call) => ({
      status: 201,
      json: { status: 'Success', data: { outcome: 'member_added', member: member((call.body as { email: string }).email, 'admin'), invitation: null } },
    }));
    const u = userEvent.setup();
    renderAt(TEAM, { [TEAM]: <TeamPage /> });
    await u.click(await screen.findByRole('button', { name: 'Invite a person' }));
    await u.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'new@biz.example');
    await u.click(screen.getAllByLabelText(/^Role/)[0]!);
    await u.click(await screen.findByRole('option', { name: /^Admin — /, hidden: true }));
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('new@biz.example added to the team')).toBeInTheDocument();
    expect(fake.callsTo('POST', MEMBERS)[0]!.body).toEqual({ email: 'new@biz.example', role: 'admin' });
  });

  it('says which field is wrong, from the API', async () => {
    fake.on('POST', MEMBERS, apiError(409, 'CONFLICT', 'ada@biz.example is already a member of Biz (Admin). Change their role instead.'));
    const u = userEvent.setup();
    renderAt(TEAM, { [TEAM]: <TeamPage /> });
    await u.click(await screen.findByRole('button', { name: 'Invite a person' }));
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(fake.callsTo('POST', MEMBERS)).toHaveLength(0);
    await u.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'ada@biz.example');
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already a member');
  });

  it('an admin may not make owners: the owner row has no actions and Owner is not offered', async () => {
    renderAt(TEAM, { [TEAM]: <TeamPage /> }, { business: { role: 'admin' } });
    const ownerRow = (await screen.findByText('owner@biz.example (you)')).closest('tr')!;
    expect(within(ownerRow).queryByRole('button', { name: 'Row actions' })).toBeNull();
    expect(await rowMenu('val@biz.example')).toEqual(['Change role', 'Remove']);
    const u = userEvent.setup();
    await u.click(screen.getByRole('menuitem', { name: 'Change role' }));
    await u.click(screen.getAllByLabelText(/^Role/)[0]!);
    const options = (await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent);
    expect(options.some((o) => o?.startsWith('Owner'))).toBe(false);
  });

  it('a viewer or member sees the team but cannot change it', async () => {
    renderAt(TEAM, { [TEAM]: <TeamPage /> }, { business: { role: 'viewer' } });
    expect(await screen.findByText('ada@biz.example')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite a person' })).toBeDisabled();
    expect(screen.queryAllByRole('button', { name: 'Row actions' })).toHaveLength(0);
    expect(screen.getByText('Only an owner or admin of this business can invite people, change roles or remove members.')).toBeInTheDocument();
  });

  it('removing a member asks first, then says it is done', async () => {
    fake.on('DELETE', `${MEMBERS}/usr_ada`, ok({ removed: true }));
    renderAt(TEAM, { [TEAM]: <TeamPage /> });
    await rowMenu('ada@biz.example');
    const u = userEvent.setup();
    await u.click(screen.getByRole('menuitem', { name: 'Remove' }));
    expect(fake.callsTo('DELETE', `${MEMBERS}/usr_ada`)).toHaveLength(0);
    await u.click(await screen.findByRole('button', { name: 'Remove member' }));
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
    expect(fake.callsTo('DELETE', `${MEMBERS}/usr_ada`)).toHaveLength(1);
  });
});
