import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBusiness, type ApprovedBusiness } from '../support/approved-business';
import { errorOf, get, post, registeredUser, signIn } from '../support/identity';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 35 point 3: another business's admin must not break a pending person's first sign-in.
 * Business B invites a new person X (a temporary password P1, e-mailed); an admin of business A
 * then invites X's address. P1 keeps working for B, and X joins A only by accepting A's link.
 */

let t: TestApp;
let a: ApprovedBusiness;
let b: ApprovedBusiness;
let aAdmin: string;

const db = () => t.runtime.database.db;

async function outbox(to: string): Promise<{ subject: string; text: string; html: string }[]> {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as { subject: string; text: string; html: string }[];
}

/** The temporary password in the newest "added you to" e-mail to `email`. */
async function temporaryPassword(email: string): Promise<string> {
  const mail = (await outbox(email)).find((m) => m.subject.includes('added you to'));
  const password = mail?.text.match(/temporary password: (\S+)/)?.[1];
  if (!password) throw new Error(`no temporary password for ${email}`);
  return password;
}

/** The newest invitation e-mail to `email` and its link's token. */
async function invitation(email: string): Promise<{ token: string; text: string; subject: string }> {
  const mail = (await outbox(email)).find((m) => m.subject.includes('invites you to join'));
  const token = mail?.text.match(/invitation\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!mail || !token) throw new Error(`no invitation for ${email}`);
  return { token, text: mail.text, subject: mail.subject };
}

async function membership(businessId: string, email: string) {
  return db()
    .selectFrom('business_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.role')
    .where('m.business_id', '=', businessId)
    .where('u.email', '=', email)
    .executeTakeFirst();
}

async function teamOf(business: ApprovedBusiness, token: string) {
  const res = await get(t.app, `/api/businesses/${business.businessId}/members`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    members: { email: string; role: string; status: string }[];
    invitations: { email: string; role: string; invitationId: string }[];
  };
}

const invite = (business: ApprovedBusiness, token: string, email: string, role: string) =>
  post(t.app, `/api/businesses/${business.businessId}/members`, { email, role }, token);

beforeAll(async () => {
  t = await createTestApp();
  b = await approvedBusiness(t.app, db(), 'pending-b-owner@example.com');
  a = await approvedBusiness(t.app, db(), 'pending-a-owner@example.com');
  // A's admin: an admin of business A, as in the review's steps.
  aAdmin = await registeredUser(t.app, 'pending-a-admin@example.com');
  expect((await invite(a, a.token, 'pending-a-admin@example.com', 'admin')).statusCode).toBe(201);
  const joined = await post(t.app, `/api/invitations/${(await invitation('pending-a-admin@example.com')).token}/accept`, {}, aAdmin);
  expect(joined.statusCode, joined.body).toBe(200);
}, 180_000);
afterAll(async () => t?.close());

