import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember, setMemberRole } from '../../src/domain/team/team';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { request } from '../support/businesses';
import { requestsApi } from '../support/requests';
import { errorOf, get, post, registeredUser, signIn } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let acme: ApprovedBusiness;
let other: ApprovedBusiness;

const db = () => t.runtime.database.db;
const base = () => `/api/businesses/${acme.businessId}`;

async function outbox(to: string): Promise<{ subject: string; text: string }[]> {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as { subject: string; text: string }[];
}

async function userId(email: string): Promise<string> {
  return (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/** The invitation link's token from the newest e-mail to `email`. */
async function invitationToken(email: string): Promise<string> {
  const mail = (await outbox(email)).find((m) => m.subject.includes('invites you to join'));
  const token = mail?.text.match(/invitation\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no invitation for ${email}`);
  return token;
}

async function team(token = acme.token) {
  const res = await get(t.app, `${base()}/members`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    members: { email: string; role: string; status: string; userId: string; twoFactorEnabled: boolean }[];
    invitations: { email: string; invitationId: string }[];
  };
}

async function audit(query = '', token = acme.token) {
  const res = await get(t.app, `${base()}/audit${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: { action: string; actor: string; summary: string; changes: { field: string; before: unknown; after: unknown }[]; ipAddress: string | null }[];
    total: number;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  acme = await approvedBusiness(t.app, db(), 'team-owner@example.com');
  other = await approvedBusiness(t.app, db(), 'team-other@example.com');
}, 120_000);
afterAll(async () => t?.close());

describe('who signs in with a second factor', () => {
  it('the team shows it for each member of this business, and another business sees none of them', async () => {
    const owner = (await team()).members.find((m) => m.email === 'team-owner@example.com')!;
    expect(owner.twoFactorEnabled).toBe(false);
    await db().updateTable('users').set({ two_factor_enabled: true }).where('email', '=', 'team-owner@example.com').execute();
    expect((await team()).members.find((m) => m.email === 'team-owner@example.com')!.twoFactorEnabled).toBe(true);
    // Another business's owner reads only their own team; this team's list answers 404 to them.
    const theirs = await get(t.app, `/api/businesses/${other.businessId}/members`, other.token);
    expect(theirs.json().data.members.map((m: { email: string }) => m.email)).toEqual(['team-other@example.com']);
    expect((await get(t.app, `${base()}/members`, other.token)).statusCode).toBe(404);
    await db().updateTable('users').set({ two_factor_enabled: false }).where('email', '=', 'team-owner@example.com').execute();
  });
});

describe('inviting a new person', () => {
  it('makes them a member with a temporary password, e-mailed; they meet the new-password challenge, then work in their role', async () => {
    const res = await post(t.app, `${base()}/members`, { email: 'New.Viewer@Example.com', role: 'viewer' }, acme.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ outcome: 'member_added', member: { email: 'new.viewer@example.com', role: 'viewer', status: 'Invited' } });

    const mail = (await outbox('new.viewer@example.com'))[0]!;
    expect(mail.subject).toMatch(/^team-owner@example\.com added you to .+ on Tay$/);
    const password = mail.text.match(/temporary password: (\S+)/)?.[1];
    expect(password).toBeTruthy();

    const signedIn = await signIn(t.app, 'new.viewer@example.com', password!);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const token = signedIn.headers['set-auth-token'] as string;
    // The challenge holds them until they choose their own password.
    expect((await get(t.app, `${base()}/members`, token)).statusCode).toBe(403);
    expect((await post(t.app, '/api/auth/complete-new-password', { newPassword: 'My-Own-Secret-3' }, token)).statusCode).toBe(200);

    const viewer = (await signIn(t.app, 'new.viewer@example.com', 'My-Own-Secret-3')).headers['set-auth-token'] as string;
    expect((await team(viewer)).members.find((m) => m.email === 'new.viewer@example.com')).toMatchObject({ role: 'viewer', status: 'Active' });
    // A viewer reads and exports, and changes nothing.
    expect((await get(t.app, `${base()}/payment-requests`, viewer)).statusCode).toBe(200);
    expect((await get(t.app, `${base()}/payment-requests/export.csv`, viewer)).statusCode).toBe(200);
    const write = await post(t.app, `${base()}/payers`, { firstName: 'Ana', lastName: 'Diaz', email: 'ana@example.com' }, viewer);
    expect(write.statusCode, write.body).toBe(403);
    expect(errorOf(write)).toMatchObject({ code: 'FORBIDDEN', message: 'Your role in this business is view only: you can read and export, not change.' });
    expect((await post(t.app, `${base()}/members`, { email: 'x@example.com', role: 'viewer' }, viewer)).statusCode).toBe(403);
  });

  it('refuses a bad address or role with the field named, and a person already on the team', async () => {
    const bad = await post(t.app, `${base()}/members`, { email: 'not-an-address', role: 'boss' }, acme.token);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).fields ?? {}).sort()).toEqual(['email', 'role']);
    const again = await post(t.app, `${base()}/members`, { email: 'new.viewer@example.com', role: 'admin' }, acme.token);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toContain('already a member');
  });
});

