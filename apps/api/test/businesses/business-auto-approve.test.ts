import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { autoApproveBusiness } from '../../src/domain/businesses/auto-approve-business';
import { AUTO_APPROVE_DELAY_SECONDS } from '../../src/domain/businesses/submit-business';
import { COMMANDS } from '../../src/ops/commands';
import { registeredUser } from '../support/identity';
import { completeSetup, createBusiness, request } from '../support/businesses';
import { createTestApp, eventually, type TestApp } from '../support/test-app';

async function submittedBusiness(t: TestApp, email: string): Promise<{ token: string; businessId: string }> {
  const token = await registeredUser(t.app, email);
  const { businessId } = await createBusiness(t.app, token);
  await completeSetup(t.app, token, businessId);
  const res = await request(t.app, 'PATCH', `/api/businesses/${businessId}/update/submit`, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.businessState).toBe('Pending');
  return { token, businessId };
}

async function autoApproveJobs(t: TestApp, businessId: string) {
  const { rows } = await sql<{ state: string; start_after: Date; created_on: Date }>`
    SELECT state, start_after, created_on FROM pgboss.job
    WHERE name = 'business.auto-approve' AND data->>'businessId' = ${businessId}`.execute(t.runtime.database.db);
  return rows;
}

describe('SANDBOX_AUTO_APPROVE=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'true' });
  });
  afterAll(async () => t?.close());

  it('a submitted business is approved a few seconds later by the job, audited as such', async () => {
    const { token, businessId } = await submittedBusiness(t, 'auto@example.com');
    const [job] = await autoApproveJobs(t, businessId);
    expect(job).toBeDefined();
    expect(job!.start_after.getTime() - job!.created_on.getTime()).toBeGreaterThanOrEqual((AUTO_APPROVE_DELAY_SECONDS - 1) * 1000);

    const approved = await eventually(async () => {
      const business = (await request(t.app, 'GET', `/api/businesses/${businessId}`, token)).json().data;
      return business.businessState === 'Approved' ? business : undefined;
    }, 20_000);
    expect(approved.approvedAt).not.toBeNull();
    expect((await request(t.app, 'GET', '/api/user', token)).json().data.businesses[0].businessState).toBe('Approved');
    const last = await t.runtime.database.db
      .selectFrom('business_events')
      .select(['actor', 'actor_user_id', 'action'])
      .where('business_id', '=', businessId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ actor: 'sandbox auto-approval', actor_user_id: null, action: 'business.approved' });

    // Idempotent: running it again changes nothing and records nothing.
    const count = async () => (await t.runtime.database.db.selectFrom('business_events').select('id').where('business_id', '=', businessId).execute()).length;
    const before = await count();
    expect(
      await autoApproveBusiness({ db: t.runtime.database.db, businessId, mail: { mailer: t.runtime.mailer, publicUrl: t.runtime.config.publicUrl } }),
    ).toBe('not-pending');
    expect(await count()).toBe(before);
  });

  it('leaves alone a business that operations declined before the job ran', async () => {
    const { token, businessId } = await submittedBusiness(t, 'declined-first@example.com');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await COMMANDS['disable-business']!.run(t.runtime, [businessId, '--reason', 'Declined']);
    } finally {
      log.mockRestore();
    }
    await eventually(async () => (await autoApproveJobs(t, businessId))[0]?.state === 'completed', 20_000);
    expect((await request(t.app, 'GET', `/api/businesses/${businessId}`, token)).json().data).toMatchObject({
      businessState: 'Disabled',
      stateReason: 'Declined',
    });
  });

  it('does nothing for an unknown business', async () => {
    expect(
      await autoApproveBusiness({
        db: t.runtime.database.db,
        businessId: 'biz_gone',
        mail: { mailer: t.runtime.mailer, publicUrl: t.runtime.config.publicUrl },
      }),
    ).toBe('not-found');
  });
});

describe('SANDBOX_AUTO_APPROVE=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_AUTO_APPROVE: 'false' });
  });
  afterAll(async () => t?.close());

  it('a submitted business stays Pending until operations review it', async () => {
    const { token, businessId } = await submittedBusiness(t, 'manual@example.com');
    expect(await autoApproveJobs(t, businessId)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, (AUTO_APPROVE_DELAY_SECONDS + 2) * 1000));
    expect((await request(t.app, 'GET', `/api/businesses/${businessId}`, token)).json().data.businessState).toBe('Pending');
  });
});