describe("another business's invitation to a person who has not signed in yet", () => {
  const x = 'pending-x@example.com';

  it("leaves B's temporary password working and makes X nothing of A's until X accepts; the link works once", async () => {
    // B invites a new person X: a member of B with a temporary password P1.
    const byB = await invite(b, b.token, x, 'member');
    expect(byB.statusCode, byB.body).toBe(201);
    expect(byB.json().data).toMatchObject({ outcome: 'member_added', member: { email: x, status: 'Invited' } });
    const p1 = await temporaryPassword(x);

    // A's admin invites the same address: an invitation to accept, not a new password or a membership.
    const byA = await invite(a, aAdmin, x, 'admin');
    expect(byA.statusCode, byA.body).toBe(201);
    expect(byA.json().data).toMatchObject({ outcome: 'invitation_sent', member: null, invitation: { email: x, role: 'admin' } });
    expect(await temporaryPassword(x)).toBe(p1);
    expect(await membership(a.businessId, x)).toBeUndefined();
    const aTeam = await teamOf(a, aAdmin);
    expect(aTeam.members.map((m) => m.email)).not.toContain(x);
    expect(aTeam.invitations).toEqual([expect.objectContaining({ email: x, role: 'admin' })]);
    // B still has X as its pending member.
    expect((await teamOf(b, b.token)).members.find((m) => m.email === x)).toMatchObject({ role: 'member', status: 'Invited' });

    // The e-mail makes sense to someone with no password of their own, and says nothing of B.
    const mail = await invitation(x);
    expect(mail.subject).toBe(`pending-a-admin@example.com invites you to join Biz ${a.email} on Tay`);
    expect(mail.text).toContain('have not chosen your password yet');
    expect(mail.text).toContain('/forgot-password');
    expect(mail.text).not.toContain(p1);
    expect(mail.text).not.toContain(b.email);

    // P1 still signs in, and the new-password challenge holds X before anything else, A's link included.
    const first = await signIn(t.app, x, p1);
    expect(first.statusCode, first.body).toBe(200);
    const temporary = first.headers['set-auth-token'] as string;
    expect((first.json() as { user: { mustChangePassword: boolean } }).user.mustChangePassword).toBe(true);
    const held = await post(t.app, `/api/invitations/${mail.token}/accept`, {}, temporary);
    expect(held.statusCode).toBe(403);
    expect(errorOf(held).code).toBe('NEW_PASSWORD_REQUIRED');
    expect(await membership(a.businessId, x)).toBeUndefined();

    // X chooses a password (B's first sign-in): a member of B, still not of A.
    expect((await post(t.app, '/api/auth/complete-new-password', { newPassword: 'Pending-X-Own-7' }, temporary)).statusCode).toBe(200);
    const own = (await signIn(t.app, x, 'Pending-X-Own-7')).headers['set-auth-token'] as string;
    expect((await teamOf(b, own)).members.find((m) => m.email === x)).toMatchObject({ role: 'member', status: 'Active' });
    expect((await get(t.app, `/api/businesses/${a.businessId}/members`, own)).statusCode).toBe(404);

    // X accepts A's invitation: now an admin of A. The link works once.
    const preview = await get(t.app, `/api/invitations/${mail.token}`, own);
    expect(preview.json().data).toMatchObject({ role: 'admin', invitedBy: 'pending-a-admin@example.com' });
    const accepted = await post(t.app, `/api/invitations/${mail.token}/accept`, {}, own);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({ businessId: a.businessId, role: 'admin' });
    expect((await teamOf(a, own)).members.find((m) => m.email === x)).toMatchObject({ role: 'admin', status: 'Active' });
    expect((await membership(b.businessId, x))?.role).toBe('member');
    const again = await post(t.app, `/api/invitations/${mail.token}/accept`, {}, own);
    expect(again.statusCode).toBe(409);
    expect((await teamOf(a, aAdmin)).invitations.map((i) => i.email)).not.toContain(x);
  });

  it('a pending person sets their password with "forgot password"; re-inviting replaces the link, withdrawing ends it', async () => {
    const y = 'pending-y@example.com';
    expect((await invite(b, b.token, y, 'viewer')).statusCode).toBe(201);
    const p1 = await temporaryPassword(y);

    expect((await invite(a, aAdmin, y, 'viewer')).statusCode).toBe(201);
    const first = (await invitation(y)).token;
    // Inviting again replaces the link; the temporary password stays.
    expect((await invite(a, aAdmin, y, 'member')).json().data).toMatchObject({ outcome: 'invitation_sent' });
    const second = (await invitation(y)).token;
    expect(second).not.toBe(first);
    expect(await temporaryPassword(y)).toBe(p1);
    expect((await teamOf(a, aAdmin)).invitations.filter((i) => i.email === y)).toEqual([expect.objectContaining({ role: 'member' })]);

    // As the e-mail says: "Forgot password?" sets a password of their own.
    expect((await post(t.app, '/api/auth/email-otp/request-password-reset', { email: y })).statusCode).toBe(200);
    const reset = (await outbox(y)).find((m) => m.subject.includes('password reset code'));
    const otp = reset?.subject.match(/(\d{6})$/)?.[1];
    expect(otp).toBeTruthy();
    const done = await post(t.app, '/api/auth/email-otp/reset-password', { email: y, otp, password: 'Pending-Y-Own-8' });
    expect(done.statusCode, done.body).toBe(200);
    const own = (await signIn(t.app, y, 'Pending-Y-Own-8')).headers['set-auth-token'] as string;
    expect((await get(t.app, '/api/user', own)).statusCode).toBe(200);

    const replaced = await post(t.app, `/api/invitations/${first}/accept`, {}, own);
    expect(replaced.statusCode).toBe(410);
    expect(errorOf(replaced).code).toBe('GONE');

    // A withdraws it: the link is gone, and Y never joined A.
    const open = (await teamOf(a, aAdmin)).invitations.find((i) => i.email === y)!;
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/api/businesses/${a.businessId}/invitations/${open.invitationId}`,
      headers: { authorization: `Bearer ${aAdmin}` },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const gone = await post(t.app, `/api/invitations/${second}/accept`, {}, own);
    expect(gone.statusCode).toBe(410);
    expect(await membership(a.businessId, y)).toBeUndefined();
    expect((await membership(b.businessId, y))?.role).toBe('viewer');
  });

  it('a person who was invited and removed before signing in gets a link, not a new password', async () => {
    const z = 'pending-z@example.com';
    expect((await invite(b, b.token, z, 'member')).statusCode).toBe(201);
    const p1 = await temporaryPassword(z);
    const zId = (await db().selectFrom('users').select('id').where('email', '=', z).executeTakeFirstOrThrow()).id;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/businesses/${b.businessId}/members/${zId}`,
      headers: { authorization: `Bearer ${b.token}` },
    });
    expect(removed.statusCode, removed.body).toBe(200);

    const byA = await invite(a, a.token, z, 'member');
    expect(byA.json().data).toMatchObject({ outcome: 'invitation_sent' });
    expect(await temporaryPassword(z)).toBe(p1);
    expect(await membership(a.businessId, z)).toBeUndefined();
    expect((await signIn(t.app, z, p1)).statusCode).toBe(200);
  });
});