describe('inviting a person who has a Tay account', () => {
  let member: string;

  it('sends an invitation they accept signed in; the link works once', async () => {
    member = await registeredUser(t.app, 'team-member@example.com');
    const res = await post(t.app, `${base()}/members`, { email: 'team-member@example.com', role: 'member' }, acme.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ outcome: 'invitation_sent', invitation: { email: 'team-member@example.com', role: 'member' } });
    expect((await team()).invitations.map((i) => i.email)).toContain('team-member@example.com');
    // Not a member until they accept.
    expect((await get(t.app, `${base()}/members`, member)).statusCode).toBe(404);

    const token = await invitationToken('team-member@example.com');
    const preview = await get(t.app, `/api/invitations/${token}`, member);
    expect(preview.json().data).toMatchObject({ role: 'member', invitedBy: 'team-owner@example.com' });
    // Someone else signed in cannot use it.
    const stranger = await post(t.app, `/api/invitations/${token}/accept`, {}, other.token);
    expect(stranger.statusCode).toBe(403);

    const accepted = await post(t.app, `/api/invitations/${token}/accept`, {}, member);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({ businessId: acme.businessId, role: 'member' });
    const reused = await post(t.app, `/api/invitations/${token}/accept`, {}, member);
    expect(reused.statusCode).toBe(409);
    expect((await team()).invitations.map((i) => i.email)).not.toContain('team-member@example.com');
  });

  it('a member adds payers and requests payment, but manages neither the business nor the team', async () => {
    const payer = await post(t.app, `${base()}/payers`, { firstName: 'Bo', lastName: 'Lee', email: 'bo.lee@example.com' }, member);
    expect(payer.statusCode, payer.body).toBe(201);
    const draft = await requestsApi(t.app, { businessId: acme.businessId, token: member }).post(
      requestsApi(t.app, acme).body(payer.json().data.payerId as string, { mode: 'send' }),
    );
    expect(draft.statusCode, draft.body).toBe(201);
    const invite = await post(t.app, `${base()}/members`, { email: 'y@example.com', role: 'viewer' }, member);
    expect(invite.statusCode).toBe(403);
    expect(errorOf(invite).message).toBe('Only an owner or admin of this business can do this.');
  });

  it('an expired or withdrawn invitation says so (410), and a link that never existed is 404', async () => {
    const person = await registeredUser(t.app, 'team-late@example.com');
    await post(t.app, `${base()}/members`, { email: 'team-late@example.com', role: 'viewer' }, acme.token);
    const first = await invitationToken('team-late@example.com');
    // Inviting again replaces the first invitation.
    await post(t.app, `${base()}/members`, { email: 'team-late@example.com', role: 'admin' }, acme.token);
    const second = await invitationToken('team-late@example.com');
    expect(second).not.toBe(first);
    const replaced = await post(t.app, `/api/invitations/${first}/accept`, {}, person);
    expect(replaced.statusCode).toBe(410);
    expect(errorOf(replaced).code).toBe('GONE');

    await db()
      .updateTable('business_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'team-late@example.com')
      .execute();
    const expired = await post(t.app, `/api/invitations/${second}/accept`, {}, person);
    expect(expired.statusCode).toBe(410);
    expect(errorOf(expired).message).toContain('expired');
    expect((await get(t.app, `${base()}/members`, person)).statusCode).toBe(404);

    expect((await post(t.app, `/api/invitations/${'x'.repeat(43)}/accept`, {}, person)).statusCode).toBe(404);
  });

  it('an invitation can be withdrawn', async () => {
    await registeredUser(t.app, 'team-withdrawn@example.com');
    await post(t.app, `${base()}/members`, { email: 'team-withdrawn@example.com', role: 'viewer' }, acme.token);
    const invitation = (await team()).invitations.find((i) => i.email === 'team-withdrawn@example.com')!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${base()}/invitations/${invitation.invitationId}`,
      headers: { authorization: `Bearer ${acme.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await team()).invitations.map((i) => i.email)).not.toContain('team-withdrawn@example.com');
  });
});

