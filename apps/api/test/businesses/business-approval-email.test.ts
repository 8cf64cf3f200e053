import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { autoApproveBusiness } from '../../src/domain/businesses/auto-approve-business';
import { COMMANDS } from '../../src/ops/commands';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { get, registeredUser } from '../support/identity';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

interface Mail {
  subject: string;
  text: string;
  html: string | null;
}

async function inbox(t: TestApp, to: string): Promise<Mail[]> {
  return (await get(t.app, `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json() as Mail[];
}

const approvals = async (t: TestApp, to: string) => (await inbox(t, to)).filter((m) => m.subject.endsWith('is approved on Tay'));

async function ops(t: TestApp, name: string, ...args: string[]): Promise<void> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await COMMANDS[name]!.run(t.runtime, args);
  } finally {
    log.mockRestore();
  }
}

/** A complete business of `owner`, with a co-owner, an admin and a member who signed up too. */
async function businessWithTeam(t: TestApp, prefix: string) {
  const token = await registeredUser(t.app, `${prefix}-owner@example.com`);
  const { businessId } = await createBusiness(t.app, token, { businessName: `${prefix} Studio`, entityType: 'standard' });
  await completeSetup(t.app, token, businessId);
  for (const role of ['owner', 'admin', 'member'] as const) {
    const email = `${prefix}-${role === 'owner' ? 'co-owner' : role}@example.com`;
    await registeredUser(t.app, email);
    const user = await t.runtime.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await t.runtime.database.db.insertInto('business_members').values({ business_id: businessId, user_id: user.id, role }).execute();
  }
  return { token, businessId };
}

async function submit(t: TestApp, token: string, businessId: string) {
  const res = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token);
  expect(res.statusCode, res.body).toBe(200);
}

describe('the e-mail the submit dialog promises, when operations approve', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false', PUBLIC_URL: 'https://portal.tay.example' });
  });
  afterAll(async () => t?.close());

  it('goes to every owner once the business is approved, and to no one else', async () => {
    const { token, businessId } = await businessWithTeam(t, 'ops');
    // Refused before it is submitted: nothing is e-mailed.
    await expect(ops(t, 'approve-business', businessId)).rejects.toThrow(/has not been submitted yet/);
    await submit(t, token, businessId);
    expect(await approvals(t, 'ops-owner@example.com')).toEqual([]);

    await ops(t, 'approve-business', businessId);

    const [mail, ...more] = await approvals(t, 'ops-owner@example.com');
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('ops Studio is approved on Tay');
    expect(mail!.text).toContain('We reviewed the details of ops Studio and approved the business.');
    expect(mail!.text).toContain('https://portal.tay.example/business/home');
    expect(mail!.html).toContain('href="https://portal.tay.example/business/home"');
    expect(await approvals(t, 'ops-co-owner@example.com')).toHaveLength(1);
    expect(await approvals(t, 'ops-admin@example.com')).toEqual([]);
    expect(await approvals(t, 'ops-member@example.com')).toEqual([]);
  });

  it('is sent for the approval, not again when a disabled business is enabled', async () => {
    const token = await registeredUser(t.app, 'declined@example.com');
    const { businessId } = await createBusiness(t.app, token, { businessName: 'Declined Co', entityType: 'standard' });
    await completeSetup(t.app, token, businessId);
    await submit(t, token, businessId);
    await ops(t, 'approve-business', businessId);
    await ops(t, 'disable-business', businessId, '--reason', 'Check');
    await ops(t, 'enable-business', businessId);
    expect(await approvals(t, 'declined@example.com')).toHaveLength(1);
  });

  it('tells the owners, and no one else, when operations decline, disable or enable the business, with the reason', async () => {
    // What the review said to them (sign-up codes and the approval aside).
    const subjects = async (to: string) =>
      (await inbox(t, to)).map((m) => m.subject).filter((s) => /Studio (was not approved|is disabled|is enabled again) on Tay$/.test(s));
    const declined = await businessWithTeam(t, 'review');
    await submit(t, declined.token, declined.businessId);
    await ops(t, 'disable-business', declined.businessId, '--reason', 'The EIN does not match the legal name.');
    const [decline] = (await inbox(t, 'review-owner@example.com')).filter((m) => m.subject === 'review Studio was not approved on Tay');
    expect(decline!.text).toContain('Why: The EIN does not match the legal name.');
    expect(await subjects('review-co-owner@example.com')).toEqual(['review Studio was not approved on Tay']);
    expect(await subjects('review-admin@example.com')).toEqual([]);
    expect(await subjects('review-member@example.com')).toEqual([]);

    const running = await businessWithTeam(t, 'running');
    await submit(t, running.token, running.businessId);
    await ops(t, 'approve-business', running.businessId);
    await ops(t, 'disable-business', running.businessId, '--reason', 'Chargebacks under review.');
    await ops(t, 'enable-business', running.businessId);
    expect(await subjects('running-owner@example.com')).toEqual(
      expect.arrayContaining(['running Studio is disabled on Tay', 'running Studio is enabled again on Tay']),
    );
    const disabled = (await inbox(t, 'running-owner@example.com')).find((m) => m.subject === 'running Studio is disabled on Tay');
    expect(disabled!.text).toContain('Why: Chargebacks under review.');
    expect(await subjects('running-member@example.com')).toEqual([]);
  });
});

describe('the approval e-mail, when the sandbox approves', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'true' });
  });
  afterAll(async () => t?.close());

  it('arrives after the auto-approval job, once however often the job runs', async () => {
    const { token, businessId } = await businessWithTeam(t, 'auto');
    await submit(t, token, businessId);
    const [mail] = await eventually(async () => {
      const found = await approvals(t, 'auto-owner@example.com');
      return found.length > 0 ? found : undefined;
    }, 20_000);
    expect(mail!.subject).toBe('auto Studio is approved on Tay');
    expect(
      await autoApproveBusiness({ db: t.runtime.database.db, businessId, mail: { mailer: t.runtime.mailer, publicUrl: t.runtime.config.publicUrl } }),
    ).toBe('not-pending');
    expect(await approvals(t, 'auto-owner@example.com')).toHaveLength(1);
    expect(await approvals(t, 'auto-co-owner@example.com')).toHaveLength(1);
    expect(await approvals(t, 'auto-member@example.com')).toEqual([]);
  });
});