describe('roles and removal', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await registeredUser(t.app, 'team-admin@example.com');
    await db()
      .insertInto('business_members')
      .values({ business_id: acme.businessId, user_id: await userId('team-admin@example.com'), role: 'admin' })
      .execute();
  });

  const patch = (id: string, role: string, token: string) =>
    t.app.inject({ method: 'PATCH', url: `${base()}/members/${id}`, payload: { role }, headers: { authorization: `Bearer ${token}` } });
  const remove = (id: string, token: string) =>
    t.app.inject({ method: 'DELETE', url: `${base()}/members/${id}`, headers: { authorization: `Bearer ${token}` } });

  it('the last owner can be neither demoted nor removed', async () => {
    const owner = await userId('team-owner@example.com');
    const demoted = await patch(owner, 'admin', acme.token);
    expect(demoted.statusCode).toBe(409);
    expect(errorOf(demoted).message).toBe('A business always has an owner: make another member an owner first.');
    expect((await remove(owner, acme.token)).statusCode).toBe(409);
  });

  it('an admin manages members but not owners, and cannot make one', async () => {
    const member = await userId('team-member@example.com');
    expect((await patch(member, 'viewer', admin)).statusCode).toBe(200);
    expect((await patch(member, 'owner', admin)).statusCode).toBe(403);
    expect((await patch(await userId('team-owner@example.com'), 'viewer', admin)).statusCode).toBe(403);
    expect((await post(t.app, `${base()}/members`, { email: 'new-owner@example.com', role: 'owner' }, admin)).statusCode).toBe(403);
  });

  it('acts on a member as the mount read them when it admitted the request: a role changed since is a conflict (409), and nothing changes', async () => {
    const member = await userId('team-member@example.com');
    const actor = { userId: await userId('team-owner@example.com'), label: 'team-owner@example.com' };
    // The member is a viewer now; the request was admitted while the mount read another role.
    const changed = { statusCode: 409, message: 'The role of team-member@example.com changed a moment ago. Reload the team and try again.' };
    await expect(setMemberRole(db(), { businessId: acme.businessId, actor, userId: member, role: 'admin', admittedAs: 'member' })).rejects.toMatchObject(
      changed,
    );
    await expect(removeMember(db(), { businessId: acme.businessId, actor, userId: member, admittedAs: 'owner' })).rejects.toMatchObject(changed);
    expect((await team()).members.find((m) => m.userId === member)?.role).toBe('viewer');
  });

  it('a role change is on the audit log with before and after, who made it and from where', async () => {
    const entry = (await audit('?kind=team')).items.find((e) => e.action === 'member.role_changed')!;
    expect(entry).toMatchObject({
      actor: 'team-admin@example.com',
      summary: 'Changed the role of team-member@example.com',
      changes: [{ field: 'role', before: 'member', after: 'viewer' }],
    });
    expect(entry.ipAddress).toBeTruthy();
  });

  it('removing a member ends their sessions at once', async () => {
    const memberToken = (await signIn(t.app, 'team-member@example.com')).headers['set-auth-token'] as string;
    expect((await get(t.app, '/api/user', memberToken)).statusCode).toBe(200);
    const res = await remove(await userId('team-member@example.com'), admin);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(t.app, '/api/user', memberToken)).statusCode).toBe(401);
    expect((await team()).members.map((m) => m.email)).not.toContain('team-member@example.com');
    const again = await remove(await userId('team-member@example.com'), admin);
    expect(again.statusCode).toBe(404);
  });

  it("another business's members and log are not found", async () => {
    const id = await userId('team-admin@example.com');
    expect((await patch(id, 'viewer', other.token)).statusCode).toBe(404);
    expect((await get(t.app, `${base()}/audit`, other.token)).statusCode).toBe(404);
    // Their own log holds nothing of ours.
    const theirs = (await get(t.app, `/api/businesses/${other.businessId}/audit?search=team-member`, other.token)).json().data;
    expect(theirs.total).toBe(0);
  });
});

describe('the audit log', () => {
  it('has an entry for each kind of change: business, team, payers, requests', async () => {
    const kinds = new Set((await audit('?pageSize=100')).items.map((e) => e.action.split('.')[0]));
    for (const kind of ['business', 'member', 'payer', 'request']) expect(kinds, kind).toContain(kind);
  });

  it('a request created by a member is on record with its reference, and filters by person, kind and search', async () => {
    const member = await userId('team-member@example.com');
    const byMember = await audit(`?actor=${member}&kind=requests`);
    // Newest first, in the order they were written: sent after it was created, in one step.
    expect(byMember.items.map((e) => e.action)).toEqual(['request.send', 'request.create']);
    expect(byMember.items.every((e) => e.actor === 'team-member@example.com')).toBe(true);
    expect(byMember.items[1]!.summary).toMatch(/^Created TRX-\d+$/);
    expect((await audit('?search=bo.lee')).total).toBeGreaterThan(0);
  });

  it('a business change records each field before → after', async () => {
    const res = await request(t.app, 'PATCH', `${base()}/update`, acme.token, { businessName: 'Acme Renamed' });
    expect(res.statusCode, res.body).toBe(200);
    const entry = (await audit('?kind=business')).items.find((e) => e.action === 'business.updated')!;
    expect(entry.changes).toEqual([{ field: 'businessName', before: expect.any(String), after: 'Acme Renamed' }]);
  });

  it('is append-only: the database refuses to rewrite or delete an entry', async () => {
    await expect(db().updateTable('business_events').set({ actor: 'someone else' }).where('business_id', '=', acme.businessId).execute()).rejects.toThrow(
      /append-only|permission denied/,
    );
    await expect(db().deleteFrom('business_events').where('business_id', '=', acme.businessId).execute()).rejects.toThrow(/append-only|permission denied/);
  });

  it('exports as CSV, and refuses a date range that ends before it starts', async () => {
    const csv = await get(t.app, `${base()}/audit.csv?kind=team`, acme.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('role: member → viewer');
    const bad = await get(t.app, `${base()}/audit?from=2026-02-01&to=2026-01-01`, acme.token);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toHaveProperty('from');
  });
});
